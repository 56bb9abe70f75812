import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import ipaddr from 'ipaddr.js'
import { parseAddress } from '../kernel/ip-address.ts'

/**
 * The country of a client address, looked up offline in the ranges that
 * @ip-location-db/geo-whois-asn-country ships (the package is CC0-1.0; its data comes from the
 * regional registries' delegation files and is credited to the NRO under CC BY 4.0, see the
 * README). Never a network lookup, and the address itself is never kept: only the two-letter
 * code goes on. Ranges load on the first lookup, which the intake makes after answering.
 */

const PACKAGE = '@ip-location-db/geo-whois-asn-country'
export const UNKNOWN_COUNTRY = 'unknown'

interface Table<N> {
  /** Start and end of each range, ascending (IPv4: the address as a number; IPv6: its top 64 bits). */
  starts: N
  ends: N
  /** Index into `codes`, per range. */
  country: Uint16Array
  codes: string[]
}

let v4: Table<Uint32Array> | undefined
let v6: Table<BigUint64Array> | undefined

/** The package's `<from>,<to>,<CC>` lines, read with indexOf: a split per line costs seconds. */
function readRanges(file: string, each: (i: number, from: string, to: string) => void): { country: Uint16Array; codes: string[] } {
  const require = createRequire(import.meta.url)
  const text = readFileSync(join(dirname(require.resolve(`${PACKAGE}/package.json`)), file), 'latin1')
  let count = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++
  if (text.length && !text.endsWith('\n')) count++
  const country = new Uint16Array(count)
  const codes: string[] = []
  const index = new Map<string, number>()
  let pos = 0
  for (let i = 0; i < count; i++) {
    const a = text.indexOf(',', pos)
    const b = text.indexOf(',', a + 1)
    let end = text.indexOf('\n', b + 1)
    if (end === -1) end = text.length
    each(i, text.slice(pos, a), text.slice(a + 1, b))
    const code = text.slice(b + 1, end).trim()
    let n = index.get(code)
    if (n === undefined) index.set(code, (n = codes.push(code) - 1))
    country[i] = n
    pos = end + 1
  }
  return { country, codes }
}

function loadV4(): Table<Uint32Array> {
  let starts = new Uint32Array(0)
  let ends = new Uint32Array(0)
  const sized = (i: number) => {
    if (i >= starts.length) {
      const grow = (old: Uint32Array) => {
        const next = new Uint32Array(Math.max(1024, old.length * 2))
        next.set(old)
        return next
      }
      starts = grow(starts)
      ends = grow(ends)
    }
  }
  const { country, codes } = readRanges('geo-whois-asn-country-ipv4-num.csv', (i, from, to) => {
    sized(i)
    starts[i] = Number(from)
    ends[i] = Number(to)
  })
  return { starts: starts.slice(0, country.length), ends: ends.slice(0, country.length), country, codes }
}

function loadV6(): Table<BigUint64Array> {
  const starts: bigint[] = []
  const ends: bigint[] = []
  // Only the top 64 bits are kept: registries delegate /64 or larger, and BigInt of the low
  // half would double the load time for nothing.
  const top = (text: string) => (text.length > 20 ? BigInt(text) >> 64n : 0n)
  const { country, codes } = readRanges('geo-whois-asn-country-ipv6-num.csv', (i, from, to) => {
    starts[i] = top(from)
    ends[i] = top(to)
  })
  return { starts: BigUint64Array.from(starts), ends: BigUint64Array.from(ends), country, codes }
}

function findV4(table: Table<Uint32Array>, at: number): string {
  const { starts, ends } = table
  let lo = 0
  let hi = starts.length - 1
  // The last range starting at or before `at`.
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid] <= at) lo = mid
    else hi = mid - 1
  }
  return starts.length && starts[lo] <= at && at <= ends[lo] ? table.codes[table.country[lo]] : UNKNOWN_COUNTRY
}

function findV6(table: Table<BigUint64Array>, at: bigint): string {
  const { starts, ends } = table
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid] <= at) lo = mid
    else hi = mid - 1
  }
  return starts.length && starts[lo] <= at && at <= ends[lo] ? table.codes[table.country[lo]] : UNKNOWN_COUNTRY
}

/** ISO 3166-1 alpha-2 code of the address's country, or 'unknown' (private, loopback, unlisted, malformed). */
export function countryOf(ip: string): string {
  if (typeof ip !== 'string') return UNKNOWN_COUNTRY
  const address = parseAddress(ip)
  // Private, shared, loopback, link-local, multicast, documentation and other special space is
  // nowhere; the registry files still list some of it under the registry's own country
  // (192.168.0.0/16 and 203.0.113.0/24 as AU, 2001:db8::/32 as JP).
  if (address?.range() !== 'unicast') return UNKNOWN_COUNTRY
  if (address instanceof ipaddr.IPv4) {
    const [a, b, c, d] = address.octets
    v4 ??= loadV4()
    return findV4(v4, a * 0x1000000 + b * 0x10000 + c * 0x100 + d)
  }
  const [p0, p1, p2, p3] = address.parts
  // Only global unicast (2000::/3) is delegated to a country.
  if (p0 >> 13 !== 1) return UNKNOWN_COUNTRY
  v6 ??= loadV6()
  return findV6(v6, (BigInt(p0) << 48n) | (BigInt(p1) << 32n) | (BigInt(p2) << 16n) | BigInt(p3))
}
