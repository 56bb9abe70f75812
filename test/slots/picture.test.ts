import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import picture from '../../src/slots/picture.ts'
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

const uploadPath = fc.stringMatching(/^u9\/[a-z0-9]{4,12}\.(png|webp|gif)$/)
const validPicture = fc.record(
  { path: uploadPath, link: fc.oneof(webLink, fc.constant('')), size: fc.constantFrom('large', 'medium', 'small'), alt: plainWords(300) },
  { requiredKeys: ['path'] },
)
const withDefaults = (d: Record<string, unknown>) => ({ link: '', size: 'large', alt: '', ...d })
const r = renderContext()

describe(`picture slots (${STORE})`, () => {
  const api = useSlotApi('picture')
  const { create } = api

  it('accepts a path of one of your uploads and derives computed.src from it', async () => {
    const path = await ownFile(api.t, api.user.id)
    const res = await create({ path })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.data, { path, link: '', size: 'large', alt: '' })
    assert.equal(res.body.data.computed.src, `${api.t.url}/static/${path}`)
  })

  it('renders its alternative text on the image and in the markdown, and refuses one longer than 300', () => {
    const data = withDefaults({ path: 'u1/a.png', alt: 'A red "door" <in> Lisbon' }) as any
    const html = picture.html({ id: 3, type: 'picture', data, computed: { src: '/a' } }, r).html
    assert.match(html, /<img src="\/a" alt="A red &quot;door&quot; &lt;in&gt; Lisbon"/)
    assert.match(picture.markdown({ id: 3, type: 'picture', data, computed: { src: '/a' } }), /^!\[A red "door" .*\]\(\/a\)/)
    assert.deepEqual(refusedKeys('picture', { path: 'u1/a.png', alt: 'x'.repeat(301) }), ['data.alt'])
    // A picture stored before alt existed still renders, decoratively.
    const old = { path: 'u1/a.png', link: '', size: 'large' } as any
    assert.match(picture.html({ id: 3, type: 'picture', data: old, computed: { src: '/a' } }, r).html, /alt=""/)
    assert.match(picture.markdown({ id: 3, type: 'picture', data: old, computed: { src: '/a' } }), /^!\[Picture\]/)
  })

  it("refuses a path that is not one of your uploads (unknown, or another user's) naming data.path", async () => {
    const other = await makeUser(api.t)
    const theirs = await ownFile(api.t, other.id)
    for (const path of ['u1/never-uploaded.png', theirs]) {
      const res = await create({ path })
      assert.equal(res.status, 422)
      assert.deepEqual(Object.keys(res.body.errors), ['data.path'])
      assert.match(res.body.errors['data.path'][0], /POST \/files/)
    }
  })

  it('refuses a URL in place of a path', () => {
    assert.deepEqual(refusedKeys('picture', { path: 'https://example.com/a.png' }), ['data.path'])
    assert.deepEqual(refusedKeys('picture', { path: '//example.com/a.png' }), ['data.path'])
  })

  it('completes the link and refuses unsafe schemes', () => {
    assert.equal(accepted('picture', { path: 'u1/a.png', link: 'example.com' }).link, 'https://example.com')
    assert.deepEqual(refusedKeys('picture', { path: 'u1/a.png', link: 'javascript:alert(1)' }), ['data.link'])
  })

  it('takes large, medium or small as size', () => {
    assert.deepEqual(refusedKeys('picture', { path: 'u1/a.png', size: 'huge' }), ['data.size'])
  })

  it('refuses computed.src sent inside data', async () => {
    const res = await create({ path: await ownFile(api.t, api.user.id), src: 'https://example.com/a.png' })
    assert.equal(res.status, 422)
    assert.match(res.body.errors['data.src'][0], /computed/)
  })

  it('renders the image, linked through the click redirect only when it has a link', () => {
    const plain = picture.html({ id: 3, type: 'picture', data: withDefaults({ path: 'u1/a.png' }) as any, computed: { src: '/static/u1/a.png' } }, r).html
    assert.doesNotMatch(plain, /<a /)
    const linked = picture.html(
      { id: 3, type: 'picture', data: withDefaults({ path: 'u1/a.png', link: 'https://example.com' }) as any, computed: { src: '/static/u1/a.png' } },
      r,
    ).html
    assert.match(linked, /<a class="slot-picture-link" href="\/go\/3\/0" data-slot-id="3"[^>]*aria-label="Open example.com"><img src="\/static\/u1\/a.png"/)
  })

  it('renders WebP variants in a <picture> with srcset and sizes, and the img with its width and height', () => {
    const facts: ImageFacts = {
      width: 800,
      height: 600,
      webp: [
        { src: '/static/u1/a.w400.webp', width: 400 },
        { src: '/static/u1/a.w800.webp', width: 800 },
      ],
    }
    const withImages = { ...r, image: (path: string) => (path === 'u1/a.png' ? facts : undefined) }
    const html = picture.html(
      { id: 3, type: 'picture', data: withDefaults({ path: 'u1/a.png', size: 'small' }) as any, computed: { src: '/static/u1/a.png' } },
      withImages,
    ).html
    assert.equal(
      html,
      '<figure class="slot slot-picture size-small"><picture><source type="image/webp" srcset="/static/u1/a.w400.webp 400w, /static/u1/a.w800.webp 800w" ' +
        'sizes="(max-width: 600px) calc(46vw - 15px), 261px"><img src="/static/u1/a.png" alt="" width="800" height="600" loading="lazy" decoding="async"></picture></figure>',
    )
    const eager = picture.html(
      { id: 3, type: 'picture', data: withDefaults({ path: 'u1/a.png' }) as any, computed: { src: '/static/u1/a.png' } },
      { ...withImages, eagerImages: true },
    ).html
    assert.match(eager, /<img [^>]*loading="eager">/)
    assert.doesNotMatch(eager, /lazy/)
  })

  it('renders a plain img when the page knows no variants (gif, older uploads) or nothing at all', () => {
    const gif = { ...r, image: () => ({ width: 32, height: 32, webp: [] }) }
    const data = withDefaults({ path: 'u1/a.gif' }) as any
    assert.equal(
      picture.html({ id: 3, type: 'picture', data, computed: { src: '/static/u1/a.gif' } }, gif).html,
      '<figure class="slot slot-picture size-large"><img src="/static/u1/a.gif" alt="" width="32" height="32" loading="lazy" decoding="async"></figure>',
    )
    assert.equal(
      picture.html({ id: 3, type: 'picture', data, computed: { src: '/static/u1/a.gif' } }, r).html,
      '<figure class="slot slot-picture size-large"><img src="/static/u1/a.gif" alt="" loading="lazy" decoding="async"></figure>',
    )
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('picture', validPicture, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('picture', validPicture)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validPicture, withDefaults, { prepare: async (data) => ({ ...data, path: await ownFile(api.t, api.user.id) }) })
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validPicture)
  })
})
