import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, beforeEach, describe, it } from 'node:test'
import sharp from 'sharp'
import { zipSync } from 'fflate'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

const text = (s: string) => new TextEncoder().encode(s)

/** A valid version 1 document with one picture, whose image is files/1.png. */
const documentWith = (overrides: Record<string, unknown> = {}) => ({
  format: 'slotline.page',
  version: 1,
  profile: { login: 'hostile.page', title: 'T', description: null, avatar: null, bgImage: null, socials: [], languageCode: null, themeId: 1, published: true },
  slots: [
    { type: 'button', data: { title: 'A link', link: 'https://example.com/a' } },
    { type: 'picture', data: { path: 'files/1.png' } },
  ],
  files: [{ name: 'files/1.png', mime: 'image/png', width: 4, height: 4 }],
  ...overrides,
})

let png: Uint8Array

/** Every file under a directory, recursively (the service's stored objects). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
  } catch {
    return []
  }
}

describe(`POST /profiles/import with hostile files (${STORE})`, () => {
  let t: TestApp
  let token: string
  let userId: number
  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    userId = account.user.id
    png = new Uint8Array(
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c00' } })
        .png()
        .toBuffer(),
    )
  })
  after(() => t.close())

  const counts = async () => ({
    profiles: (await t.ctx.db.selectFrom('profiles').select('id').where('user_id', '=', userId).execute()).length,
    files: (await t.ctx.db.selectFrom('files').select('id').where('user_id', '=', userId).execute()).length,
    events: (await t.ctx.db.selectFrom('events').select('id').where('user_id', '=', userId).execute()).length,
    objects: filesUnder(join(t.ctx.config.dataDir, 'files')).length,
  })
  let before0: Awaited<ReturnType<typeof counts>>
  beforeEach(async () => {
    before0 = await counts()
  })

  const send = (bytes: Uint8Array) =>
    t.request('POST', '/v1/profiles/import', { token, payload: Buffer.from(bytes), headers: { 'content-type': 'application/zip' } })

  /** The answer is the 4xx expected, naming `needle`, and nothing at all was stored. */
  async function refusedWithNothingWritten(res: Awaited<ReturnType<typeof send>>, status: number, needle: RegExp) {
    assert.equal(res.status, status, res.text)
    assert.match(JSON.stringify(res.body), needle)
    assert.deepEqual(await counts(), before0)
  }

  it('a valid archive is imported (the baseline the refusals below differ from)', async () => {
    const res = await send(zipSync({ 'page.json': text(JSON.stringify(documentWith())), 'files/1.png': png }))
    assert.equal(res.status, 201, res.text)
    assert.equal(res.body.data.created.files, 1)
    await t.request('GET', '/v1/profiles/hostile.page', { token })
  })

  it('refuses a zip bomb (an entry inflating past 100 times its size) with 413', async () => {
    const bomb = zipSync(
      {
        'page.json': text(JSON.stringify(documentWith({ profile: { ...documentWith().profile, login: 'bomb.page' } }))),
        'files/1.png': new Uint8Array(30 * 1024 * 1024),
      },
      { level: 9 },
    )
    assert.ok(bomb.length < 200_000)
    await refusedWithNothingWritten(await send(bomb), 413, /files\/1\.png.*zip bomb/)
  })

  it('refuses an entry that climbs out with ../', async () => {
    await refusedWithNothingWritten(await send(zipSync({ 'page.json': text('{}'), '../../etc/cron.d/x': text('x') })), 422, /climbs out/)
  })

  it('refuses an entry with an absolute path', async () => {
    await refusedWithNothingWritten(await send(zipSync({ 'page.json': text('{}'), '/etc/passwd': text('x') })), 422, /absolute path/)
  })

  it('refuses an archive of 10,000 entries', async () => {
    const many: Record<string, Uint8Array> = { 'page.json': text(JSON.stringify(documentWith())) }
    for (let i = 0; i < 10_000; i++) many[`files/${i}.png`] = text('')
    await refusedWithNothingWritten(await send(zipSync(many, { level: 0 })), 422, /more than 1000 entries/)
  })

  it('refuses duplicate entry names', async () => {
    const zip = Buffer.from(zipSync({ 'page.json': text(JSON.stringify(documentWith())), 'files/1.png': png, 'files/X.png': png }, { level: 0 }))
    // Same length, so every offset stays right: the second entry now has the first one's name.
    const twice = Buffer.from(zip.toString('latin1').replaceAll('files/X.png', 'files/1.png'), 'latin1')
    await refusedWithNothingWritten(await send(twice), 422, /files\/1\.png\\" appears more than once/)
  })

  it('refuses a page.json of another version, naming version', async () => {
    const res = await send(zipSync({ 'page.json': text(JSON.stringify(documentWith({ version: 2 }))), 'files/1.png': png }))
    await refusedWithNothingWritten(res, 422, /"version":\["This service reads page documents of version 1; this one says 2/)
  })

  it('refuses a page.json of the wrong shape, naming every field', async () => {
    const doc = documentWith({ slots: [{ type: 'button', data: { title: 7 } }, { type: 'picture' }], extra: true })
    const res = await send(zipSync({ 'page.json': text(JSON.stringify(doc)), 'files/1.png': png }))
    await refusedWithNothingWritten(res, 422, /extra/)
    assert.ok(res.body.errors['slots.1.data'], res.text)
  })

  it('refuses slot data its type does not accept, naming the field', async () => {
    const doc = documentWith({ slots: [{ type: 'button', data: { title: 'x', link: 'javascript:alert(1)' } }] })
    const res = await send(zipSync({ 'page.json': text(JSON.stringify(doc)) }))
    await refusedWithNothingWritten(res, 422, /slots\.0\.data\.link/)
  })

  it('refuses a picture that is not an image, naming its file, and stores no other image either', async () => {
    const doc = documentWith({
      profile: { ...documentWith().profile, login: 'not.image', avatar: 'files/2.png' },
      files: [],
    })
    const res = await send(zipSync({ 'page.json': text(JSON.stringify(doc)), 'files/1.png': text('<?php echo 1; ?>'), 'files/2.png': png }))
    await refusedWithNothingWritten(res, 422, /files\/1\.png.*jpeg, png, webp or gif/)
  })

  it('refuses a body that is not a zip, and a zip without page.json', async () => {
    await refusedWithNothingWritten(await send(text('not a zip at all')), 422, /not a zip archive/)
    await refusedWithNothingWritten(await send(zipSync({ 'files/1.png': png })), 422, /no page\.json/)
  })

  it('a dry run of a hostile archive answers the same refusal', async () => {
    const res = await t.request('POST', '/v1/profiles/import', {
      token,
      payload: Buffer.from(zipSync({ 'page.json': text('{}'), '../x': text('x') })),
      headers: { 'content-type': 'application/zip', precognition: 'true' },
    })
    await refusedWithNothingWritten(res, 422, /climbs out/)
  })
})
