/**
 * Link normalisation shared by button links and profile socials (spec, Slot data by type, button):
 * a missing scheme is completed to https:// (mailto: for an e-mail address, tel: for a phone number); only http, https, tel, mailto and whatsapp are allowed.
 */
export const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel', 'whatsapp'] as const

export type LinkResult = { ok: true; url: string } | { ok: false; message: string }

const MAX_LENGTH = 2048
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s

const BARE_EMAIL = /^[^\s@/:?#<>"]+@[^\s@/:?#<>"]+\.[a-z]{2,}$/i
/** International (+49 …, 0049 …) or written with the separators people use (030 1234-567); never a bare run of digits (a barcode). */
const BARE_PHONE = /^(?:(?:\+|00)\d[\d ()/-]{5,}|0\d*[ ()/-][\d ()/-]{4,})$/

const refuse = (message: string): LinkResult => ({ ok: false, message })

/**
 * Returns the link as it will be stored, or why it cannot be. Pure: no network, no clock.
 * `example.com:8080/x` and `localhost:3000` are hosts with ports, not schemes.
 */
export function normaliseLink(raw: string): LinkResult {
  const link = raw.trim()
  if (!link) return refuse('Must not be empty.')
  if (/[\u0000-\u001f\u007f]/.test(link)) return refuse('A link cannot contain control characters.')
  // A bare e-mail address or phone number is what a person types for "write to me" or "call me":
  // completed to https:// it would be a broken web address (https://jane@example.com).
  if (BARE_EMAIL.test(link)) return done(`mailto:${link}`)
  if (BARE_PHONE.test(link)) return telLink(link.replace(/\s+/g, ''))
  const m = SCHEME.exec(link)
  // Phone numbers are written with spaces; a tel: URI has none, so they are dropped, not refused.
  if (m?.[1].toLowerCase() === 'tel') return telLink(m[2].replace(/\s+/g, ''))
  if (/\s/.test(link)) return refuse('A link cannot contain spaces; encode them as %20.')

  const looksLikeHostPort = m && (m[1].includes('.') || (m[1].toLowerCase() === 'localhost' && /^\d+(\/|$)/.test(m[2])))
  if (m && !looksLikeHostPort) {
    const scheme = m[1].toLowerCase()
    const rest = m[2]
    switch (scheme) {
      case 'http':
      case 'https':
        return webLink(`${scheme}:${rest}`)
      case 'mailto':
        return /^[^@/]+@[^@/]+\.[^@/]+/.test(rest) ? done(`mailto:${rest}`) : refuse('A mailto: link needs an address like mailto:jane@example.com.')
      case 'whatsapp':
        return rest.length > 0 ? done(`whatsapp:${rest}`) : refuse('A whatsapp: link needs a target like whatsapp://send?phone=15551234567.')
      default:
        return refuse(`The ${scheme}: scheme is not allowed; use ${LINK_SCHEMES.join(', ')}.`)
    }
  }
  return webLink(link.startsWith('//') ? `https:${link}` : `https://${link}`)
}

function telLink(number: string): LinkResult {
  return /^\+?[0-9().-]+$/.test(number) && (number.match(/\d/g) ?? []).length >= 3
    ? done(`tel:${number}`)
    : refuse('A tel: link needs a phone number like tel:+15551234567.')
}

function webLink(link: string): LinkResult {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return refuse('Must be a valid web address like https://example.com/page.')
  }
  const host = url.hostname
  // A bare word ("instagram") is almost always a typo, not an intranet host.
  if (!host || !(host.includes('.') || host.startsWith('[') || host === 'localhost')) {
    return refuse('Must be a valid web address like https://example.com/page.')
  }
  if (!/^https?:\/\//i.test(link)) return refuse('Must be a valid web address like https://example.com/page.')
  return done(link)
}

function done(url: string): LinkResult {
  if (url.length > MAX_LENGTH) return refuse(`Must be at most ${MAX_LENGTH} characters.`)
  return { ok: true, url }
}
