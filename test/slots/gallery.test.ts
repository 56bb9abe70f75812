import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import gallery from '../../src/slots/gallery.ts'
import type { ImageFacts } from '../../src/slots/types.ts'
import { makeUser, STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  ownFile,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
  webLink,
} from '../helpers/slots.ts'

const item = fc.record(
  { path: fc.stringMatching(/^u9\/[a-z0-9]{4,12}\.png$/), text: plainWords(1000), link: fc.oneof(webLink, fc.constant('')), alt: plainWords(300) },
  { requiredKeys: ['path'] },
)
const validGallery = fc.record(
  { title: plainWords(120), items: fc.uniqueArray(item, { minLength: 1, maxLength: 30, selector: (i) => i.path }) },
  { requiredKeys: ['items'] },
)
const withDefaults = (d: Record<string, any>) => ({
  title: '',
  ...d,
  items: d.items.map((i: object) => ({ text: '', link: '', alt: '', ...i })),
})
const r = renderContext()

describe(`gallery slots (${STORE})`, () => {
  const api = useSlotApi('gallery')
  const { create } = api

  it('accepts your uploads and derives computed.items[].src in order', async () => {
    const a = await ownFile(api.t, api.user.id)
    const b = await ownFile(api.t, api.user.id)
    const res = await create({ title: 'Work', items: [{ path: a, text: 'First' }, { path: b }] })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.computed.items, [{ src: `${api.t.url}/static/${a}` }, { src: `${api.t.url}/static/${b}` }])
  })

  it('names every path that is not one of your uploads', async () => {
    const mine = await ownFile(api.t, api.user.id)
    const theirs = await ownFile(api.t, (await makeUser(api.t)).id)
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
    const res = await create({ items: [{ path: await ownFile(api.t, api.user.id), src: 'x' }] })
    assert.equal(res.status, 422)
    assert.match(res.body.errors['data.items.0.src'][0], /computed/)
  })

  it('links only the items that have a link, indexing the click redirect in order', () => {
    const data = withDefaults({ items: [{ path: 'a' }, { path: 'b', link: 'https://b.example' }, { path: 'c', link: 'https://c.example' }] }) as any
    const computed = { items: [{ src: '/a' }, { src: '/b' }, { src: '/c' }] }
    assert.deepEqual(gallery.links!(data, computed), ['https://b.example', 'https://c.example'])
    const html = gallery.html({ id: 4, type: 'gallery', data, computed }, r).html
    assert.deepEqual(
      [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]),
      ['/go/4/0', '/go/4/1'],
    )
    assert.equal([...html.matchAll(/data-slot-id="4"/g)].length, 2)
  })

  it('gives each item its srcset, width and height, and loads only the first eagerly when the gallery leads the page', () => {
    const facts: Record<string, ImageFacts> = {
      a: {
        width: 800,
        height: 450,
        webp: [
          { src: '/a.w400.webp', width: 400 },
          { src: '/a.w800.webp', width: 800 },
        ],
      },
      b: { width: 400, height: 400, webp: [] },
    }
    const data = withDefaults({ items: [{ path: 'a', text: 'Dawn', alt: 'Sun over the river' }, { path: 'b' }, { path: 'c' }] }) as any
    const computed = { items: [{ src: '/a' }, { src: '/b' }, { src: '/c' }] }
    const html = gallery.html({ id: 4, type: 'gallery', data, computed }, { ...r, image: (path) => facts[path], eagerImages: true }).html
    const items = [...html.matchAll(/<li>.*?<\/li>/g)].map((m) => m[0])
    assert.match(
      items[0],
      /<picture><source type="image\/webp" srcset="\/a.w400.webp 400w, \/a.w800.webp 800w" sizes="[^"]+"><img src="\/a" alt="Sun over the river" width="800" height="450" loading="eager"><\/picture>/,
    )
    assert.match(items[1], /^<li><figure><img src="\/b" alt="" width="400" height="400" loading="lazy" decoding="async"><\/figure><\/li>$/)
    assert.match(items[2], /^<li><figure><img src="\/c" alt="" loading="lazy" decoding="async"><\/figure><\/li>$/)
    const later = gallery.html({ id: 4, type: 'gallery', data, computed }, { ...r, image: (path) => facts[path] }).html
    assert.doesNotMatch(later, /eager/)
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('gallery', validGallery, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('gallery', validGallery)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validGallery, withDefaults, {
      prepare: async (data) => {
        const items = []
        for (const i of data.items) items.push({ ...i, path: await ownFile(api.t, api.user.id) })
        return { ...data, items }
      },
    })
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validGallery)
  })
})
