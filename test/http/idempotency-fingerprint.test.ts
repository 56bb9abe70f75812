import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'

/** POST /v1/files over real HTTP with FormData: a new random boundary on every call, as clients do. */
async function upload(t: TestApp, token: string, png: Buffer, key: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'avatar.png')
  const res = await fetch(`${t.url}/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } })
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any }
}

const filesOf = async (t: TestApp, userId: number) => (await t.ctx.db.selectFrom('files').select('path').where('user_id', '=', userId).execute()).length

describe(`Idempotency fingerprints: the body's bytes, not its size (${STORE})`, () => {
  let t: TestApp
  let red: Buffer
  let blue: Buffer
  before(async () => {
    t = await startApp()
    red = await solid(40, 40, 'png', '#3366cc')
    blue = await solid(40, 40, 'png', '#cc6633')
  })
  after(() => t.close())

  it('refuses a second, different upload of the same size under one key with 422 idempotency_mismatch', async () => {
    assert.equal(red.length, blue.length, 'the two images must be the same size for this test to mean anything')
    assert.notDeepEqual(red, blue)
    const { user, token } = await makeAccount(t)
    const first = await upload(t, token, red, 'avatar-1')
    assert.equal(first.status, 201)
    const second = await upload(t, token, blue, 'avatar-1')
    assert.equal(second.status, 422)
    assert.equal(second.body.code, 'idempotency_mismatch')
    assert.equal(await filesOf(t, user.id), 1)
  })

  it('replays a retry of the same upload, though the client chose a new multipart boundary', async () => {
    const { user, token } = await makeAccount(t)
    const first = await upload(t, token, red, 'avatar-2')
    const again = await upload(t, token, red, 'avatar-2')
    assert.equal(again.status, 201)
    assert.equal(again.replayed, 'true')
    assert.equal(again.body.data.path, first.body.data.path)
    assert.equal(await filesOf(t, user.id), 1)
  })

  it('compares JSON bodies byte for byte', async () => {
    const { token } = await makeAccount(t)
    const send = (payload: string) =>
      t.request('POST', '/v1/profiles', { token, payload, headers: { 'content-type': 'application/json', 'idempotency-key': 'bytes-1' } })
    assert.equal((await send('{"login":"idem.bytes"}')).status, 201)
    const replay = await send('{"login":"idem.bytes"}')
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    const respelled = await send('{ "login": "idem.bytes" }')
    assert.equal(respelled.status, 422)
    assert.equal(respelled.body.code, 'idempotency_mismatch')
  })

  it('answers a deeply nested body under a key with 422 naming the field, never 500', async () => {
    const { token } = await makeAccount(t)
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
    const res = await t.request('POST', '/v1/profiles', {
      token,
      payload: `{"login":"idem.deep","extra":${deep}}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
    })
    assert.equal(res.status, 422)
    assert.equal(res.body.code, 'validation_failed')
    const [field] = Object.keys(res.body.errors)
    assert.ok(field.startsWith('extra.0.0.0'), field)
  })
})
