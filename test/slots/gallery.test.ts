import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import gallery from '../../src/slots/gallery.ts'
import { h } from '../../src/slots/shared/html.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertValidAccepted,
  ownFile,
  plainWords,
  refusedKeys,
  webLink,
} from '../helpers/slots.ts'

const item = fc.record(
  { path: fc.stringMatching(/^u9\/[a-z0-9]{4,12}\.png$/), text: plainWords(1000), link: fc.oneof(webLink, fc.constant('')) },
  { requiredKeys: ['path'] },
)
const validGallery = fc.record(
  { title: plainWords(120), items: fc.uniqueArray(item, { minLength: 1, maxLength: 30, selector: (i) => i.path }) },
  { requiredKeys: ['items'] },
)
const withDefaults = (d: Record<string, any>) => ({
  title: '',
  ...d,
  items: d.items.map((i: object) => ({ text: '', link: '', ...i })),
})
const r = { h, clickHref: (id: number, i: number) => `/go/${id}/${i}`, fileUrl: (p: string) => `/static/${p}` }

describe(`gallery slots (${STORE})`, () => {
  let t: TestApp
  let user: User
  let token: string
  let base: string
  before(async () => {
    t = await startApp()
    ;({ user, token } = await makeAccount(t))
    base = `/v1/profiles/${(await makeProfile(t, user)).id}/slots`
  })
  after(() => t.close())
  const create = (data: unknown) => t.request('POST', base, { token, body: { type: 'gallery', data } })

  it('accepts your uploads and derives computed.items[].src in order', async () => {
    const a = await ownFile(t, user.id)
    const b = await ownFile(t, user.id)
    const res = await create({ title: 'Work', items: [{ path: a, text: 'First' }, { path: b }] })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.computed.items, [{ src: `${t.url}/static/${a}` }, { src: `${t.url}/static/${b}` }])
  })

  it('names every path that is not one of your uploads', async () => {
    const mine = await ownFile(t, user.id)
    const theirs = await ownFile(t, (await makeUser(t)).id)
    const res = await create({ items: [{ path: mine }, { path: theirs }, { path: 'u1/nope.png' }] })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['data.items.1.path', 'data.items.2.path'])
  })

  it('refuses a path that appears twice, naming the repeat', () => {
    assert.deepEqual(refusedKeys('gallery', { items: [{ path: 'u1/a.png' }, { path: 'u1/b.png' }, { path: 'u1/a.png' }] }), ['data.items.2.path'])
  })

  it('takes 1 to 30 items', () => {
    assert.deepEqual(refusedKeys('gallery', { items: [] }), ['data.items'])
    const many = Array.from({ length: 31 }, (_, i) => ({ path: `u1/${i}.png` }))
    assert.deepEqual(refusedKeys('gallery', { items: many }), ['data.items'])
    assert.equal((accepted('gallery', { items: many.slice(0, 30) }).items as unknown[]).length, 30)
  })

  it('keeps captions as plain text: tags are stripped', () => {
    const data = accepted('gallery', { items: [{ path: 'u1/a.png', text: 'Dawn <b>in</b> Lisbon<script>x()</script>' }] }) as any
    assert.equal(data.items[0].text, 'Dawn in Lisbon')
  })

  it('bounds captions and links, naming the item', () => {
    assert.deepEqual(refusedKeys('gallery', { items: [{ path: 'u1/a.png', text: 'x'.repeat(1001) }] }), ['data.items.0.text'])
    assert.deepEqual(refusedKeys('gallery', { items: [{ path: 'u1/a.png' }, { path: 'u1/b.png', link: 'data:text/html,x' }] }), ['data.items.1.link'])
  })

  it('refuses computed items[].src inside data, naming data.items.0.src', async () => {
    const res = await create({ items: [{ path: await ownFile(t, user.id), src: 'x' }] })
    assert.equal(res.status, 422)
    assert.match(res.body.errors['data.items.0.src'][0], /computed/)
  })

  it('links only the items that have a link, indexing the click redirect in order', () => {
    const data = withDefaults({ items: [{ path: 'a' }, { path: 'b', link: 'https://b.example' }, { path: 'c', link: 'https://c.example' }] }) as any
    const computed = { items: [{ src: '/a' }, { src: '/b' }, { src: '/c' }] }
    assert.deepEqual(gallery.links!(data, computed), ['https://b.example', 'https://c.example'])
    const html = gallery.html({ id: 4, type: 'gallery', data, computed }, r).html
    assert.deepEqual([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]), ['/go/4/0', '/go/4/1'])
    assert.equal([...html.matchAll(/data-slot-id="4"/g)].length, 2)
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('gallery', validGallery, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('gallery', validGallery)
  })

  it('round-trips generated valid data over HTTP', async () => {
    for (const data of fc.sample(validGallery, 3)) {
      const items = []
      for (const i of data.items) items.push({ ...i, path: await ownFile(t, user.id) })
      const res = await create({ ...data, items })
      assert.equal(res.status, 201, JSON.stringify(res.body))
      assert.deepEqual((await t.request('GET', `${base}/${res.body.data.id}`, { token })).body.data.data, withDefaults({ ...data, items }))
    }
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(t, token, base, 'gallery', validGallery)
  })
})
