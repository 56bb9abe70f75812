// A typed Slotline client in a few lines: types generated from /v1/openapi.json by
// openapi-typescript, requests made with openapi-fetch. No casts: the document says what each
// call takes and answers.
//
//   npx openapi-typescript http://127.0.0.1:8080/v1/openapi.json -o examples/client/schema.ts \
//     --default-non-nullable false --header "Authorization: Bearer $SLOTLINE_TOKEN"
//   SLOTLINE_URL=http://127.0.0.1:8080/v1 SLOTLINE_TOKEN=slp_... npx tsx examples/client/client.ts
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.ts'

export type Profile = components['schemas']['Profile']
export type Slot = components['schemas']['Slot']
type Problem = components['schemas']['Error']

/** Every failed call ends here: the API's own message and the fields it names. */
function fail(what: string, status: number, problem: Problem | undefined): never {
  const fields = problem?.errors ? ` ${JSON.stringify(problem.errors)}` : ''
  throw new Error(`${what}: ${status} ${problem?.message ?? ''}${fields}`)
}

/**
 * Creates a page, adds a button, batch-creates a text block and a divider, moves the divider to
 * the top and reads the page back with its slots.
 */
export async function runExample(baseUrl: string, token: string, login: string): Promise<{ profile: Profile; slots: Slot[] }> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } })

  const created = await api.POST('/profiles', { body: { login } })
  if (!created.data) return fail('create the profile', created.response.status, created.error)
  const profileKey = String(created.data.data.id)
  const params = { path: { profileKey } }

  const button = await api.POST('/profiles/{profileKey}/slots', {
    params,
    body: { type: 'button', data: { title: 'My shop', link: 'example.com/shop' } },
  })
  if (!button.data) return fail('add a button', button.response.status, button.error)

  const batch = await api.POST('/profiles/{profileKey}/slots/batch', {
    params,
    body: { slots: [{ type: 'text', data: { title: 'Hello', description: '<p>Welcome to my page.</p>' } }, { type: 'divider', data: {} }] },
  })
  if (!batch.data) return fail('add a batch', batch.response.status, batch.error)

  // The divider (last of the batch) first, then the button and the text.
  const [text, divider] = batch.data.data
  if (!text || !divider) return fail('add a batch', batch.response.status, undefined)
  const reordered = await api.PUT('/profiles/{profileKey}/slots/order', {
    params,
    body: { order: [divider.id, button.data.data.id, text.id] },
  })
  if (!reordered.data) return fail('reorder', reordered.response.status, reordered.error)

  const page = await api.GET('/profiles/{profileKey}', { params: { path: { profileKey }, query: { include: 'slots' } } })
  if (!page.data) return fail('read the page back', page.response.status, page.error)
  return { profile: page.data.data, slots: page.data.data.slots ?? [] }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.SLOTLINE_URL ?? 'http://127.0.0.1:8080/v1'
  const token = process.env.SLOTLINE_TOKEN
  if (!token) throw new Error('Set SLOTLINE_TOKEN to a personal token (the first start prints one).')
  const { profile, slots } = await runExample(url, token, `example.${Date.now().toString(36)}`)
  console.log(`${profile.login}: ${slots.map((s) => `${s.order} ${s.type}`).join(', ')}`)
}
