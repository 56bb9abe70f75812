import { Type } from '@sinclair/typebox'
import { ConnectDomainInput, CustomDomain, domains } from '../core/use-cases.ts'
import { DataOf, ProfileKeyParam } from '../http/envelope-schemas.ts'
import { route, routes } from '../http/routes.ts'

const KeyParams = Type.Object({ profileKey: ProfileKeyParam })

export default routes(
  'Domains',
  'A page on its owner’s own domain: connect it, create the DNS records shown, check them; the page is served there (with HTTPS) once they are right.',
  '/v1/profiles',
  [
    route({
      method: 'GET',
      url: '/:profileKey/domain',
      operationId: 'getDomain',
      summary: 'The page’s domain, its state and the DNS records it needs',
      description: 'null when the page never had one; a released or removed domain stays visible (state removed) until another is connected.',
      scope: 'profile:read',
      params: KeyParams,
      reply: { 200: DataOf(Type.Union([CustomDomain, Type.Null()])) },
      errors: [404],
      handler: async ({ ctx, principal, params }) => (await domains.get(ctx, principal, params.profileKey)).domain,
    }),
    route({
      method: 'PUT',
      url: '/:profileKey/domain',
      operationId: 'connectDomain',
      summary: 'Connect a domain to the page',
      description:
        'The domain starts pending: create the records in data.records (a TXT proving you own it, and a CNAME, or A/AAAA for a bare domain), then POST …/domain/check. ' +
        'A domain belongs to one page and a page has one domain (409 while another is connected); the service’s own host and its subdomains are refused (422 naming domain).',
      scope: 'profile:write',
      params: KeyParams,
      body: ConnectDomainInput,
      reply: { 200: DataOf(CustomDomain) },
      errors: [404, 409, 422],
      handler: async ({ ctx, principal, params, body, dryRun }) => (await domains.connect(ctx, principal, params.profileKey, body, { dryRun })).domain!,
    }),
    route({
      method: 'POST',
      url: '/:profileKey/domain/check',
      operationId: 'checkDomain',
      summary: 'Check the domain’s DNS records now',
      description:
        'A pending domain becomes active once its TXT record holds the token and it points here; data.problem says what is still missing. Active domains are also checked periodically.',
      scope: 'profile:write',
      params: KeyParams,
      reply: { 200: DataOf(CustomDomain) },
      errors: [404],
      handler: async ({ ctx, principal, params }) => (await domains.check(ctx, principal, params.profileKey)).domain!,
    }),
    route({
      method: 'DELETE',
      url: '/:profileKey/domain',
      operationId: 'removeDomain',
      summary: 'Stop serving the page on its domain',
      description: 'The page is served at its usual address again at once, and the domain’s certificate is no longer renewed.',
      scope: 'profile:write',
      params: KeyParams,
      reply: { 200: DataOf(CustomDomain) },
      errors: [404],
      handler: async ({ ctx, principal, params, dryRun }) => (await domains.remove(ctx, principal, params.profileKey, { dryRun })).domain!,
    }),
  ],
)
