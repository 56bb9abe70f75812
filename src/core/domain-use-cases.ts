import { randomBytes } from 'node:crypto'
import { type Static, Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import { type AppContext, announceProfileChange } from '../context.ts'
import { checkDomainRecords, type Routing, txtRecordName, txtRecordValue } from '../domains/dns-check.ts'
import { domainProblem, normalDomain, serviceHost } from '../domains/domain-names.ts'
import { afterCheck, releaseAt } from '../domains/domain-states.ts'
import { AppError, invalidField, notFound } from '../kernel/errors.ts'
import { Nullable } from '../kernel/schema-helpers.ts'
import { customDomainsRepository as domains, type StoredDomain } from '../store/custom-domains.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import { profilesRepository } from '../store/profiles.ts'
import { isUniqueViolation } from '../store/unique-violation.ts'
import { type ProfileKey, readProfile, type WriteOptions, writeProfile } from './unit-of-work.ts'

// A page on its owner's own domain: connected (pending), proven by a TXT record and routed here
// (active), re-checked periodically (failing when its records go wrong, released after a grace).

export const ConnectDomainInput = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: 300, description: 'Your domain or subdomain, e.g. links.example.com.', examples: ['links.example.com'] }) },
  { additionalProperties: false },
)
export type ConnectDomainInput = Static<typeof ConnectDomainInput>

const DnsRecord = Type.Object(
  {
    type: Type.Union([Type.Literal('TXT'), Type.Literal('CNAME'), Type.Literal('A'), Type.Literal('AAAA')]),
    name: Type.String(),
    value: Type.String(),
    purpose: Type.Union([Type.Literal('ownership'), Type.Literal('routing')], {
      description: 'ownership: always needed; routing: the CNAME for a subdomain, or the A/AAAA records for a bare domain.',
    }),
  },
  { additionalProperties: false },
)

export const CustomDomain = Type.Object(
  {
    domain: Type.String({ examples: ['links.example.com'] }),
    state: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('failing'), Type.Literal('removed')], {
      description: 'pending: waiting for its records; active: the page is served there; failing: its records went wrong (released at releaseAt); removed.',
    }),
    problem: Nullable(Type.String({ description: 'What the last check found wrong.' })),
    records: Type.Array(DnsRecord, { description: 'The DNS records to create at your DNS provider.' }),
    url: Type.String({ description: 'The page’s address on the domain (served once active).' }),
    checkedAt: Nullable(Type.String({ format: 'date-time' })),
    verifiedAt: Nullable(Type.String({ format: 'date-time' })),
    releaseAt: Nullable(Type.String({ format: 'date-time', description: 'When a failing domain is released unless its records are fixed.' })),
  },
  { additionalProperties: false },
)
export type CustomDomain = Static<typeof CustomDomain>

export const DomainAnswer = Type.Object({ domain: Nullable(CustomDomain) }, { additionalProperties: false })
export type DomainAnswer = Static<typeof DomainAnswer>

const routingOf = (ctx: AppContext): Routing => ({
  cnameTarget: ctx.config.domains.cnameTarget ?? serviceHost(ctx.config.publicUrl),
  addresses: ctx.config.domains.addresses,
})

function view(ctx: AppContext, d: StoredDomain): CustomDomain {
  const routing = routingOf(ctx)
  const records: CustomDomain['records'] = [
    { type: 'TXT', name: txtRecordName(d.name), value: txtRecordValue(d.token), purpose: 'ownership' },
    { type: 'CNAME', name: d.name, value: routing.cnameTarget, purpose: 'routing' },
    ...routing.addresses.map((a) => ({ type: a.includes(':') ? ('AAAA' as const) : ('A' as const), name: d.name, value: a, purpose: 'routing' as const })),
  ]
  return {
    domain: d.name,
    state: d.state,
    problem: d.problem,
    records,
    url: domainPageUrl(d.name),
    checkedAt: d.checkedAt,
    verifiedAt: d.verifiedAt,
    releaseAt: d.state === 'failing' ? releaseAt(d.failingSince, ctx.config.domains.graceMs) : null,
  }
}

async function get(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<DomainAnswer> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => {
    const found = await domains.latestOfProfile(db, profile.id)
    return { domain: found ? view(ctx, found) : null }
  })
}

/** Connects a domain to the page (pending until check() finds its records); the same name again answers it as it is. */
async function connect(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: ConnectDomainInput,
  options: WriteOptions = {},
): Promise<DomainAnswer> {
  const name = normalDomain(input.domain)
  const problem = domainProblem(name, serviceHost(ctx.config.publicUrl))
  try {
    return await writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
      // Checked once the page is known to be the caller's: another's page is not_found first.
      if (problem || !name) throw invalidField('domain', problem ?? 'Enter a domain name.')
      const claimed = await domains.liveByName(trx, name!)
      if (claimed && claimed.profileId !== profile.id) throw invalidField('domain', `${name} is already connected to another page.`)
      if (claimed) return { domain: view(ctx, claimed) }
      const own = await domains.liveOfProfile(trx, profile.id)
      if (own) throw new AppError('limit_reached', { message: `This page is already on ${own.name}; remove that domain first.` })
      return { domain: view(ctx, await domains.create(trx, { profileId: profile.id, name, token: randomBytes(16).toString('hex') })) }
    })
  } catch (err) {
    // Two pages asking for one name at once: the live-name index lets one in.
    if (isUniqueViolation(err)) throw invalidField('domain', `${name} is already connected to another page.`)
    throw err
  }
}

/** Checks one domain's records now and stores the outcome; answers the domain as it is after. */
async function recheck(ctx: AppContext, found: StoredDomain, now = new Date()): Promise<StoredDomain> {
  const outcome = await checkDomainRecords(ctx.dns, found.name, found.token, routingOf(ctx))
  const updated = await domains.update(ctx.db, found.id, afterCheck(found, outcome, now, ctx.config.domains.graceMs))
  // The page's canonical address, og:url and QR code follow whether its domain is active.
  if ((found.state === 'active') !== (updated.state === 'active')) {
    const profile = await profilesRepository.findById(ctx.db, found.profileId)
    if (profile) await announceProfileChange(ctx.events, { profileId: profile.id, logins: [profile.login] })
  }
  return updated
}

/** Checks the page's domain now (the owner added the records): pending becomes active once they are right. */
async function check(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<DomainAnswer> {
  const found = await readProfile(ctx, principal, profileKey, (db, profile) => domains.liveOfProfile(db, profile.id))
  if (!found) throw notFound('domain', 'This page has no domain connected; connect one first.')
  return { domain: view(ctx, await recheck(ctx, found)) }
}

async function remove(ctx: AppContext, principal: Principal, profileKey: ProfileKey, options: WriteOptions = {}): Promise<DomainAnswer> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    const found = await domains.liveOfProfile(trx, profile.id)
    if (!found) throw notFound('domain', 'This page has no domain connected.')
    return { domain: view(ctx, await domains.update(trx, found.id, { state: 'removed', problem: 'Removed by the page’s owner.', failingSince: null })) }
  })
}

/** The periodic re-check: every live domain not checked for a period, a batch at a time. */
async function checkDue(ctx: AppContext, now = new Date()): Promise<{ checked: number; active: number; failing: number; removed: number }> {
  const before = new Date(now.getTime() - ctx.config.domains.checkEveryMs / 2).toISOString()
  const tally = { checked: 0, active: 0, failing: 0, removed: 0 }
  for (let batch = await domains.dueForCheck(ctx.db, before, 100); batch.length; batch = await domains.dueForCheck(ctx.db, before, 100)) {
    for (const found of batch) {
      const after = await recheck(ctx, found, now)
      tally.checked++
      if (after.state !== 'pending') tally[after.state]++
    }
  }
  return tally
}

/** The TLS proxy's question (Caddy's `ask`): is this name served here? One indexed read, no DNS. */
const isServed = (ctx: AppContext, name: string): Promise<boolean> => domains.isActive(ctx.db, name)

/** The published page an active domain serves, if any. */
async function pageOfDomain(ctx: AppContext, name: string) {
  const profileId = await domains.activeProfileId(ctx.db, name)
  const profile = profileId === undefined ? undefined : await profilesRepository.findById(ctx.db, profileId)
  return profile?.status ? profile : undefined
}

/** The active domain of a page, if it has one. */
const activeDomainOf = (ctx: AppContext, profileId: number): Promise<string | undefined> => domains.activeNameOfProfile(ctx.db, profileId)

/** The page's canonical address: its domain's while one is active, else `{PUBLIC_URL}/<login>`. */
export const domainPageUrl = (name: string) => `https://${name}/`

async function pageAddress(ctx: AppContext, profile: { id: number; login: string }): Promise<string> {
  const name = await activeDomainOf(ctx, profile.id)
  return name ? domainPageUrl(name) : publicPageUrl(ctx.config, profile.login)
}

export const domainUseCases = Object.freeze({ get, connect, check, remove, checkDue, isServed, pageOfDomain, activeDomainOf, pageAddress })
