import { connect as netConnect, type Socket } from 'node:net'
import type { ConnectTarget, Connector, ResolvedAddress, Resolver } from '../../src/media/guarded-fetch.ts'

const LOOPBACK = new Set(['127.0.0.1', '::1'])

/**
 * A resolver and connector for tests that can only ever reach 127.0.0.1 and ::1. The resolver
 * answers from a fixed table and throws for any other name (no real DNS); the connector records
 * every attempt and throws for any non-loopback address before a socket exists. A bug in the
 * code under test can therefore at worst fail a test, never send a packet elsewhere.
 */
export function loopbackNetwork(names: Record<string, string[] | (() => string[])> = {}) {
  const lookups: string[] = []
  const attempts: Array<Pick<ConnectTarget, 'address' | 'port' | 'tls' | 'servername'>> = []
  const resolve: Resolver = async (hostname) => {
    lookups.push(hostname)
    const entry = names[hostname]
    if (!entry) throw new Error(`test resolver: no entry for ${hostname}`)
    const list = typeof entry === 'function' ? entry() : entry
    return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  const connect: Connector = (target) => {
    attempts.push({ address: target.address, port: target.port, tls: target.tls, servername: target.servername })
    if (!LOOPBACK.has(target.address)) throw new Error(`test connector: refusing to connect to ${target.address}`)
    if (target.tls) throw new Error('test connector: no TLS in tests')
    return new Promise<Socket>((done, fail) => {
      const socket = netConnect({ host: target.address, port: target.port })
      socket.once('connect', () => done(socket))
      socket.once('error', fail)
    })
  }
  return { resolve, connect, lookups, attempts }
}
