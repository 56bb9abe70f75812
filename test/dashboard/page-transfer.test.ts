import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { unzipSync } from 'fflate'
import { demo } from '../../src/cli/demo-commands.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, type Visitor } from '../helpers/dashboard.ts'

describe(`dashboard Export and Import a page (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  /** Posts the import form as a browser does: multipart, the CSRF field first, then login and file. */
  async function importForm(v: Visitor, fields: { csrf?: string; login?: string; file: Uint8Array; name: string }) {
    const form = new FormData()
    if (fields.csrf !== undefined) form.append('_csrf', fields.csrf)
    form.append('login', fields.login ?? '')
    form.append('file', new Blob([Buffer.from(fields.file)]), fields.name)
    const cookie = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
    const res = await fetch(`${t.url}/my-links/import`, { method: 'POST', body: form, redirect: 'manual', headers: { cookie } })
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }

  it('the page view offers Export, which downloads the page archive', async () => {
    const { v, user } = await registeredVisitor(t)
    await demo.run(t.ctx, { email: user.email, login: `dash.export.${user.id}` })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const page = await v.get(`/my-links/${profile.id}`)
    assert.match(page.text, new RegExp(`<a class="button secondary" href="/my-links/${profile.id}/export" download>Export</a>`))
    const cookie = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
    const res = await fetch(`${t.url}/my-links/${profile.id}/export`, { headers: { cookie } })
    assert.equal(res.status, 200)
    assert.match(String(res.headers.get('content-disposition')), /attachment/)
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()))
    assert.equal(JSON.parse(new TextDecoder().decode(entries['page.json'])).slots.length, 11)
  })

  it('/my-links imports an exported file as a new page and opens it', async () => {
    const { v, user } = await registeredVisitor(t)
    await demo.run(t.ctx, { email: user.email, login: `dash.import.${user.id}` })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const cookie = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
    const archive = new Uint8Array(await (await fetch(`${t.url}/my-links/${profile.id}/export`, { headers: { cookie } })).arrayBuffer())
    const list = await v.get('/my-links')
    assert.match(list.text, /<h2 id="import-h">Import a page<\/h2>/)
    const res = await importForm(v, { csrf: csrfOf(list.text), login: `dash.copy.${user.id}`, file: archive, name: 'page.zip' })
    assert.equal(res.status, 303, res.text)
    const copy = await profilesRepository.findByLogin(t.ctx.db, `dash.copy.${user.id}`)
    assert.ok(copy)
    assert.equal(res.location, `/my-links/${copy.id}`)
    assert.match((await v.get(res.location!)).text, /Imported dash\.copy\.\d+: 11 blocks\./)
  })

  it('a refused import comes back to /my-links with every problem, nothing created', async () => {
    const { v, user } = await registeredVisitor(t)
    const list = await v.get('/my-links')
    const res = await importForm(v, { csrf: csrfOf(list.text), file: new TextEncoder().encode('{"format":"slotline.page","version":3}'), name: 'page.json' })
    assert.equal(res.status, 303)
    assert.equal(res.location, '/my-links#import-h')
    assert.match((await v.get('/my-links')).text, /The page was not imported\. version: This service reads page documents of version 1/)
    assert.equal((await profilesRepository.listByUser(t.ctx.db, user.id)).length, 0)
  })

  it('a page.json past the API limits (nested too deep, too large) comes back to /my-links with why, nothing created', async () => {
    const { v, user } = await registeredVisitor(t)
    const deep = `{"format":"slotline.page","version":1,"profile":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`
    const large = JSON.stringify({ format: 'slotline.page', version: 1, padding: 'x'.repeat(30 * 1024 * 1024) })
    for (const [file, problem] of [
      [deep, /The page was not imported\. profile(\.a)+: Nested more than 32 levels deep/],
      [large, /The page was not imported\. page\.json is larger than 8 MB/],
    ] as const) {
      const list = await v.get('/my-links')
      const res = await importForm(v, { csrf: csrfOf(list.text), file: new TextEncoder().encode(file), name: 'page.json' })
      assert.equal(res.status, 303, res.text.slice(0, 500))
      assert.equal(res.location, '/my-links#import-h')
      assert.match((await v.get('/my-links')).text, problem)
    }
    assert.equal((await profilesRepository.listByUser(t.ctx.db, user.id)).length, 0)
  })

  it('refuses an import without the CSRF token (403), creating nothing', async () => {
    const { v, user } = await registeredVisitor(t)
    const doc = {
      format: 'slotline.page',
      version: 1,
      profile: {
        login: `nocsrf${user.id}`,
        title: null,
        description: null,
        avatar: null,
        bgImage: null,
        socials: [],
        languageCode: null,
        themeId: 1,
        published: true,
      },
      slots: [],
      files: [],
    }
    const res = await importForm(v, { file: new TextEncoder().encode(JSON.stringify(doc)), name: 'page.json' })
    assert.equal(res.status, 403)
    assert.equal((await profilesRepository.listByUser(t.ctx.db, user.id)).length, 0)
  })

  it("another account's page cannot be exported (404)", async () => {
    const owner = await registeredVisitor(t)
    await demo.run(t.ctx, { email: owner.user.email, login: `dash.private.${owner.user.id}` })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, owner.user.id)
    const { v } = await registeredVisitor(t)
    assert.equal((await v.get(`/my-links/${profile.id}/export`)).status, 404)
  })
})
