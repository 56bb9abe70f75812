import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import youtube, { parseVideoId } from '../../src/slots/youtube.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  plainWords,
  renderContext,
  useSlotApi,
} from '../helpers/slots.ts'

const videoId = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/)
const videoLink = fc
  .tuple(
    videoId,
    fc.constantFrom(
      (id: string) => `https://www.youtube.com/watch?v=${id}`,
      (id: string) => `https://youtu.be/${id}`,
      (id: string) => `https://youtube.com/shorts/${id}`,
      (id: string) => `https://www.youtube.com/embed/${id}`,
      (id: string) => `https://www.youtube.com/live/${id}`,
      (id: string) => `https://m.youtube.com/watch?v=${id}&t=10`,
      (id: string) => `https://music.youtube.com/watch?v=${id}&list=x`,
    ),
  )
  .map(([id, make]) => make(id))
const validVideo = fc.record({ title: plainWords(200), description: plainWords(2000), link: videoLink }, { requiredKeys: ['link'] })
const withDefaults = (d: Record<string, unknown>) => ({ title: '', description: '', ...d })
const r = renderContext()

describe(`youtube slots (${STORE})`, () => {
  const api = useSlotApi('youtube')
  const { create } = api

  it('extracts the video id from watch?v=, youtu.be/, shorts/, embed/ and live/ links, on m. and music. hosts too', () => {
    const id = 'dQw4w9WgXcQ'
    for (const link of [
      `https://www.youtube.com/watch?v=${id}`,
      `https://youtube.com/watch?feature=share&v=${id}`,
      `https://youtu.be/${id}?si=abc`,
      `https://www.youtube.com/shorts/${id}`,
      `https://www.youtube.com/embed/${id}`,
      `https://www.youtube.com/live/${id}?feature=share`,
      `https://m.youtube.com/watch?v=${id}`,
      `https://music.youtube.com/watch?v=${id}`,
      `youtu.be/${id}`,
      `http://www.youtube.com/watch?v=${id}`,
    ]) {
      assert.equal(parseVideoId(link), id, link)
    }
  })

  it('derives videoId, the privacy-enhanced embedUrl and thumbnailUrl', async () => {
    const res = await create({ link: 'https://youtu.be/dQw4w9WgXcQ' })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.computed, {
      videoId: 'dQw4w9WgXcQ',
      embedUrl: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
    })
  })

  it('refuses anything that is not a YouTube video link with a clear message naming data.link', async () => {
    for (const link of [
      'https://vimeo.com/12345',
      'https://www.youtube.com/@channel',
      'https://youtube.com/watch?v=short',
      'https://evil.com/watch?v=dQw4w9WgXcQ',
      'javascript:alert(1)',
      'dQw4w9WgXcQ',
      '',
    ]) {
      const res = await create({ link })
      assert.equal(res.status, 422, link)
      assert.deepEqual(Object.keys(res.body.errors), ['data.link'], link)
      assert.match(res.body.errors['data.link'][0], /YouTube video link/)
    }
  })

  it('completes a link without a scheme to https://', () => {
    assert.equal(accepted('youtube', { link: 'youtu.be/dQw4w9WgXcQ' }).link, 'https://youtu.be/dQw4w9WgXcQ')
  })

  it('keeps the description as plain text', () => {
    assert.equal(accepted('youtube', { link: 'https://youtu.be/dQw4w9WgXcQ', description: 'My <b>best</b> cut<script>x</script>' }).description, 'My best cut')
  })

  it('refuses every computed field sent inside data, naming each', async () => {
    const res = await create({ link: 'https://youtu.be/dQw4w9WgXcQ', videoId: 'x', embedUrl: 'x', thumbnailUrl: 'x' })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['data.embedUrl', 'data.thumbnailUrl', 'data.videoId'])
  })

  it('renders click-to-load: a link to the video with the nocookie embed URL, and no iframe', () => {
    const data = accepted('youtube', { title: 'Reel', link: 'https://youtu.be/dQw4w9WgXcQ' }) as any
    const html = youtube.html({ id: 9, type: 'youtube', data, computed: youtube.compute(data, r) }, r).html
    assert.doesNotMatch(html, /<iframe/)
    assert.match(html, /data-embed-url="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?autoplay=1"/)
    assert.match(html, /<a class="slot-youtube-player" href="\/go\/9\/0" data-slot-id="9"/)
    assert.match(html, /<img src="https:\/\/i\.ytimg\.com\/vi\/dQw4w9WgXcQ\/hqdefault\.jpg"/)
    assert.deepEqual(youtube.links!(data, youtube.compute(data, r)), ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'])
  })

  it("shows the thumbnail through the page's remote image function when it has one", () => {
    const data = accepted('youtube', { link: 'https://youtu.be/dQw4w9WgXcQ' }) as any
    const proxied = { ...r, remoteImage: (url: string) => `/-/remote/sig/${encodeURIComponent(url)}` }
    const view = { id: 9, type: 'youtube', data, computed: youtube.compute(data, r) }
    assert.match(youtube.html(view, proxied).html, /<img src="\/-\/remote\/sig\/https%3A%2F%2Fi\.ytimg\.com%2Fvi%2FdQw4w9WgXcQ%2Fhqdefault\.jpg"/)
    // computed (what the API answers) keeps YouTube's own address.
    assert.equal(view.computed.thumbnailUrl, 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg')
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('youtube', validVideo, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('youtube', validVideo)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validVideo, withDefaults, {
      alsoCheck: (created, data) => assert.equal(created.body.data.computed.videoId, parseVideoId(data.link)),
    })
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validVideo)
  })
})
