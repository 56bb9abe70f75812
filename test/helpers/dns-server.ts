import { createSocket, type RemoteInfo } from 'node:dgram'

/** The records one name holds in the test zone. */
export interface ZoneEntry {
  TXT?: string[]
  CNAME?: string
  A?: string[]
  AAAA?: string[]
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DOMAINS_DNS_SERVERS or Resolver.setServers. */
  address: string
  /** The zone, by lower-case name: change it between checks. */
  zone: Map<string, ZoneEntry>
  close(): Promise<void>
}

const TYPES = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 } as const
type RecordType = keyof typeof TYPES

function readName(msg: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = []
  let at = start
  while (msg[at] !== 0) {
    const len = msg[at]
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('ascii'))
    at += 1 + len
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 }
}

const encodeName = (name: string) =>
  Buffer.concat([
    ...name
      .split('.')
      .filter(Boolean)
      .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])),
    Buffer.from([0]),
  ])

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  const out = Buffer.alloc(16)
  for (const [i, g] of groups.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2)
  return out
}

function rdata(type: RecordType, value: string): Buffer {
  if (type === 'A') return Buffer.from(value.split('.').map(Number))
  if (type === 'AAAA') return ipv6Bytes(value)
  if (type === 'CNAME') return encodeName(value)
  const text = Buffer.from(value, 'utf8')
  const chunks: Buffer[] = []
  for (let i = 0; i < text.length || i === 0; i += 255) {
    const part = text.subarray(i, i + 255)
    chunks.push(Buffer.from([part.length]), part)
  }
  return Buffer.concat(chunks)
}

function record(name: string, type: RecordType, value: string): Buffer {
  const data = rdata(type, value)
  const fixed = Buffer.alloc(10)
  fixed.writeUInt16BE(TYPES[type], 0)
  fixed.writeUInt16BE(1, 2)
  fixed.writeUInt32BE(60, 4)
  fixed.writeUInt16BE(data.length, 8)
  return Buffer.concat([encodeName(name), fixed, data])
}

/** The answers to (name, type): a CNAME is followed inside the zone, as a recursive server does. */
function answersFor(zone: Map<string, ZoneEntry>, name: string, type: RecordType, depth = 0): Buffer[] {
  const entry = zone.get(name)
  if (!entry || depth > 8) return []
  if (type !== 'CNAME' && entry.CNAME) return [record(name, 'CNAME', entry.CNAME), ...answersFor(zone, entry.CNAME, type, depth + 1)]
  if (type === 'CNAME') return entry.CNAME ? [record(name, 'CNAME', entry.CNAME)] : []
  return (entry[type] ?? []).map((v) => record(name, type, v))
}

function reply(zone: Map<string, ZoneEntry>, msg: Buffer): Buffer {
  const question = readName(msg, 12)
  const qtype = msg.readUInt16BE(question.end)
  const type = (Object.keys(TYPES) as RecordType[]).find((t) => TYPES[t] === qtype)
  const answers = type ? answersFor(zone, question.name, type) : []
  const header = Buffer.alloc(12)
  header.writeUInt16BE(msg.readUInt16BE(0), 0)
  // QR, the query's RD, RA; NXDOMAIN for a name the zone does not hold at all.
  header.writeUInt16BE(0x8080 | (msg.readUInt16BE(2) & 0x0100) | (zone.has(question.name) ? 0 : 3), 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(answers.length, 6)
  return Buffer.concat([header, msg.subarray(12, question.end + 4), ...answers])
}

/** A small authoritative-and-recursive-looking DNS server on 127.0.0.1 (UDP), answering A, AAAA, CNAME and TXT from `zone`. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const socket = createSocket('udp4')
  const zone = new Map<string, ZoneEntry>()
  socket.on('message', (msg: Buffer, peer: RemoteInfo) => {
    try {
      socket.send(reply(zone, msg), peer.port, peer.address)
    } catch {
      // A malformed query gets no answer, as from a real server that drops it.
    }
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  return {
    address: `127.0.0.1:${port}`,
    zone,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
