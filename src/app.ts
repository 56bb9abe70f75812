import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { createAnswerCache } from './analytics/answer-cache.ts'
import { createVerifiedTokens } from './auth/verified-tokens.ts'
import { createIntake } from './analytics/intake.ts'
import { scheduleAnalyticsPurge } from './analytics/analytics-purge.ts'
import { createPresentedSlotsCache } from './infra/presented-slots.ts'
import { createOwnedProfiles } from './infra/owned-profiles.ts'
import { createMedia } from './media/media.ts'
import { domainResolver } from './domains/dns-check.ts'
import { domainUseCases } from './core/domain-use-cases.ts'
import { createMetrics } from './observability/metrics.ts'
import { sessionStore } from './auth/dashboard-sessions.ts'
import { mailerOf } from './auth/mailer.ts'
import { createProviderMetadataCache } from './auth/single-sign-on.ts'
import { apiModules } from './api/api-modules.ts'
import type { Config } from './config.ts'
import { checkStore, connectionProblems, connectRedis, openStore } from './store/connections.ts'
import { installDashboard } from './dashboard/install-dashboard.ts'
import { installMcp } from './mcp/install.ts'
import { installOAuthEndpoints } from './oauth/endpoints.ts'
import { type AppContext, madeOnFirstUse, newEventBus } from './context.ts'
import { trustedProxies } from './http/client-address.ts'
import { installCompression } from './http/content-encoding.ts'
import { installDocs } from './http/docs.ts'
import { installErrorHandler } from './http/error-handler.ts'
import { databaseIdempotencyStore, redisIdempotencyStore } from './infra/idempotency-store.ts'
import { finishIdempotent } from './http/idempotency.ts'
import { installJsonBody, MAX_BODY_BYTES } from './http/json-body.ts'
import { installZipBody } from './http/zip-body.ts'
import { installSecurityHeaders } from './http/security-headers.ts'
import { installBodyDeadlines, serverTimeouts } from './http/deadlines.ts'
import { installMetrics } from './http/metrics-route.ts'
import { installOps } from './http/ops.ts'
import { installDomainAsk } from './http/domain-ask.ts'
import { installSiteFiles } from './http/site-files.ts'
import { memoryRateLimiter, redisRateLimiter } from './infra/rate-limiter.ts'
import { registerRoutes } from './http/register-routes.ts'
import { validatorCompiler } from './http/validator-compiler.ts'
import { limits } from './kernel/limits.ts'
import { createLogger, logRequestLine } from './observability/logger.ts'
import { installMedia } from './http/media-routes.ts'
import { scheduleFilePurge } from './media/file-purge.ts'
import { installFormSubmissions } from './pages/form-answer-routes.ts'
import { installPublicPages } from './pages/public-pages.ts'
import { installCrawlerFiles } from './pages/crawler-files.ts'
import { schedulePeriodic } from './jobs/periodic-job.ts'
import { migrateToLatest } from './store/migrate.ts'
import { scheduleDailySummaries } from './webhooks/daily-summaries.ts'
import { scheduleScheduleEdges } from './webhooks/schedule-edges.ts'
import { createWebhookSender } from './webhooks/sender.ts'

export interface ContextOptions {
  logger?: Logger
  /** PostgreSQL schema (tests isolate each suite in one). */
  schema?: string
  sqliteFile?: string
  /** Redis key prefix (tests isolate each suite by one). */
  redisPrefix?: string
}

function loadSecret(config: Config): Buffer {
  if (config.secret) return Buffer.from(config.secret, 'utf8')
  const file = join(config.dataDir, 'secret.key')
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex')
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(32)
  writeFileSync(file, secret.toString('hex'), { mode: 0o600 })
  return secret
}

/** Opens the store (migrated), Redis when configured, and the shared services. */
export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const log = options.logger ?? createLogger(config.logLevel)
  const closers: Array<() => Promise<void> | void> = []
  const db = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, schema: options.schema, sqliteFile: options.sqliteFile })
  closers.push(() => db.destroy())
  let redis: Redis | undefined
  try {
    await checkStore(db, config)
    await migrateToLatest(db)
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, options.redisPrefix, log)
  } catch (err) {
    // A start that fails leaves no pool behind.
    await db.destroy()
    throw err
  }
  if (redis) {
    const r = redis
    closers.push(async () => void (await r.quit()))
  }
  const windowMs = limits.idempotencyHours * 3600_000
  const ctx: AppContext = {
    config,
    db,
    redis,
    log,
    sessions: sessionStore(db, redis),
    rateLimiter: redis ? redisRateLimiter(redis) : memoryRateLimiter(),
    idempotency: redis ? redisIdempotencyStore(redis, windowMs) : databaseIdempotencyStore(db, windowMs),
    events: newEventBus(),
    secret: loadSecret(config),
    onClose: (fn) => void closers.push(fn),
    closers,
    jobs: new Map(),
    slotCopies: createPresentedSlotsCache(),
    ownedProfiles: createOwnedProfiles(),
    answerCache: createAnswerCache(),
    verifiedTokens: createVerifiedTokens(redis),
  } as Omit<AppContext, 'media' | 'intake' | 'metrics' | 'mailer' | 'webhooks' | 'dns' | 'providerMetadata'> as AppContext
  madeOnFirstUse(ctx, 'media', () => createMedia(ctx))
  madeOnFirstUse(ctx, 'intake', () => createIntake(ctx))
  madeOnFirstUse(ctx, 'metrics', createMetrics)
  madeOnFirstUse(ctx, 'mailer', () => mailerOf(config))
  madeOnFirstUse(ctx, 'webhooks', () => createWebhookSender(ctx))
  madeOnFirstUse(ctx, 'dns', () => domainResolver(config.domains.dnsServers))
  madeOnFirstUse(ctx, 'providerMetadata', createProviderMetadataCache)
  return ctx
}

export async function closeContext(ctx: AppContext): Promise<void> {
  for (const fn of [...ctx.closers].reverse()) {
    try {
      await fn()
    } catch (err) {
      ctx.log.error({ err }, 'error while closing')
    }
  }
}

/** The hooks every request passes through, whatever its route. */
export type GlobalHook = 'requestLog' | 'metrics' | 'securityHeaders' | 'compression' | 'requestId' | 'bodyDeadlines' | 'idempotency'

export interface AppOptions {
  /**
   * Global hooks to leave out (all are on unless set false): bench/hooks.ts measures what each
   * costs. Decided once while the app is assembled, so a request pays nothing for the choice.
   */
  hooks?: Partial<Record<GlobalHook, boolean>>
  /** How many addresses one sitemap file holds (the protocol's limit unless a test needs fewer). */
  sitemapUrlsPerFile?: number
}

/** One process, four faces: the API, docs, operations and (later) pages share one Fastify. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const on = (hook: GlobalHook) => options.hooks?.[hook] !== false
  // One test of TRUST_PROXY for Fastify's req.ip and the public page fast path (http/client-address.ts).
  const trust = trustedProxies(ctx.config.trustProxy)
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID()
    },
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: trust ?? false,
    ...serverTimeouts(ctx.config),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
    // One line per request, written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  })
  app.setValidatorCompiler(validatorCompiler as any)

  installJsonBody(app)
  installZipBody(app)
  if (on('securityHeaders')) installSecurityHeaders(app, { https: ctx.config.publicUrl.startsWith('https:') })
  if (on('bodyDeadlines')) installBodyDeadlines(app, ctx.config)

  // The hooks every request runs are callback hooks: an async one costs each request a promise
  // and its microtasks, for work that is synchronous. The request id is set as the answer goes
  // out (every answer Fastify sends passes onSend), not on arrival: an onRequest hook cost
  // /-/healthz about 3 % (two apps in one process, driven in alternate rounds), and onSend runs
  // anyway.
  if (on('requestId')) {
    app.addHook('onSend', (req, reply, payload, done) => {
      reply.header('x-request-id', req.id)
      done(null, payload)
    })
  }
  if (on('idempotency')) {
    app.addHook('onSend', (req, reply, payload, done) => {
      if (!req.idempotency) return done(null, payload)
      finishIdempotent(ctx, req, reply, payload).then(() => done(null, payload), done)
    })
  }
  if (on('requestLog')) {
    app.addHook('onResponse', (req, reply, done) => {
      logRequestLine(req.log as Logger, req.method, req.url, reply.statusCode, Math.round(reply.elapsedTime))
      done()
    })
  }

  closeConnectionsAsTheyTurnIdle(app)
  installErrorHandler(app, ctx)
  if (on('compression')) installCompression(app)
  const metrics = installMetrics(app, ctx, on('metrics'))
  installOps(app, ctx, metrics, () => connectionProblems(ctx.db, ctx.redis))
  installDomainAsk(app, ctx)
  installSiteFiles(app)
  installMedia(app, ctx)
  registerRoutes(app, ctx, apiModules)
  installPublicPages(app, ctx, trust)
  installCrawlerFiles(app, ctx, options.sitemapUrlsPerFile)
  installFormSubmissions(app, ctx)
  installDashboard(app, ctx)
  installMcp(app, ctx)
  installOAuthEndpoints(app, ctx)
  installDocs(app, ctx, apiModules)

  scheduleBackgroundWork(ctx)
  return app
}

/** The periodic work every instance takes part in; each job runs on one instance at a time. */
function scheduleBackgroundWork(ctx: AppContext): void {
  // Idempotency records past their window are purged hourly (Redis expires its own).
  schedulePeriodic(ctx, {
    name: 'idempotency-purge',
    everyMs: 3600_000,
    run: async () => {
      const removed = await ctx.idempotency.purgeExpired()
      return removed ? { removed } : undefined
    },
  })
  // Connected domains' records are checked again, so one whose DNS moved away stops being served.
  schedulePeriodic(ctx, {
    name: 'domain-checks',
    everyMs: ctx.config.domains.checkEveryMs,
    run: async () => {
      const tally = await domainUseCases.checkDue(ctx)
      return tally.checked ? tally : undefined
    },
  })
  scheduleAnalyticsPurge(ctx)
  scheduleFilePurge(ctx)
  ctx.webhooks.start()
  scheduleScheduleEdges(ctx)
  scheduleDailySummaries(ctx)
}

/**
 * Node closes the keep-alive connections that are idle when the server closes, not those that
 * turn idle later: one whose response was still going out at that moment stayed open, and the
 * shutdown with it, for the keep-alive timeout (72 s; a supervisor's grace period is often 30 s).
 * From the start of the close until the server has closed, connections are closed as they turn
 * idle; requests in flight still finish.
 */
function closeConnectionsAsTheyTurnIdle(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50).unref()
    app.server.once('close', () => clearInterval(sweep))
    done()
  })
}
