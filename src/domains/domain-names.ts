import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'

/** RFC 1035 limits: 253 characters in all, 63 per label. */
const MAX_NAME = 253
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/**
 * A domain as an owner typed it, in the one form the service keeps and compares: lower-case
 * ASCII (an internationalised name in punycode), no scheme, path, port or trailing dot.
 * Undefined when it cannot be a host name at all.
 */
export function normalDomain(raw: string): string | undefined {
  let name = raw.trim().toLowerCase()
  name = name
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '')
  if (!name || name.includes(':') || name.includes('@')) return undefined
  const ascii = domainToASCII(name)
  if (!ascii || ascii.length > MAX_NAME) return undefined
  return ascii
}

/** The host of PUBLIC_URL, lower-case, without port: the service's own, never claimable. */
export const serviceHost = (publicUrl: string): string => new URL(publicUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '')

/**
 * Why `name` (normalised) cannot be connected, or undefined: it must be a public DNS name of
 * two labels or more, and neither the service's own host nor one of its subdomains, whose
 * pages and cookies are the service's.
 */
export function domainProblem(name: string | undefined, ownHost: string): string | undefined {
  if (name === undefined) return 'Enter a domain name such as links.example.com.'
  if (isIP(name)) return 'Enter a domain name, not an IP address.'
  const labels = name.split('.')
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return 'Enter a domain name such as links.example.com.'
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1])) return 'The domain must end in a real top-level domain, such as .com.'
  if (name === 'localhost' || name.endsWith('.localhost')) return 'Enter a public domain name.'
  if (name === ownHost || name.endsWith(`.${ownHost}`)) return `${ownHost} and its subdomains belong to this service; use a domain of your own.`
  return undefined
}
