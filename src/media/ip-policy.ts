import { BlockList, isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

// Upload-by-URL must never reach the service's own host or private network (spec, Files: "links
// resolving to a private network address are refused"). The lists follow the IANA special-purpose
// registries (RFC 6890 and its updates): everything that is not globally routable is refused.
const v4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 broadcast
] as const) {
  v4.addSubnet(net, prefix, 'ipv4')
}

const v6 = new BlockList()
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo included)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some stacks)
  ['ff00::', 8], // multicast
] as const) {
  v6.addSubnet(net, prefix, 'ipv6')
}

/** The 16 bytes of an IPv6 address (with or without an embedded dotted quad), or undefined. */
function ipv6Bytes(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined
  try {
    return ipaddr.IPv6.parse(address).toByteArray()
  } catch {
    return undefined
  }
}

const dotted = (b: number[], at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`
const zero = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0)

/**
 * The IPv4 address an IPv6 address carries and routes to: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
 * (2002:AABB:CCDD::/48). A stack that
 * honours these would deliver to the embedded address, so it is what must be checked.
 */
export function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address)
  if (!b) return undefined
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return dotted(b, 12)
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return dotted(b, 12)
  if (zero(b, 0, 12) && !zero(b, 12, 16)) return dotted(b, 12)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return dotted(b, 12)
  if (b[0] === 0x20 && b[1] === 0x02) return dotted(b, 2)
  return undefined
}

/** True only for a globally routable unicast address; anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !v4.check(address, 'ipv4')
  // Zone ids (fe80::1%eth0) only make sense on-link.
  if (!isIPv6(address) || address.includes('%')) return false
  const inner = embeddedIpv4(address)
  if (inner !== undefined) return isPublicAddress(inner)
  return !v6.check(address, 'ipv6')
}
