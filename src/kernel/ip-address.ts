import { isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * An address as ipaddr.js reads it, an IPv4 client on a dual-stack socket (::ffff:203.0.113.9)
 * as IPv4, or undefined when the text is not one.
 */
export function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // Node's checks first: they take four decimal parts only (ipaddr.js also reads "1.2.3", hex
  // and octal forms, which no socket or proxy reports), and spare ipaddr.js's throw and catch
  // on every text that is not of its kind.
  if (isIPv4(ip)) return ipaddr.IPv4.parse(ip)
  if (!isIPv6(ip)) return undefined
  try {
    const v6 = ipaddr.IPv6.parse(ip)
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6
  } catch {
    return undefined
  }
}
