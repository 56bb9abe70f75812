import { createRequire } from 'node:module'
import type * as Tldts from 'tldts'
import { onFirstUse } from '../kernel/on-first-use.ts'

const tldts = onFirstUse<typeof Tldts>('tldts')

/**
 * Where a visit came from, reduced to a few words before anything is kept: the
 * referring site's registrable domain (or the app whose in-app browser opened the page, or the
 * link's utm_source), the device class and the browser family. Neither the Referer, the full
 * user agent nor the address is stored; only these values are counted per day.
 */

export const DIRECT = 'direct'
export const OTHER = 'other'

export type DeviceClass = 'mobile' | 'tablet' | 'desktop'

// In-app browsers say which app they are in their user agent; each is named by the domain its
// links come from, so a visit from the Instagram app and one referred by instagram.com add up.
const IN_APP: Array<[RegExp, string]> = [
  [/\bInstagram\b/, 'instagram.com'],
  [/\bBarcelona\b|\bThreads\b/, 'threads.net'],
  [/musical_ly|\bTikTok\b|BytedanceWebview|\btrill_/i, 'tiktok.com'],
  [/FBAN\/Messenger|MessengerForiOS|\bMessengerLite|FB_IAB\/(?:MESSENGER|Orca-Android)/, 'messenger.com'],
  [/\bFBAN\/|\bFBAV\/|\bFB_IAB\b|\bFBIOS\b|\bFB4A\b/, 'facebook.com'],
  [/\bTwitter(?:Android)?\b|\bTwitterForiPhone\b/, 'x.com'],
  [/\bLinkedInApp\b/, 'linkedin.com'],
  // On Android the name follows the Safari token without a space: Safari/537.36Snapchat11.83
  [/Snapchat[/\d]/, 'snapchat.com'],
  [/\bPinterest\b/, 'pinterest.com'],
  [/\bWhatsApp\b/, 'whatsapp.com'],
  [/\bTelegram(?:Bot)?\b/, 'telegram.org'],
  [/\bMicroMessenger\b/, 'wechat.com'],
  [/\bLine\/\d/, 'line.me'],
  [/\bDiscord\b/, 'discord.com'],
  [/\bReddit\b/, 'reddit.com'],
  [/\bYouTube\b|com\.google\.android\.youtube/, 'youtube.com'],
]

// Short and regional domains of one site, counted as the site.
const SAME_SITE: Record<string, string> = {
  't.co': 'x.com',
  'twitter.com': 'x.com',
  'lnkd.in': 'linkedin.com',
  'fb.me': 'facebook.com',
  'fb.com': 'facebook.com',
  'youtu.be': 'youtube.com',
  'pin.it': 'pinterest.com',
  'threads.com': 'threads.net',
  'redd.it': 'reddit.com',
  'wa.me': 'whatsapp.com',
  't.me': 'telegram.org',
}

/** The part of ua-parser-js's answer that is read here. */
interface ParsedAgent {
  browser: string | undefined
  engine: string | undefined
  device: string | undefined
}

let parseAgent: ((userAgent: string) => ParsedAgent) | undefined

// ua-parser-js (the 1.x line: MIT; 2.x is AGPL) reads the device from the vendor and model as
// well as from "Mobile" and "Android", which hand-written patterns got wrong for in-app browsers
// that name their platform twice. Loaded on the first visit: a start serves none, and its
// patterns would only add to the memory of a process at rest.
function parsed(userAgent: string): ParsedAgent {
  if (!parseAgent) {
    const UAParser = createRequire(import.meta.url)('ua-parser-js') as new (
      ua: string,
    ) => { getBrowser(): { name?: string }; getEngine(): { name?: string }; getDevice(): { type?: string } }
    parseAgent = (ua) => {
      const p = new UAParser(ua)
      return { browser: p.getBrowser().name, engine: p.getEngine().name, device: p.getDevice().type }
    }
  }
  return parseAgent(userAgent)
}

// The browser families the analytics report, named the way they have always been named;
// ua-parser-js's finer names (Mobile Safari, Chrome WebView, Opera Mini…) fold into them.
function familyOf({ browser, engine }: ParsedAgent): string {
  const name = browser?.toLowerCase() ?? ''
  if (name === 'edge') return 'Edge'
  if (name.startsWith('opera')) return 'Opera'
  if (name === 'samsung internet') return 'Samsung Internet'
  if (name === 'yandex') return 'Yandex'
  if (name === 'vivaldi') return 'Vivaldi'
  if (name === 'ucbrowser') return 'UC Browser'
  if (name.includes('firefox')) return 'Firefox'
  if (name.startsWith('chrom')) return 'Chrome'
  if (name.includes('safari')) return 'Safari'
  // Other browsers built on an engine count with the browser that engine comes from, as
  // before (a Chromium browser without a name of its own says Chrome).
  if (engine === 'Blink') return 'Chrome'
  if (engine === 'WebKit') return 'Safari'
  if (engine === 'Gecko') return 'Firefox'
  return OTHER
}

// Watches count with phones; smart TVs, consoles and anything unnamed with computers.
const deviceOf = ({ device }: ParsedAgent): DeviceClass =>
  device === 'tablet' ? 'tablet' : device === 'mobile' || device === 'wearable' ? 'mobile' : 'desktop'

/** What a user agent says: device class, browser family and the app it is inside, if any. */
export interface AgentFacts {
  device: DeviceClass
  browser: string
  app: string | undefined
}

// The same few hundred agents make most visits: each is read once (bounded, cleared when full).
const agents = new Map<string, AgentFacts>()

export function agentFacts(userAgent: string | undefined): AgentFacts {
  const ua = userAgent ?? ''
  let facts = agents.get(ua)
  if (facts) return facts
  const app = IN_APP.find(([re]) => re.test(ua))?.[1]
  const agent = parsed(ua)
  facts = { device: deviceOf(agent), browser: app ? `${app} app` : familyOf(agent), app }
  if (agents.size >= 5000) agents.clear()
  agents.set(ua, facts)
  return facts
}

const hosts = new Map<string, string>()

/** A host as its registrable domain (`l.instagram.com` → `instagram.com`), short domains folded into their site. */
function siteOf(host: string): string {
  let site = hosts.get(host)
  if (site === undefined) {
    const domain = tldts().getDomain(host, { allowPrivateDomains: false }) ?? host
    site = SAME_SITE[domain] ?? domain
    if (hosts.size >= 5000) hosts.clear()
    hosts.set(host, site)
  }
  return site
}

/** A utm_source as a counter label: lower case, 64 characters of [a-z0-9._-] at most. */
function campaignSource(value: string): string | undefined {
  const clean = value
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
  return clean ? (SAME_SITE[clean] ?? clean) : undefined
}

/** The utm_source of a request path's query, if any (decoded; `+` is a space). */
export function utmSourceOf(url: string | undefined): string | undefined {
  if (!url) return undefined
  const q = url.indexOf('?')
  if (q === -1 || !url.includes('utm_source=', q)) return undefined
  try {
    const value = new URLSearchParams(url.slice(q + 1)).get('utm_source')
    return value ? campaignSource(value) : undefined
  } catch {
    return undefined
  }
}

/**
 * The source of a visit: utm_source when the link carries one, else the app whose in-app
 * browser made it, else the referring site's registrable domain, else 'direct' (no Referer, an
 * unreadable one, or one from this service's own host).
 */
export function sourceOf(input: { utmSource: string | undefined; referer: string | undefined; app: string | undefined; ownHost: string }): string {
  if (input.utmSource) return input.utmSource
  if (input.app) return input.app
  if (!input.referer) return DIRECT
  let host: string
  try {
    const url = new URL(input.referer)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return DIRECT
    host = url.hostname.toLowerCase()
  } catch {
    return DIRECT
  }
  if (host === input.ownHost) return DIRECT
  return siteOf(host)
}
