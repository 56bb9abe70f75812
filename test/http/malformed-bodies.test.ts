import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { uploadGrants } from '../../src/media/upload-grant-service.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { formsRepository } from '../../src/store/forms.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every route of the running app that takes a body, read from Fastify's own route tree, so a
 * route added by anyone later is covered without touching this file.
 */
function writeRoutes(t: TestApp): Array<{ method: string; path: string }> {
  const found: Array<{ method: string; path: string }> = []
  const prefixes: string[] = []
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)(?:[├└]── )(\S+) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = match[1].length / 4
    prefixes.length = depth
    const path = (prefixes[depth - 1] ?? '') + match[2]
    prefixes[depth] = path
    for (const method of match[3].split(', ')) if (WRITES.has(method)) found.push({ method, path })
  }
  return found
}

const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`

/** Bodies no parser should accept, by content type. Each must be a 4xx, never a 500. */
const malformed: Array<{ name: string; type: string; body: string | Buffer }> = [
  { name: 'truncated JSON', type: 'application/json', body: '{"title":' },
  { name: 'JSON with bare keys', type: 'application/json', body: '{title: 1}' },
  { name: 'JSON that is not UTF-8', type: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { name: 'JSON nested 5,000 deep', type: 'application/json', body: `{"type":"text","data":{"title":"x","extra":${deep}}}` },
  { name: 'multipart without a boundary', type: 'multipart/form-data', body: '{}' },
  { name: 'multipart that is JSON', type: 'multipart/form-data; boundary=x', body: '{}' },
  {
    name: 'multipart cut off in a part',
    type: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
  },
  { name: 'multipart part without headers', type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\nabc\r\n--x--\r\n' },
  { name: 'multipart part with a garbage header', type: 'multipart/form-data; boundary=x', body: '--x\r\nGarbage\r\n\r\nabc\r\n--x--\r\n' },
  {
    name: 'multipart with another boundary',
    type: 'multipart/form-data; boundary=x',
    body: '--y\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://127.0.0.1:9/\r\n--y--\r\n',
  },
  {
    name: 'multipart with 200 parts',
    type: 'multipart/form-data; boundary=x',
    body: `${Array.from({ length: 200 }, (_, i) => `--x\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('')}--x--\r\n`,
  },
  { name: 'empty multipart', type: 'multipart/form-data; boundary=x', body: '' },
  { name: 'form encoding with a lone %', type: 'application/x-www-form-urlencoded', body: 'name=%&email=%zz' },
  { name: 'form encoding that is not UTF-8', type: 'application/x-www-form-urlencoded', body: Buffer.from([0x6e, 0x3d, 0xff, 0xfe, 0x26, 0x3d, 0x3d]) },
  { name: 'form encoding with prototype keys', type: 'application/x-www-form-urlencoded', body: '__proto__=x&constructor[prototype][a]=1&a[b][c]=1' },
  { name: 'form encoding with 5,000 repeats', type: 'application/x-www-form-urlencoded', body: Array.from({ length: 5000 }, () => 'a=1').join('&') },
]

describe(`Malformed bodies on every route that takes one (${STORE})`, () => {
  let t: TestApp
  let user: User
  let token: string
  // A signed-in dashboard session, so its forms get as far as their parser (without one they are
  // refused from the request head, before any body is read).
  let cookie: string
  const params: Record<string, () => Promise<string>> = {}
  before(async () => {
    t = await startApp()
    ;({ user, token } = await makeAccount(t))
    const visitor = Visitor.of(t)
    await visitor.signIn(user.email)
    cookie = [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const profile = await makeProfile(t, user)
    const form = await formsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Hello',
      description: '',
      fields: [{ name: 'name', label: 'Name', type: 'text', required: true }],
      submitLabel: 'Send',
    })
    const [formSlot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    const [text] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'text', data: { title: 'A text' } }])
    params.profileKey = async () => profile.login
    params.slot = async () => String(text.id)
    params.slotId = async () => String(formSlot.id)
    // A genuine upload URL, so the body is read rather than refused at the token.
    params.token = async () => {
      const url = (await uploadGrants.issue(t.ctx, t.ctx.db, user.id)).upload_url
      return url.slice(url.lastIndexOf('/') + 1)
    }
  })
  after(() => t.close())

  const pathFor = async (template: string) => {
    let path = template
    for (const [, name] of template.matchAll(/:(\w+)(?:\([^)]*\))?/g))
      path = path.replace(new RegExp(`:${name}(\\([^)]*\\))?`), await (params[name]?.() ?? '1'))
    return path
  }

  it('finds the API, upload, form and dashboard routes', () => {
    const paths = new Set(writeRoutes(t).map((r) => `${r.method} ${r.path}`))
    for (const expected of [
      'POST /v1/files',
      'POST /v1/profiles/:profileKey/slots',
      'PUT /-/upload/:token',
      'POST /-/upload/:token',
      'POST /-/forms/:slotId',
    ]) {
      assert.ok(paths.has(expected), `${expected} in ${[...paths].join(', ')}`)
    }
  })

  for (const variant of malformed) {
    it(`answers ${variant.name} with a 4xx on every route, in the envelope (OAuth's error shape on /oauth) where the route speaks JSON`, async () => {
      const failures: string[] = []
      for (const route of writeRoutes(t)) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: await pathFor(route.path),
          headers: { 'content-type': variant.type, authorization: `Bearer ${token}`, cookie },
          payload: variant.body,
        })
        const where = `${route.method} ${route.path} → ${res.statusCode}`
        if (res.statusCode < 400 || res.statusCode >= 500) {
          failures.push(`${where}: ${res.body.slice(0, 200)}`)
          continue
        }
        if (String(res.headers['content-type']).startsWith('application/json')) {
          const body = JSON.parse(res.body)
          // The OAuth endpoints answer in their RFCs' shape, which OAuth clients parse (RFC 6749 §5.2, RFC 7591 §3.2.2).
          if (route.path.startsWith('/oauth/')) {
            if (typeof body.error !== 'string' || typeof body.error_description !== 'string')
              failures.push(`${where}: not an OAuth error: ${res.body.slice(0, 200)}`)
            continue
          }
          if (typeof body.message !== 'string' || typeof body.code !== 'string' || !('errors' in body) || typeof body.documentation !== 'string') {
            failures.push(`${where}: not the error envelope: ${res.body.slice(0, 200)}`)
          }
        }
      }
      assert.deepEqual(failures, [])
    })
  }

  it('names the field of a body nested too deep (the slot create of the report)', async () => {
    const res = await t.request('POST', `/v1/profiles/${await params.profileKey()}/slots`, {
      token,
      payload: `{"type":"text","data":{"title":"x","extra":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(res.status, 422)
    assert.ok(Object.keys(res.body.errors)[0].startsWith('data.extra.0.0.'), Object.keys(res.body.errors)[0])
  })

  it('answers 400 malformed_request to broken multipart on POST /v1/files and on an upload URL', async () => {
    for (const body of ['{}', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc']) {
      for (const type of ['multipart/form-data; boundary=x', 'multipart/form-data']) {
        const api = await t.app.inject({ method: 'POST', url: '/v1/files', headers: { 'content-type': type, authorization: `Bearer ${token}` }, payload: body })
        assert.equal(api.statusCode, 400, `${type} ${body}: ${api.body}`)
        assert.equal(api.json().code, 'malformed_request')
        const upload = await t.app.inject({ method: 'POST', url: `/-/upload/${await params.token()}`, headers: { 'content-type': type }, payload: body })
        assert.equal(upload.statusCode, 400, `${type} ${body}: ${upload.body}`)
      }
    }
  })
})
