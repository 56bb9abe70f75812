import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { clientAddress, type TrustedProxy } from '../http/client-address.ts'
import { carriesSessionCookie } from '../auth/session-cookie.ts'
import { retryAfterSeconds, takeAddressLimit } from '../http/rate-limit-hooks.ts'
import { limits } from '../kernel/limits.ts'
import { markdownTokens, publicPageMarkdown } from '../profiles/markdown.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import { type StoredProfile, visitor as visitorUseCases } from '../core/use-cases.ts'
import { serveBeforeFastify } from './cache-hit-fast-path.ts'
import { type ClickTarget, clickDestination, locationOf } from './click-destination.ts'
import { sendMadeImage } from './image-response.ts'
import { etagMatches, prefersMarkdown } from '../http/negotiation.ts'
import { strongEtag } from '../kernel/etag.ts'
import { type CachedPage, PageCache } from './page-cache.ts'
import { representationOf, withEncodings } from './page-encodings.ts'
import { keepPagesFresh } from './page-invalidation.ts'
import { domains, render as rendering } from '../core/use-cases.ts'
import { hostNameOf, serviceHostTest } from './page-hosts.ts'
import { REMOTE_IMAGE_PATH } from '../rendering/remote-image-url.ts'
import { domainPageUrl } from '../core/use-cases.ts'
import { type QrFormat, qrCodes } from '../rendering/qr-code.ts'
import { installRemoteImages } from './remote-images.ts'
import { installSocialCards } from './social-card.ts'
import { noticePage, notFoundPage, notFoundPageIn } from './not-found-page.ts'
import { languageFromHeader } from '../i18n/catalogue.ts'
import { pageSecurityHeaders } from '../rendering/page-security-headers.ts'
import { pageStyle } from '../rendering/theme.ts'
import { parseId } from '../kernel/ids.ts'
import { COUNTING_PATH, countingPixel, imageCacheControl, PIXEL_GIF, pageCacheControl, pageSurrogateKeys, sharedCacheWindow } from './shared-cache.ts'

/** Memory for rendered pages per process: some 3,000 pages of 20 KB. */
const CACHE_BYTES = 64 * 1024 * 1024

// Only segments a login could be: static routes (/v1, /-/..., the dashboard's) win anyway.
const { minLength, maxLength } = limits.login
const LOGIN = `:login(^[a-zA-Z0-9._]{${minLength},${maxLength}}$)`

// What the fast path recognises: /<login>, optionally with a trailing slash or a query.
const PAGE_PATH = new RegExp(`^/([a-zA-Z0-9._]{${minLength},${maxLength}})/?(?:\\?.*)?$`)

type Kind = 'html' | 'markdown'

/** The owner (a dashboard session cookie) is not counted; see auth/session-cookie.ts. */
const isOwnerVisit = (headers: IncomingHttpHeaders) => carriesSessionCookie(headers.cookie)

/** The `Purpose` or `Sec-Purpose` header: prefetches and prerenders are not visits. */
const purposeOf = (headers: IncomingHttpHeaders) => (headers['sec-purpose'] ?? headers.purpose) as string | undefined

interface LoginParams {
  login: string
}

/** What the public routes share: made once per app in installPublicPages. */
interface Pages {
  ctx: AppContext
  trust: TrustedProxy | undefined
  cache: PageCache
  qrCode: ReturnType<typeof qrCodes>
  /** The CDN's window (PUBLIC_CACHE_SECONDS), or 0 when no CDN keeps pages. */
  shared: ReturnType<typeof sharedCacheWindow>
  validation: Record<string, string>
  isServiceHost: (host: string) => boolean
  closing: boolean
}

/**
 * The public face: `/<login>` (HTML, or markdown for `Accept: text/markdown`), its QR codes, and
 * the click redirect under `/-/go/`. Pages are rendered once and served from memory until a
 * write to the profile (any instance, via Redis) invalidates them; every GET still counts a view.
 */
export function installPublicPages(app: FastifyInstance, ctx: AppContext, trust: TrustedProxy | undefined): void {
  // Without a CDN pages may be stored, but every use revalidates: each view is counted, and a
  // 304 is cheap. With one (PUBLIC_CACHE_SECONDS), the page's counting pixel counts instead.
  const shared = sharedCacheWindow(ctx.config.publicCacheSeconds)
  const s: Pages = {
    ctx,
    trust,
    cache: new PageCache(CACHE_BYTES),
    qrCode: qrCodes(),
    shared,
    validation: { 'cache-control': pageCacheControl(shared), vary: 'Accept, Accept-Encoding' },
    isServiceHost: serviceHostTest(() => ctx.config.publicUrl),
    closing: false,
  }
  const freshness = keepPagesFresh(ctx, s.cache)
  app.addHook('onReady', () => freshness.ready)
  app.addHook('onClose', () => freshness.close())
  serveCacheHits(app, s)
  app.addHook('onClose', async () => {
    s.closing = true
  })
  app.get<{ Params: LoginParams }>(`/${LOGIN}`, (req, reply) => answerPage(s, req, reply, req.params.login, false))
  // Callback style: the service's own host, nearly every request, pays one comparison.
  app.addHook('onRequest', (req, reply, done) => {
    const host = hostNameOf(req.headers.host)
    if (s.isServiceHost(host)) return done()
    onCustomDomain(s, req, reply, host).then((answered) => {
      if (!answered) done()
    }, done)
  })
  installSocialCards(app, ctx)
  installRemoteImages(app, ctx)
  installQrCodes(app, s)
  installCountingPixel(app, s)
  installClicks(app, s)
}

const visitor = (req: FastifyRequest) => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  purpose: purposeOf(req.headers),
  referer: req.headers.referer,
  url: req.url,
})

/**
 * A view is one GET of the HTML page by a person's browser (the intake tells people from bots
 * and prefetches); a conditional GET answered 304 is a view too, HEAD and markdown are not.
 */
function countView(
  s: Pages,
  found: CachedPage,
  kind: Kind,
  method: string | undefined,
  ip: string,
  headers: IncomingHttpHeaders,
  url: string | undefined,
): void {
  if (s.shared || kind !== 'html' || method !== 'GET' || isOwnerVisit(headers)) return
  s.ctx.intake.view({ profileId: found.profileId, ip, userAgent: headers['user-agent'], purpose: purposeOf(headers), referer: headers.referer, url })
}

// A missing page has no owner to ask for a language: the visitor's browser says which.
const notFoundHeaders = { ...notFoundPage.headers, 'cache-control': 'no-store', 'content-type': notFoundPage.contentType, vary: 'Accept-Language' }

const sendNotFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .headers(notFoundHeaders)
    .send(notFoundPageIn(languageFromHeader(reply.request.headers['accept-language'])).body)

async function publishedProfile(ctx: AppContext, login: string): Promise<StoredProfile | undefined> {
  const profile = await visitorUseCases.pageByLogin(ctx, login)
  return profile?.status ? profile : undefined
}

/**
 * Every header of both answers is fixed here, once per render, so a cache hit sets them in one
 * call. The security headers are built now, not at start: the public URL is final only once
 * the server listens (PORT=0 in tests).
 */
function cached(
  s: Pages,
  profile: StoredProfile,
  domain: string | undefined,
  body: Buffer,
  own: Record<string, string>,
  expiresAt: number | undefined,
): Promise<CachedPage> {
  const etag = strongEtag(body)
  const notModified = {
    ...pageSecurityHeaders(s.ctx.config.publicUrl, pageStyle(profile.themeId).hash),
    ...s.validation,
    ...pageSurrogateKeys(profile.id, profile.login),
    etag,
  }
  return withEncodings({
    profileId: profile.id,
    login: profile.login,
    domain,
    body,
    etag,
    notModified,
    headers: { ...notModified, ...own, 'content-length': String(body.length) },
    expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
  })
}

// One `now` per render: the blocks shown and the moment the copy expires agree exactly.
async function render(s: Pages, kind: Kind, profile: StoredProfile): Promise<CachedPage> {
  const now = Date.now()
  const domain = await domains.activeDomainOf(s.ctx, profile.id)
  if (kind === 'html') {
    const { html, expiresAt } = await rendering.scheduledPage(s.ctx, profile, { now })
    const counted = s.shared ? html.replace(/<\/body>/, `${countingPixel(profile.id)}</body>`) : html
    return cached(s, profile, domain, Buffer.from(counted), { 'content-type': 'text/html; charset=utf-8' }, expiresAt)
  }
  const { markdown, expiresAt } = await publicPageMarkdown(s.ctx.db, s.ctx.config, profile, now)
  return cached(
    s,
    profile,
    domain,
    Buffer.from(markdown),
    { 'content-type': 'text/markdown; charset=utf-8', 'x-markdown-tokens': String(await markdownTokens(markdown)) },
    expiresAt,
  )
}

/** A cached page, or a fresh render (stored unless a write landed meanwhile); undefined: no page. */
async function page(s: Pages, kind: Kind, login: string): Promise<CachedPage | undefined> {
  const key = `${kind}:${login.toLowerCase()}`
  const counts = s.ctx.metrics.pageCache
  const hit = s.cache.get(key)
  if (hit) {
    counts.hits++
    return hit
  }
  counts.misses++
  const ticket = s.cache.ticket()
  const profile = await publishedProfile(s.ctx, login)
  if (!profile) return undefined
  const rendered = await render(s, kind, profile)
  s.cache.set(key, rendered, ticket)
  return rendered
}

// Cache hits are answered before Fastify sees them; misses, and everything else, go on to the
// routes, which render and fill the cache. A hit writes no log line and so carries no
// x-request-id: there is nothing to correlate it with.
function serveCacheHits(app: FastifyInstance, s: Pages): void {
  const counts = s.ctx.metrics.pageCache
  serveBeforeFastify(app, (req, res) => {
    const method = req.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const path = PAGE_PATH.exec(req.url ?? '')
    if (!path || s.closing || !s.isServiceHost(hostNameOf(req.headers.host))) return false
    const kind: Kind = prefersMarkdown(req.headers.accept) ? 'markdown' : 'html'
    const found = s.cache.get(`${kind}:${path[1].toLowerCase()}`)
    // A page on its own domain is answered by the route: a permanent redirect there.
    if (!found || found.domain) return false
    const sent = representationOf(found, req.headers['accept-encoding'])
    counts.hits++
    if (etagMatches(req.headers['if-none-match'], sent.etag)) {
      res.writeHead(304, sent.notModified).end()
      counts.fastPath[method === 'GET' ? 'GET 304' : 'HEAD 304']++
    } else {
      res.writeHead(200, sent.headers).end(method === 'GET' ? sent.body : undefined)
      counts.fastPath[method === 'GET' ? 'GET 200' : 'HEAD 200']++
    }
    // Counted once the answer is written (end() writes it at once), with the address Fastify's
    // req.ip gives the routes (the same `trust`, from buildApp).
    countView(s, found, kind, method, clientAddress(req, s.trust), req.headers, req.url)
    return true
  })
}

/** The page of `login`, as on the service's host (onDomain false) or at `/` of its own domain. */
async function answerPage(s: Pages, req: FastifyRequest, reply: FastifyReply, login: string, onDomain: boolean) {
  const kind: Kind = prefersMarkdown(req.headers.accept) ? 'markdown' : 'html'
  // Read while the connection is open: once a visitor hangs up, the socket has no address.
  const ip = req.ip
  const found = await page(s, kind, login)
  if (!found) return sendNotFound(reply)
  if (found.domain && !onDomain) {
    // The old address moves for good; an hour's caching lets a released domain hand it back.
    return reply
      .code(301)
      .headers({ location: domainPageUrl(found.domain), 'cache-control': 'public, max-age=3600' })
      .send()
  }
  countView(s, found, kind, req.method, ip, req.headers, req.url)
  const sent = representationOf(found, req.headers['accept-encoding'])
  if (etagMatches(req.headers['if-none-match'], sent.etag)) return reply.code(304).headers(sent.notModified).send()
  return reply.headers(sent.headers).send(sent.body)
}

// What a page on its own domain may reach besides `/`: its clicks (checked below), form
// answers, cards, images and uploaded files. The dashboard, API, OAuth and MCP stay away.
const onDomainPrefixes = ['/-/forms/', '/-/card/', `${REMOTE_IMAGE_PATH}/`, '/static/']
const onDomainFiles = new Set(['/favicon.ico', '/robots.txt', '/sitemap.xml', '/-/healthz'])

/** A request to a host that is not the service's: answered here (true), or let through to its route. */
async function onCustomDomain(s: Pages, req: FastifyRequest, reply: FastifyReply, host: string): Promise<boolean> {
  const path = (req.url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/'
  const profile = await domains.pageOfDomain(s.ctx, host)
  const read = req.method === 'GET' || req.method === 'HEAD'
  if (profile && read && path === '/') {
    await answerPage(s, req, reply, profile.login, true)
    return true
  }
  const qr = /^\/qr\.(svg|png)$/.exec(path)
  if (profile && read && qr) {
    // Cached and purged as on the service's host: the same keys, the same lifetime.
    reply.headers(pageSurrogateKeys(profile.id, profile.login))
    await sendMadeImage(req, reply, await s.qrCode(domainPageUrl(host), qr[1] as QrFormat), imageCacheControl(s.shared, 86_400))
    return true
  }
  if (profile && read && path.toLowerCase() === `/${profile.login.toLowerCase()}`) {
    reply.code(301).headers({ location: '/', 'cache-control': 'public, max-age=3600' }).send()
    return true
  }
  const click = /^\/-\/go\/(\d+)\//.exec(path)
  const through = click ? click[1] === String(profile?.id) : onDomainFiles.has(path) || onDomainPrefixes.some((p) => path.startsWith(p))
  if (profile && through) return false
  sendNotFound(reply)
  return true
}

function installQrCodes(app: FastifyInstance, s: Pages): void {
  for (const format of ['svg', 'png'] as QrFormat[]) {
    app.get<{ Params: LoginParams }>(`/${LOGIN}/qr.${format}`, async (req, reply) => {
      // The code encodes the canonical address, whatever case the request used.
      const hit = s.cache.get(`html:${req.params.login.toLowerCase()}`)
      const profile = hit ? { id: hit.profileId, login: hit.login } : await publishedProfile(s.ctx, req.params.login)
      if (!profile) return sendNotFound(reply)
      const login = profile.login
      const domain = hit ? hit.domain : await domains.activeDomainOf(s.ctx, profile.id)
      const address = domain ? domainPageUrl(domain) : publicPageUrl(s.ctx.config, login)
      reply.headers(pageSurrogateKeys(profile.id, login))
      return sendMadeImage(req, reply, await s.qrCode(address, format), imageCacheControl(s.shared, 86_400))
    })
  }
}

// With a CDN in front (PUBLIC_CACHE_SECONDS), a view is the page's counting pixel,
// which no cache keeps; the page itself may then be a CDN hit the origin never sees.
function installCountingPixel(app: FastifyInstance, s: Pages): void {
  app.get<{ Params: { file: string } }>(`${COUNTING_PATH}:file`, async (req, reply) => {
    const seen = visitor(req)
    const profileId = parseId(/^(\d{1,15})\.gif$/.exec(req.params.file)?.[1] ?? '')
    const profile = s.shared && profileId ? await visitorUseCases.pageById(s.ctx, profileId) : undefined
    if (!profile?.status) return reply.code(404).header('cache-control', 'no-store').send()
    if (!isOwnerVisit(req.headers)) {
      // The image's Referer is the page (with its query, campaign tags included); where the
      // visitor came from before it is not known to an image request.
      const page = pageAddress(req.headers.referer, s.ctx.config.publicUrl)
      s.ctx.intake.view({ profileId: profile.id, ip: seen.ip, userAgent: seen.userAgent, purpose: seen.purpose, referer: undefined, url: page })
    }
    return reply.headers({ 'cache-control': 'private, no-store', 'content-type': 'image/gif' }).send(PIXEL_GIF)
  })
}

function installClicks(app: FastifyInstance, s: Pages): void {
  const { ctx } = s
  app.get<{ Params: { profileId: string; target: string; index?: string } }>('/-/go/:profileId/:target/:index?', async (req, reply) => {
    // Read while the connection is open: once a visitor hangs up, the socket has no address.
    const seen = visitor(req)
    // Each click is a lookup and an analytics write: a script clicking in a loop is stopped here.
    const verdict = await takeAddressLimit(ctx, req, 'clicks')
    if (verdict && !verdict.allowed) {
      const page = noticePage({ code: '429', title: 'Too many clicks', lines: ['Wait a moment, then follow the link again.'] })
      return reply
        .code(429)
        .headers({ ...page.headers, 'retry-after': String(retryAfterSeconds(verdict)), 'cache-control': 'no-store' })
        .type('text/html; charset=utf-8')
        .send(page.body)
    }
    const target = clickTarget(req.params.target, req.params.index)
    const profileId = parseId(req.params.profileId)
    const destination = target && profileId ? await clickDestination(ctx, profileId, target) : undefined
    if (!destination) return sendNotFound(reply)
    // Bots following the link are redirected too; the intake decides what counts.
    if (req.method === 'GET' && !isOwnerVisit(req.headers)) {
      ctx.intake.click({
        profileId: destination.profile.id,
        ...seen,
        slotId: 'slotId' in target! ? target.slotId : null,
        socialIndex: 'socialOrder' in target! ? target.socialOrder : null,
      })
    }
    return reply
      .code(302)
      .headers({ location: locationOf(destination.url), 'cache-control': 'no-store', 'referrer-policy': 'strict-origin-when-cross-origin' })
      .send()
  })
}

/** `/-/go/<profileId>/<slotId>/<index>` or `/-/go/<profileId>/s<order>`; ids only, never a URL. */
function clickTarget(target: string, index: string | undefined): ClickTarget | undefined {
  if (index === undefined) {
    const social = /^s(0|[1-9]\d{0,8})$/.exec(target)
    return social ? { socialOrder: Number(social[1]) } : undefined
  }
  const slotId = parseId(target)
  const at = index === '0' ? 0 : parseId(index)
  return slotId !== undefined && at !== undefined ? { slotId, index: at } : undefined
}

/** The path and query of a same-origin Referer (the page that loaded the counting pixel). */
function pageAddress(referer: string | undefined, publicUrl: string): string | undefined {
  if (!referer) return undefined
  try {
    const at = new URL(referer)
    return at.origin === new URL(publicUrl).origin ? at.pathname + at.search : undefined
  } catch {
    return undefined
  }
}
