import { slotTypes } from '../slots/registry.ts'
import { pageScript } from './theme.ts'

// The origins block types may frame (today YouTube's privacy-enhanced player), read once.
const frameSources = [...new Set(Object.values(slotTypes).flatMap((def) => def.frames ?? []))]

/**
 * Headers of every public page answer; `styleHash` is the hash of the page's theme stylesheet. Scripts and styles run only by hash (no
 * 'unsafe-inline'), so markup that slipped past escaping still could not execute; images come
 * from us alone (uploads under /static/, remote covers and thumbnails through /-/remote/, which
 * also keeps visitors' addresses from the image hosts) or inline data; frames only from the origins the
 * block types declare (the privacy-enhanced YouTube player, loaded on a click). Style attributes are allowed because
 * custom button colours are per-slot values written as escaped `style` attributes; CSS in an
 * attribute cannot run script.
 *
 * No Cross-Origin-Opener-Policy, unlike the dashboard: a public page is the same for every
 * visitor, so there is nothing for an opener to probe, and `same-origin` makes Chromium move a
 * fresh navigation to a new renderer process once the answer arrives, which delays the page's
 * largest contentful paint (docs/decisions/public-page-no-coop.md; bench/demo-page.ts measures
 * it). Links the page opens carry rel="noopener".
 */
export function pageSecurityHeaders(publicUrl: string, styleHash: string): Record<string, string> {
  const self = new URL(publicUrl).origin
  const csp = [
    "default-src 'none'",
    `script-src ${pageScript.hash}`,
    `style-src ${styleHash}`,
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' ${self} data:`,
    "connect-src 'self'",
    frameSources.length ? `frame-src ${frameSources.join(' ')}` : "frame-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  }
}
