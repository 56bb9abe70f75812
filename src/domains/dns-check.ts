import { Resolver } from 'node:dns/promises'

/** The DNS questions a domain check asks: node:dns's Resolver answers them (tests point it at 127.0.0.1). */
export interface DomainResolver {
  resolveTxt(name: string): Promise<string[][]>
  resolveCname(name: string): Promise<string[]>
  resolve4(name: string): Promise<string[]>
  resolve6(name: string): Promise<string[]>
}

/** Where a connected domain must point: a CNAME to `cnameTarget`, or A/AAAA records on `addresses` (or on the target's). */
export interface Routing {
  cnameTarget: string
  addresses: string[]
}

/** The TXT record's name and value that prove a domain's owner connected it. */
export const txtRecordName = (domain: string) => `_slotline.${domain}`
export const txtRecordValue = (token: string) => `slotline-verify=${token}`

/** `servers` (`ip:port` entries) or the system's; a check waits a few seconds at most. */
export function domainResolver(servers: readonly string[]): DomainResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (servers.length) resolver.setServers([...servers])
  return resolver
}

export type CheckOutcome =
  | { verdict: 'ok' }
  /** The records say no: the TXT is missing or wrong, or the name points elsewhere. */
  | { verdict: 'refused'; problem: string }
  /** DNS could not be asked (a timeout, a failing server): the state stays as it is. */
  | { verdict: 'unknown'; problem: string }

// The answers that mean "there is no such record"; anything else means DNS did not answer.
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME'])

class DnsUnavailable extends Error {}

async function ask<T>(question: () => Promise<T[]>): Promise<T[]> {
  try {
    return await question()
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? ''
    if (ABSENT.has(code)) return []
    throw new DnsUnavailable(code || String(err))
  }
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '')

async function routingProblem(resolver: DomainResolver, domain: string, routing: Routing): Promise<string | undefined> {
  const cnames = (await ask(() => resolver.resolveCname(domain))).map(bare)
  if (cnames.includes(bare(routing.cnameTarget))) return undefined
  const wanted = new Set(routing.addresses)
  if (!wanted.size) {
    for (const a of await ask(() => resolver.resolve4(routing.cnameTarget))) wanted.add(a)
    for (const a of await ask(() => resolver.resolve6(routing.cnameTarget))) wanted.add(a)
  }
  const found = [...(await ask(() => resolver.resolve4(domain))), ...(await ask(() => resolver.resolve6(domain)))]
  if (found.some((a) => wanted.has(a))) return undefined
  if (cnames.length) return `${domain} points to ${cnames[0]}; point it to ${routing.cnameTarget}.`
  if (found.length) return `${domain} points to ${found.join(', ')}, which is not this service; point it to ${routing.cnameTarget}.`
  return `${domain} does not point anywhere yet; add the CNAME (or A) record.`
}

/**
 * Checks a domain's records: the TXT at _slotline.<domain> must hold the token (nothing is
 * trusted before it does), and the name must route here. Only DNS is asked, never the domain.
 */
export async function checkDomainRecords(resolver: DomainResolver, domain: string, token: string, routing: Routing): Promise<CheckOutcome> {
  try {
    const txt = (await ask(() => resolver.resolveTxt(txtRecordName(domain)))).map((chunks) => chunks.join(''))
    if (!txt.length) return { verdict: 'refused', problem: `No TXT record at ${txtRecordName(domain)} yet; add it (DNS changes can take a while to appear).` }
    if (!txt.includes(txtRecordValue(token)))
      return { verdict: 'refused', problem: `The TXT record at ${txtRecordName(domain)} does not hold ${txtRecordValue(token)}.` }
    const problem = await routingProblem(resolver, domain, routing)
    return problem ? { verdict: 'refused', problem } : { verdict: 'ok' }
  } catch (err) {
    if (err instanceof DnsUnavailable) return { verdict: 'unknown', problem: `DNS could not be asked (${err.message}); the check is tried again later.` }
    throw err
  }
}
