import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { type AppOptions, buildApp, closeContext, createContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger } from '../../src/observability/logger.ts'
import { configureMedia } from '../../src/media/media.ts'
import type { AppContext } from '../../src/context.ts'
import { profileService } from '../../src/profiles/profile-service.ts'
import type { StoredProfile } from '../../src/store/profiles.ts'
import type { Ability } from '../../src/store/tokens.ts'
import type { User } from '../../src/store/users.ts'
import { loopbackNetwork } from '../media/loopback-network.ts'

/** Which store this run tests: .ci/run sets TEST_DATABASE_URL (and TEST_REDIS_URL) for PostgreSQL + Redis. */
export const STORE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'

const pgUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface ApiResponse {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: any
  text: string
}

export interface RequestOptions {
  token?: string
  body?: unknown
  headers?: Record<string, string>
  /** Raw payload (string or Buffer) instead of JSON. */
  payload?: string | Buffer
}

export interface TestApp {
  app: FastifyInstance
  ctx: AppContext
  /** http://127.0.0.1:<port>, listening for real. */
  url: string
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>
  close(): Promise<void>
}

/** What every test app runs with unless a suite says otherwise: no rate limits, no way out. */
export const TEST_ENV = {
  RATE_LIMIT_PER_SECOND: '0',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_ANALYTICS_PER_MINUTE: '0',
  RATE_LIMIT_MUSIC_PER_MINUTE: '0',
  RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
  RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '0',
  // Network rule: a suite that forgets its fakes reaches a closed local port, never the public APIs.
  MUSIC_DEEZER_URL: 'http://127.0.0.1:9',
  MUSIC_ITUNES_URL: 'http://127.0.0.1:9',
  MUSIC_ODESLI_URL: 'http://127.0.0.1:9',
  YOUTUBE_THUMBNAIL_URL: 'http://127.0.0.1:9',
}

/**
 * A whole service on 127.0.0.1 with its own store: a fresh SQLite file, or a fresh PostgreSQL
 * schema (and Redis key prefix) when the run targets PostgreSQL. Rate limits are off unless the
 * test sets RATE_LIMIT_* in `env`.
 */
export async function startApp(
  env: Record<string, string> = {},
  options: {
    store?: 'sqlite' | 'postgres'
    /** Where the app's log lines go (at LOG_LEVEL, else TEST_LOG, else nowhere). */
    logTo?: NodeJS.WritableStream
    app?: AppOptions
  } = {},
): Promise<TestApp> {
  const store = options.store ?? STORE
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-test-'))
  const id = randomBytes(6).toString('hex')
  let schema: string | undefined
  if (store === 'postgres') {
    schema = `t_${id}`
    const client = new pg.Client({ connectionString: pgUrl() })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...TEST_ENV,
    ...(store === 'postgres' ? { DATABASE_URL: pgUrl(), REDIS_URL: process.env.TEST_REDIS_URL ?? '' } : {}),
    PORT: '0',
    ...env,
  })
  const ctx = await createContext(config, {
    logger: createLogger(env.LOG_LEVEL ?? process.env.TEST_LOG ?? 'silent', options.logTo),
    schema,
    redisPrefix: `test:${id}:`,
  })
  // Network rule: a test app's server-side fetches can only ever reach loopback; suites that
  // test upload-by-URL give it their own table of names.
  const network = loopbackNetwork()
  configureMedia(ctx, { resolve: network.resolve, connect: network.connect })
  const app = await buildApp(ctx, options.app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const url = `http://127.0.0.1:${port}`
  if (!env.PUBLIC_URL) ctx.config.publicUrl = url

  return {
    app,
    ctx,
    url,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      let payload: string | Buffer | undefined = options.payload
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body)
        headers['content-type'] ??= 'application/json'
      }
      const res = await app.inject({ method: method as any, url: path, headers, payload })
      let body: any
      try {
        body = res.body ? JSON.parse(res.body) : undefined
      } catch {
        body = undefined
      }
      return { status: res.statusCode, headers: res.headers, body, text: res.body }
    },
    async close() {
      await app.close()
      if (ctx.redis) {
        const keys = await ctx.redis.keys('*')
        // keys() answers prefixed names; del() would prefix again.
        const prefix = `test:${id}:`
        if (keys.length) await ctx.redis.del(...keys.map((k) => k.slice(prefix.length)))
      }
      await closeContext(ctx)
      if (schema) {
        const client = new pg.Client({ connectionString: pgUrl() })
        await client.connect()
        await client.query(`DROP SCHEMA ${schema} CASCADE`)
        await client.end()
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

let seq = 0
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}${randomBytes(2).toString('hex')}`

export async function makeUser(t: TestApp, overrides: { email?: string; timezone?: string; name?: string } = {}): Promise<User> {
  return accounts.createUser(t.ctx.db, {
    email: overrides.email ?? `user.${unique()}@example.test`,
    password: 'correct horse battery',
    name: overrides.name ?? 'Test User',
    timezone: overrides.timezone,
  })
}

export async function makeToken(t: TestApp, user: User, abilities?: Ability[]): Promise<string> {
  return (await accounts.createToken(t.ctx.db, user.id, { abilities })).token
}

/** A user with a read+write token: the usual start of an API test. */
export async function makeAccount(t: TestApp, overrides: { timezone?: string } = {}): Promise<{ user: User; token: string }> {
  const user = await makeUser(t, overrides)
  return { user, token: await makeToken(t, user) }
}

export async function makeProfile(t: TestApp, user: User, login?: string): Promise<StoredProfile> {
  return profileService.create(t.ctx.db, user.id, login ?? `p_${unique()}`.slice(0, 60))
}
