import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { registeredVisitor } from '../helpers/dashboard.ts'

describe(`dashboard: a page's look in search results (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('saves the search title, description and subject by a plain form post, and shows them on the public page', async () => {
    const { v, user } = await registeredVisitor(t)
    const profile = await makeProfile(t, user)
    const form = await v.get(`/my-links/${profile.id}`)
    assert.match(form.text, /<h2 id="search-h">In search results<\/h2>/)
    assert.match(form.text, /<label for="f-seoTitle">Title in search results<\/label>/)
    const path = `/my-links/${profile.id}/search`
    const res = await v.submit(`/my-links/${profile.id}`, { seoTitle: 'Studio Lind', seoDescription: 'Cups and bowls.', seoSubject: 'organization' }, path)
    assert.equal(res.status, 303)
    const stored = await profilesRepository.findById(t.ctx.db, profile.id)
    assert.deepEqual([stored?.seoTitle, stored?.seoDescription, stored?.seoSubject], ['Studio Lind', 'Cups and bowls.', 'organization'])
    const page = await (await fetch(`${t.url}/${profile.login}`)).text()
    assert.match(page, /<title>Studio Lind<\/title>/)
    assert.match(page, /"@type":"Organization"/)
    const again = await v.get(`/my-links/${profile.id}`)
    assert.match(again.text, /value="organization" checked/)
    // Emptied boxes give the page's own name back.
    assert.equal((await v.submit(`/my-links/${profile.id}`, { seoTitle: '', seoDescription: '', seoSubject: 'person' }, path)).status, 303)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))?.seoTitle, null)
  })

  it('refuses a title past 70 characters, naming the field and keeping what was typed', async () => {
    const { v, user } = await registeredVisitor(t)
    const profile = await makeProfile(t, user)
    const long = 'x'.repeat(71)
    const res = await v.submit(`/my-links/${profile.id}`, { seoTitle: long, seoDescription: '', seoSubject: 'person' }, `/my-links/${profile.id}/search`)
    assert.equal(res.status, 422)
    assert.match(res.text, /id="f-seoTitle-error"/)
    assert.ok(res.text.includes(`value="${long}"`))
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))?.seoTitle, null)
  })
})
