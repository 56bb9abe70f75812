import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { unzipSync, zipSync } from 'fflate'
import { demo } from '../../src/cli/demo-commands.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** The document without what an import changes: the export time, the login, the schema's address and record ids. */
const comparable = (doc: any) => {
  const { exportedAt: _t, $schema: _s, ...rest } = doc
  const slots = rest.slots.map((s: any) => {
    const { eventId: _e, formId: _f, ...data } = s.data
    return { ...s, data }
  })
  // Where an image is stored is each upload's own: an archive's images are stored anew.
  const files = rest.files.map(({ path: _p, ...file }: any) => file)
  return { ...rest, slots, files, profile: { ...rest.profile, login: '(login)' } }
}

async function download(
  t: TestApp,
  path: string,
  token: string,
): Promise<{ status: number; type: string | null; bytes: Uint8Array; disposition: string | null }> {
  const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  }
}

const postZip = (t: TestApp, token: string, bytes: Uint8Array, query = '', headers: Record<string, string> = {}) =>
  t.request('POST', `/v1/profiles/import${query}`, { token, payload: Buffer.from(bytes), headers: { 'content-type': 'application/zip', ...headers } })

describe(`page export and import (${STORE})`, () => {
  let t: TestApp
  let token: string
  let userId: number
  before(async () => {
    t = await startApp()
    await demo.run(t.ctx, { email: 'porter@example.test', login: 'demo.port' })
    const user = (await usersRepository.findByEmail(t.ctx.db, 'porter@example.test'))!
    userId = user.id
    token = await makeToken(t, user)
  })
  after(() => t.close())

  describe('GET /profiles/{profileKey}/export', () => {
    it('answers a zip with page.json and every image the page uses', async () => {
      const res = await download(t, '/v1/profiles/demo.port/export', token)
      assert.equal(res.status, 200)
      assert.match(String(res.type), /^application\/zip/)
      assert.match(String(res.disposition), /demo\.port\.slotline\.zip/)
      const entries = unzipSync(res.bytes)
      const doc = JSON.parse(new TextDecoder().decode(entries['page.json']))
      assert.equal(doc.format, 'slotline.page')
      assert.equal(doc.version, 1)
      assert.deepEqual(
        doc.slots.map((s: any) => s.type),
        ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'divider', 'event', 'music', 'form', 'countdown'],
      )
      assert.deepEqual(
        doc.files.map((f: any) => f.name).sort(),
        Object.keys(entries)
          .filter((n) => n.startsWith('files/'))
          .sort(),
      )
      assert.equal(doc.files.length, 3)
      const event = doc.slots.find((s: any) => s.type === 'event')
      assert.equal(event.event.title, 'Spring exhibition')
      assert.equal(typeof event.data.eventId, 'number')
      assert.equal(doc.slots.find((s: any) => s.type === 'form').form.fields.length, 3)
      assert.equal(doc.slots.find((s: any) => s.type === 'picture').data.path, 'files/1.png')
    })

    it('answers page.json alone with format=json, valid against the schema the service serves', async () => {
      const res = await t.request('GET', '/v1/profiles/demo.port/export?format=json', { token })
      assert.equal(res.status, 200)
      assert.equal(res.body.profile.title, 'Jane Demo')
      const schema = await t.request('GET', '/v1/schemas/page-document.json')
      assert.equal(schema.status, 200)
      assert.equal(schema.body.properties.version.const, 1)
      assert.equal(res.body.$schema, schema.body.$id)
    })

    it("is 401 without a token and 404 for another account's page", async () => {
      assert.equal((await t.request('GET', '/v1/profiles/demo.port/export')).status, 401)
      const other = await makeAccount(t)
      assert.equal((await t.request('GET', '/v1/profiles/demo.port/export', { token: other.token })).status, 404)
    })
  })

  describe('POST /profiles/import', () => {
    it('round trip: export, import, export gives the same document but for the login and time', async () => {
      const first = await download(t, '/v1/profiles/demo.port/export', token)
      const created = await postZip(t, token, first.bytes, '?login=demo.port.copy')
      assert.equal(created.status, 201, created.text)
      assert.equal(created.body.data.profile.login, 'demo.port.copy')
      assert.deepEqual(created.body.data.created, { slots: 11, socials: 3, files: 3, events: 1, forms: 1 })
      assert.deepEqual(created.body.data.skipped, [])
      const second = await download(t, '/v1/profiles/demo.port.copy/export', token)
      const a = JSON.parse(new TextDecoder().decode(unzipSync(first.bytes)['page.json']))
      const b = JSON.parse(new TextDecoder().decode(unzipSync(second.bytes)['page.json']))
      assert.deepEqual(comparable(b), comparable(a))
      // The copy's images are its own uploads, served like any other.
      const page = (await t.request('GET', '/v1/profiles/demo.port.copy?include=slots', { token })).body.data
      const picture = page.slots.find((s: any) => s.type === 'picture')
      assert.equal((await fetch(picture.computed.src)).status, 200)
    })

    it('imports page.json alone into the same account with its images, kept by path; another account gets the blocks without them skipped, saying why', async () => {
      const doc = (await t.request('GET', '/v1/profiles/demo.port/export?format=json', { token })).body
      const res = await t.request('POST', '/v1/profiles/import?login=demo.port.json', { token, body: doc })
      assert.equal(res.status, 201, res.text)
      assert.deepEqual(res.body.data.skipped, [])
      assert.equal(res.body.data.created.files, 0)
      const other = await makeAccount(t)
      const theirs = await t.request('POST', '/v1/profiles/import?login=demo.port.theirs', { token: other.token, body: doc })
      assert.equal(theirs.status, 201, theirs.text)
      assert.deepEqual(
        theirs.body.data.skipped.map((s: any) => s.field),
        ['slots.1', 'slots.2'],
      )
      assert.match(theirs.body.data.skipped[0].reason, /files\/1\.png is neither in the upload nor one of this account's own images/)
    })

    it("carries each slot's visibility (hidden, a schedule) across and leaves always-shown slots without one", async () => {
      const doc = (await t.request('GET', '/v1/profiles/demo.port/export?format=json', { token })).body
      assert.equal(doc.slots.filter((s: any) => 'visibility' in s).length, 0)
      doc.slots[0].visibility = { hidden: true }
      doc.slots[3].visibility = { startsAt: '2099-12-01T09:00', endsAt: '2099-12-24T18:00' }
      const res = await t.request('POST', '/v1/profiles/import?login=demo.port.vis', { token, body: doc })
      assert.equal(res.status, 201, res.text)
      assert.ok(!res.body.data.skipped.some((s: any) => /visibility/.test(s.field)))
      const again = (await t.request('GET', '/v1/profiles/demo.port.vis/export?format=json', { token })).body
      assert.deepEqual(again.slots[0].visibility, { hidden: true, startsAt: null, endsAt: null })
      // page.json alone: the two slots with images are left out, so the text slot moves up.
      assert.deepEqual(again.slots.find((s: any) => s.type === 'text').visibility, { hidden: false, startsAt: '2099-12-01T09:00', endsAt: '2099-12-24T18:00' })
      assert.equal(again.slots.filter((s: any) => 'visibility' in s).length, 2)
    })

    it('carries the search title, description and subject across, writing none of them while unset', async () => {
      const plain = (await t.request('GET', '/v1/profiles/demo.port/export?format=json', { token })).body
      for (const key of ['seoTitle', 'seoDescription', 'seoSubject']) assert.ok(!(key in plain.profile), key)
      const seo = { seoTitle: 'Porter, ceramics', seoDescription: 'Cups and bowls.', seoSubject: 'organization' }
      assert.equal((await t.request('PATCH', '/v1/profiles/demo.port', { token, body: seo })).status, 200)
      const doc = (await t.request('GET', '/v1/profiles/demo.port/export?format=json', { token })).body
      assert.deepEqual({ seoTitle: doc.profile.seoTitle, seoDescription: doc.profile.seoDescription, seoSubject: doc.profile.seoSubject }, seo)
      const res = await t.request('POST', '/v1/profiles/import?login=demo.port.seo', { token, body: doc })
      assert.equal(res.status, 201, res.text)
      const copy = res.body.data.profile
      assert.deepEqual({ seoTitle: copy.seoTitle, seoDescription: copy.seoDescription, seoSubject: copy.seoSubject }, seo)
      doc.profile.seoTitle = 'x'.repeat(71)
      const refused = await t.request('POST', '/v1/profiles/import?login=demo.port.seo2', { token, body: doc })
      assert.equal(refused.status, 422)
      assert.match(JSON.stringify(refused.body.errors), /seoTitle/)
      await t.request('PATCH', '/v1/profiles/demo.port', { token, body: { seoTitle: null, seoDescription: null, seoSubject: 'person' } })
    })

    it('a dry run (Precognition) answers what would be created and stores nothing', async () => {
      const archive = (await download(t, '/v1/profiles/demo.port/export', token)).bytes
      const before = (await t.request('GET', '/v1/profiles', { token })).body.meta.total
      const res = await postZip(t, token, archive, '?login=demo.port.dry', { precognition: 'true' })
      assert.equal(res.status, 200, res.text)
      assert.equal(res.headers['precognition-success'], 'true')
      assert.equal(res.body.data.dryRun, true)
      assert.equal(res.body.data.created.slots, 11)
      assert.equal((await t.request('GET', '/v1/profiles', { token })).body.meta.total, before)
      assert.equal((await t.request('GET', '/v1/profiles/demo.port.dry', { token })).status, 404)
    })

    it('a taken login is 422 naming profile.login and suggesting free ones', async () => {
      const archive = (await download(t, '/v1/profiles/demo.port/export', token)).bytes
      const res = await postZip(t, token, archive)
      assert.equal(res.status, 422)
      assert.match(res.body.errors['profile.login'][0], /already taken; free ones: demo\.port2, demo\.port_page/)
    })

    it('replays the first answer for a repeated Idempotency-Key and writes once', async () => {
      const archive = (await download(t, '/v1/profiles/demo.port/export', token)).bytes
      const headers = { 'idempotency-key': 'import-once' }
      const first = await postZip(t, token, archive, '?login=demo.port.once', headers)
      const again = await postZip(t, token, archive, '?login=demo.port.once', headers)
      assert.equal(first.status, 201)
      assert.equal(again.status, 201)
      assert.equal(again.headers['idempotent-replayed'], 'true')
      assert.equal(again.body.data.profile.id, first.body.data.profile.id)
    })

    it('is 401 without a token and 403 for a read-only token', async () => {
      const archive = zipSync({ 'page.json': new TextEncoder().encode('{}') })
      assert.equal(
        (await t.request('POST', '/v1/profiles/import', { payload: Buffer.from(archive), headers: { 'content-type': 'application/zip' } })).status,
        401,
      )
      const reader = await makeToken(t, (await usersRepository.findById(t.ctx.db, userId))!, ['profile:read'])
      assert.equal((await postZip(t, reader, archive)).status, 403)
    })

    it('refuses a body in another content type with 415', async () => {
      const res = await t.request('POST', '/v1/profiles/import', { token, payload: 'hello', headers: { 'content-type': 'text/csv' } })
      assert.equal(res.status, 415)
    })
  })

  it("export and import reach only the caller's own pages", async () => {
    const stranger = await makeUser(t)
    const page = await makeProfile(t, stranger)
    assert.equal((await t.request('GET', `/v1/profiles/${page.id}/export?format=json`, { token })).status, 404)
  })
})
