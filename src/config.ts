import { resolve } from 'node:path'
import proxyAddr from '@fastify/proxy-addr'
import { YOUTUBE_THUMBNAIL_HOST } from './kernel/youtube-host.ts'

/**
 * Where YouTube serves video thumbnails: thumbnailUrl points here. The configuration's default
 * for YOUTUBE_THUMBNAIL_URL, which the image proxy reads to fetch them from elsewhere (tests).
 */

/** Whether the peer at this hop (0: the socket's) is a proxy whose X-Forwarded-For is believed. */
export type TrustedProxy = (address: string, hop: number) => boolean

/**
 * TRUST_PROXY's entries (addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`) as
 * one test; none: no proxy is trusted. Throws on an entry that is neither. Here rather than in
 * http/, because the configuration checks each entry when it is read.
 */
export function trustedProxies(entries: readonly string[]): TrustedProxy | undefined {
  return entries.length ? proxyAddr.compile([...entries]) : undefined
}

/** Every environment variable the service reads, parsed and checked once at start. */
export interface Config {
  host: string
  port: number
  publicUrl: string
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  rateLimit: {
    perSecond: number
    perMinute: number
    analyticsPerMinute: number
    musicPerMinute: number
    /** Per client address, for traffic without a valid token; 0 turns every per-address limit off. */
    addressPerMinute: number
    /** Dashboard sign-in attempts per e-mail in 10 minutes (per address: 3×; registrations per address: 1×); 0 turns them off. */
    signInPer10Minutes: number
  }
  /** How long a request body may take (src/http/deadlines.ts). */
  deadlines: { bodyMs: number; uploadMinBytesPerSecond: number; uploadWindowMs: number; refusedBodyBytes: number }
  uploadUrlAllowHosts: string[]
  /** `host:port` pairs where OAuth client metadata documents may be fetched over http and from private addresses (tests only). */
  oauthMetadataAllowHosts: string[]
  /** `host:port` pairs webhook deliveries may reach although private or on another port (tests only). */
  webhookUrlAllowHosts: string[]
  /** How long one webhook delivery attempt may take, answer included; a claim on it lapses soon after. */
  webhookTimeoutMs: number
  music: { deezerUrl: string; itunesUrl: string; odesliUrl: string }
  /** Where YouTube thumbnails are fetched from by the page image proxy (tests point it at 127.0.0.1). */
  youtubeThumbnailUrl: string
  s3:
    | {
        bucket: string
        region: string
        endpoint: string | undefined
        accessKeyId: string | undefined
        secretAccessKey: string | undefined
        forcePathStyle: boolean
      }
    | undefined
  logLevel: string
  /** Bearer token for /-/metrics; unset, only this host may scrape (src/http/metrics-access.ts). */
  metricsToken: string | undefined
  /** Secret for signed upload URLs and visitor hashing; generated into DATA_DIR when unset. */
  secret: string | undefined
  /** Whether anyone may create an account at /register; `closed`: only the CLI creates users. */
  registration: 'open' | 'closed'
  /** Outgoing mail (password reset links): `smtp://user:pass@host:port` or `smtps://…`; unset, no mail is sent. */
  mail: { smtpUrl: string; from: string } | undefined
  /** Reverse proxies whose X-Forwarded-For names the client (src/http/client-address.ts); none by default. */
  trustProxy: string[]
  /** Pages on their owners' own domains (src/domains/, README "Custom domains"). */
  domains: {
    /** `ip` or `ip:port` DNS servers the checks ask; none: the system's. */
    dnsServers: string[]
    /** The name a connected domain's CNAME must name; unset: PUBLIC_URL's host. */
    cnameTarget: string | undefined
    /** The A/AAAA addresses a domain may point at instead; none: the CNAME target's own addresses. */
    addresses: string[]
    /** Who may ask /-/domains/allowed beside loopback: addresses or CIDR ranges (the TLS proxy's). */
    askFrom: string[]
    /** How long a failing domain is kept before it is released. */
    graceMs: number
    /** How often every live domain's records are checked again. */
    checkEveryMs: number
  }
  /**
   * The longest a change to a public page may take to show through a shared cache (a
   * CDN) in seconds; 0, the default: shared caches keep no page and every GET of a page counts a
   * view. Above 0 pages are cacheable there (s-maxage plus stale-while-revalidate add up to this)
   * and views are counted by the page's own uncached counting request (src/pages/shared-cache.ts).
   */
  publicCacheSeconds: number
  /** Single sign-on through one OpenID Connect provider (src/auth/single-sign-on.ts); unset: none. */
  singleSignOn: SingleSignOnConfig | undefined
  /** Whether the sign-in page takes e-mail and password; off only beside single sign-on. */
  passwordSignIn: boolean
}

export interface SingleSignOnConfig {
  /** The provider's issuer identifier; its discovery document lives under it. */
  issuer: string
  clientId: string
  /** Sent to the provider's token endpoint only; never shown, logged or exported. */
  clientSecret: string
  /** The words on the sign-in button. */
  buttonText: string
  /** Lower-case e-mail domains a new account may have; empty: any. */
  allowedDomains: string[]
  /** Whether a person the provider vouches for, without an account here, gets one. */
  autoRegister: boolean
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`)
  }
}

type Env = Record<string, string | undefined>

function str(env: Env, name: string, fallback: string): string {
  const v = env[name]
  return v === undefined || v === '' ? fallback : v
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number, got "${raw}"`)
  const n = Number(raw)
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`)
  return n
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(name, `not a valid URL: "${raw}"`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got "${parsed.protocol}"`)
  }
  return raw.replace(/\/+$/, '')
}

function hostPorts(env: Env, name: string): string[] {
  const raw = env[name]
  if (!raw) return []
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(entry)) {
        throw new ConfigError(name, `expected host:port entries separated by commas, got "${entry}"`)
      }
      return entry
    })
}

function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = str(env, name, fallback).trim().toLowerCase()
  if (!choices.includes(raw as T)) throw new ConfigError(name, `expected ${choices.join(' or ')}, got "${env[name]}"`)
  return raw as T
}

function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN
  if (raw === undefined || raw === '') return undefined
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters without spaces')
  return raw
}

function trustProxy(env: Env): string[] {
  const entries = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const entry of entries) {
    try {
      trustedProxies([entry])
    } catch {
      throw new ConfigError('TRUST_PROXY', `expected IP addresses, CIDR ranges, loopback, linklocal or uniquelocal, separated by commas; got "${entry}"`)
    }
  }
  return entries
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

function addressList(env: Env, name: string, pattern: RegExp, expected: string): string[] {
  const entries = list(env, name)
  for (const entry of entries) if (!pattern.test(entry)) throw new ConfigError(name, `expected ${expected} separated by commas, got "${entry}"`)
  return entries
}

function domainsConfig(env: Env): Config['domains'] {
  const askFrom = list(env, 'DOMAINS_ASK_FROM')
  for (const entry of askFrom) {
    try {
      trustedProxies([entry])
    } catch {
      throw new ConfigError('DOMAINS_ASK_FROM', `expected IP addresses or CIDR ranges separated by commas; got "${entry}"`)
    }
  }
  const target = env.DOMAINS_CNAME_TARGET?.trim().toLowerCase().replace(/\.$/, '')
  if (target && !/^[a-z0-9.-]+$/.test(target)) throw new ConfigError('DOMAINS_CNAME_TARGET', `expected a host name, got "${target}"`)
  return {
    dnsServers: addressList(
      env,
      'DOMAINS_DNS_SERVERS',
      /^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-f:]+\](:\d{1,5})?|[0-9a-f:]+)$/i,
      'IP addresses (with an optional :port)',
    ),
    cnameTarget: target || undefined,
    addresses: addressList(env, 'DOMAINS_ADDRESSES', /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)$/i, 'IPv4 or IPv6 addresses'),
    askFrom,
    graceMs: int(env, 'DOMAINS_GRACE_HOURS', 72, 1, 24 * 365) * 3600_000,
    checkEveryMs: int(env, 'DOMAINS_CHECK_MINUTES', 60, 1, 24 * 60) * 60_000,
  }
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase()
  if (raw === '') return fallback
  if (['on', 'true', '1', 'yes'].includes(raw)) return true
  if (['off', 'false', '0', 'no'].includes(raw)) return false
  throw new ConfigError(name, `expected on or off, got "${env[name]}"`)
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * The OIDC_* variables: all three of issuer, client id and secret, or none of them. The issuer
 * must be https, except on this machine (a provider beside the service, tests).
 */
function singleSignOnConfig(env: Env): SingleSignOnConfig | undefined {
  const given = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((n) => (env[n] ?? '').trim() !== '')
  if (given.length === 0) {
    for (const name of ['OIDC_BUTTON_TEXT', 'OIDC_ALLOWED_DOMAINS', 'OIDC_AUTO_REGISTER']) {
      if ((env[name] ?? '').trim() !== '') throw new ConfigError(name, 'single sign-on is off: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too')
    }
    return undefined
  }
  for (const name of ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']) {
    // The secret's value is never part of a message: the variable's name says enough.
    if (!given.includes(name)) throw new ConfigError(name, `required with ${given.join(' and ')}; single sign-on needs issuer, client id and client secret`)
  }
  // Kept as written, a trailing slash too: the provider's tokens must name exactly this issuer.
  const issuer = env.OIDC_ISSUER_URL!.trim()
  url(env, 'OIDC_ISSUER_URL', undefined, ['http:', 'https:'])
  const parsed = new URL(issuer)
  if (parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new ConfigError('OIDC_ISSUER_URL', `must be an https URL (http only for a provider on this machine), got "${issuer}"`)
  }
  const allowedDomains = list(env, 'OIDC_ALLOWED_DOMAINS').map((d) => d.toLowerCase().replace(/^@/, ''))
  for (const domain of allowedDomains) {
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
      throw new ConfigError('OIDC_ALLOWED_DOMAINS', `expected e-mail domains separated by commas (example.com), got "${domain}"`)
    }
  }
  const buttonText = str(env, 'OIDC_BUTTON_TEXT', 'Sign in with single sign-on').trim()
  if (buttonText.length > 60) throw new ConfigError('OIDC_BUTTON_TEXT', `must be at most 60 characters, got ${buttonText.length}`)
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID!.trim(),
    clientSecret: env.OIDC_CLIENT_SECRET!,
    buttonText,
    allowedDomains,
    autoRegister: onOff(env, 'OIDC_AUTO_REGISTER', false),
  }
}

/** `/register` makes password accounts: with password sign-in off they could not sign in, so it is closed. */
function registration(env: Env, sso: SingleSignOnConfig | undefined): Config['registration'] {
  if (passwordSignIn(env, sso)) return oneOf(env, 'REGISTRATION', ['open', 'closed'], 'open')
  if (oneOf(env, 'REGISTRATION', ['open', 'closed'], 'closed') === 'open') {
    throw new ConfigError(
      'REGISTRATION',
      'open makes password accounts, which cannot sign in with PASSWORD_SIGN_IN=off; leave it unset (new people arrive through OIDC_AUTO_REGISTER)',
    )
  }
  return 'closed'
}

function passwordSignIn(env: Env, sso: SingleSignOnConfig | undefined): boolean {
  const on = onOff(env, 'PASSWORD_SIGN_IN', true)
  if (!on && !sso)
    throw new ConfigError('PASSWORD_SIGN_IN', 'off needs single sign-on (OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET), or nobody could sign in')
  return on
}

export function loadConfig(env: Env = process.env): Config {
  const host = str(env, 'HOST', '127.0.0.1')
  const port = int(env, 'PORT', 8080, 0, 65535)
  const publicUrl = url(env, 'PUBLIC_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`, ['http:', 'https:'])!
  const s3Bucket = env.S3_BUCKET
  const singleSignOn = singleSignOnConfig(env)
  return {
    host,
    port,
    publicUrl,
    dataDir: resolve(str(env, 'DATA_DIR', './data')),
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    rateLimit: {
      perSecond: int(env, 'RATE_LIMIT_PER_SECOND', 5, 0, 1_000_000),
      perMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
      analyticsPerMinute: int(env, 'RATE_LIMIT_ANALYTICS_PER_MINUTE', 20, 0, 1_000_000),
      musicPerMinute: int(env, 'RATE_LIMIT_MUSIC_PER_MINUTE', 15, 0, 1_000_000),
      addressPerMinute: int(env, 'RATE_LIMIT_ADDRESS_PER_MINUTE', 60, 0, 1_000_000),
      signInPer10Minutes: int(env, 'RATE_LIMIT_SIGN_IN_PER_10_MINUTES', 10, 0, 1_000_000),
    },
    deadlines: {
      bodyMs: int(env, 'BODY_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
      uploadMinBytesPerSecond: int(env, 'UPLOAD_MIN_BYTES_PER_SECOND', 16_384, 1024, 1_000_000_000),
      uploadWindowMs: 10_000,
      // Above the largest body any route takes (a page archive, an image upload, with their
      // multipart framing), so a client refused mid-upload still reads its answer.
      refusedBodyBytes: 80 * 1024 * 1024,
    },
    uploadUrlAllowHosts: hostPorts(env, 'UPLOAD_URL_ALLOW_HOSTS'),
    oauthMetadataAllowHosts: hostPorts(env, 'OAUTH_METADATA_ALLOW_HOSTS'),
    webhookUrlAllowHosts: hostPorts(env, 'WEBHOOK_URL_ALLOW_HOSTS'),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_SECONDS', 15, 1, 60) * 1000,
    music: {
      deezerUrl: url(env, 'MUSIC_DEEZER_URL', 'https://api.deezer.com', ['http:', 'https:'])!,
      itunesUrl: url(env, 'MUSIC_ITUNES_URL', 'https://itunes.apple.com', ['http:', 'https:'])!,
      odesliUrl: url(env, 'MUSIC_ODESLI_URL', 'https://api.song.link', ['http:', 'https:'])!,
    },
    youtubeThumbnailUrl: url(env, 'YOUTUBE_THUMBNAIL_URL', YOUTUBE_THUMBNAIL_HOST, ['http:', 'https:'])!,
    s3: s3Bucket
      ? {
          bucket: s3Bucket,
          region: str(env, 'S3_REGION', 'us-east-1'),
          endpoint: url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']),
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: str(env, 'S3_FORCE_PATH_STYLE', 'false') === 'true',
        }
      : undefined,
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    metricsToken: metricsToken(env),
    secret: env.SECRET_KEY || undefined,
    registration: registration(env, singleSignOn),
    mail: env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from: str(env, 'MAIL_FROM', 'Slotline <no-reply@localhost>') } : undefined,
    trustProxy: trustProxy(env),
    domains: domainsConfig(env),
    publicCacheSeconds: int(env, 'PUBLIC_CACHE_SECONDS', 0, 0, 86_400),
    singleSignOn,
    passwordSignIn: passwordSignIn(env, singleSignOn),
  }
}
