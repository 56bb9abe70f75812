import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import { Visitor } from './dashboard.ts'

/** Who the provider signs in next: its claims as the provider holds them. */
export interface Person {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  /** Claims a provider may add that must never grant anything here. */
  [claim: string]: unknown
}

export interface TestProvider {
  issuer: string
  /** The person the next interaction signs in (no form: the test completes it). */
  person: Person | undefined
  close(): Promise<void>
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 with one confidential client.
 * Its login and consent interactions are completed by the server itself for `person`, so
 * neither a test nor a browser has to fill a provider's form.
 */
export async function startProvider(o: { clientId: string; clientSecret: string; redirectUri: () => string }): Promise<TestProvider> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const state: TestProvider = { issuer, person: undefined, close: async () => void (await new Promise((r) => server.close(r))) }
  const people = new Map<string, Person>()
  let provider: Provider | undefined
  const providerOf = () =>
    (provider ??= new Provider(issuer, {
      clients: [
        {
          client_id: o.clientId,
          client_secret: o.clientSecret,
          redirect_uris: [o.redirectUri()],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ ...people.get(id), sub: id }) }),
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      cookies: { keys: ['test provider cookie key'] },
    }))
  const finish = async (req: IncomingMessage, res: ServerResponse) => {
    const p = providerOf()
    const details = await p.interactionDetails(req, res)
    const person = state.person
    if (!person) return void res.writeHead(500).end('no person set')
    people.set(person.sub, person)
    const grant = new p.Grant({ accountId: person.sub, clientId: String(details.params.client_id) })
    grant.addOIDCScope('openid email profile')
    const grantId = await grant.save()
    await p.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false })
  }
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) finish(req, res).catch((err) => res.writeHead(500).end(String(err)))
    else providerOf().callback()(req, res)
  })
  return state
}

/**
 * Follows the browser's way from `start` (an answer of the app redirecting to the provider)
 * through the provider and back; answers the app's response to the callback. A fresh cookie
 * jar at the provider each time, as a person who is not signed in there.
 */
export async function throughProvider(app: Visitor, start: { status: number; location: string | null }) {
  if (start.status !== 303 || !start.location) throw new Error(`expected a redirect to the provider, got ${start.status}`)
  const atProvider = new Visitor(new URL(start.location).origin)
  let location = start.location
  for (let hops = 0; hops < 10; hops++) {
    if (location.startsWith(app.base)) return app.get(location.slice(app.base.length))
    const res = await atProvider.get(new URL(location, atProvider.base).href)
    if (!res.location) throw new Error(`the provider answered ${res.status}: ${res.text.slice(0, 300)}`)
    location = new URL(res.location, atProvider.base).href
  }
  throw new Error('too many redirects')
}
