import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import type { AppContext } from '../context.ts'
import { defineCommand, type OptionValues } from './command.ts'
import { userByEmail } from './user-by-email.ts'

const pageOptions = {
  email: { type: 'string', value: 'E', description: "the page's owner" },
  page: { type: 'string', value: 'LOGIN', description: 'the page, by its login' },
} as const

async function owner(ctx: AppContext, v: OptionValues) {
  return { principal: ownerPrincipal(await userByEmail(ctx, v.email)), page: String(v.page) }
}

/** What the owner needs to read: the state, what is wrong, and the records to create while it is not active. */
function printDomain(d: useCases.CustomDomain): void {
  console.log(`${d.domain}: ${d.state}${d.problem ? ` (${d.problem})` : ''}${d.state === 'active' ? `, served at ${d.url}` : ''}`)
  if (d.state === 'active' || d.state === 'removed') return
  console.log('DNS records to create:')
  for (const r of d.records) console.log(`  ${r.type}\t${r.name}\t${r.value}\t(${r.purpose})`)
  if (d.releaseAt) console.log(`Released at ${d.releaseAt} unless the records are fixed.`)
}

export const domainsAdd = defineCommand({
  name: 'domains add',
  summary: 'Connect a domain to a page and print the DNS records to create.',
  options: { ...pageOptions, domain: { type: 'string', value: 'NAME', description: 'the domain or subdomain, e.g. links.example.com' } },
  required: ['email', 'page', 'domain'],
  async run(ctx, v) {
    const { principal, page } = await owner(ctx, v)
    printDomain((await useCases.domains.connect(ctx, principal, page, { domain: String(v.domain) })).domain!)
    console.log(`Once they exist: domains check --email ${v.email} --page ${page}`)
  },
})

export const domainsCheck = defineCommand({
  name: 'domains check',
  summary: "Check a page's domain records now; the domain turns active once they are right.",
  options: pageOptions,
  required: ['email', 'page'],
  async run(ctx, v) {
    const { principal, page } = await owner(ctx, v)
    const d = (await useCases.domains.check(ctx, principal, page)).domain!
    printDomain(d)
    if (d.state !== 'active') process.exitCode = 1
  },
})

export const domainsList = defineCommand({
  name: 'domains list',
  summary: "Print the domain of each of a user's pages, one JSON object a line.",
  options: { email: pageOptions.email },
  required: ['email'],
  async run(ctx, v) {
    const principal = ownerPrincipal(await userByEmail(ctx, v.email))
    for (const page of await useCases.profiles.list(ctx, principal)) {
      const { domain } = await useCases.domains.get(ctx, principal, page.id)
      if (domain) console.log(JSON.stringify({ page: page.login, ...domain }))
    }
  },
})

export const domainsRemove = defineCommand({
  name: 'domains remove',
  summary: 'Stop serving a page on its domain; it is served at its usual address again.',
  options: pageOptions,
  required: ['email', 'page'],
  async run(ctx, v) {
    const { principal, page } = await owner(ctx, v)
    printDomain((await useCases.domains.remove(ctx, principal, page)).domain!)
  },
})
