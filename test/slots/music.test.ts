import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import music from '../../src/slots/music.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
  webLink,
} from '../helpers/slots.ts'

const PLATFORM_LINKS: Array<[string, string]> = [
  ['https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy', 'spotify'],
  ['https://music.apple.com/us/album/x/1440857781', 'appleMusic'],
  ['https://music.youtube.com/playlist?list=OLAK5', 'youtubeMusic'],
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
  ['https://www.deezer.com/album/302127', 'deezer'],
  ['https://tidal.com/browse/album/1', 'tidal'],
  ['https://music.amazon.de/albums/B0', 'amazonMusic'],
  ['https://soundcloud.com/jane/blue', 'soundcloud'],
  ['https://music.yandex.ru/album/1', 'yandex'],
  ['https://jane.bandcamp.com/album/blue', 'bandcamp'],
  ['https://audiomack.com/jane/album/blue', 'audiomack'],
  ['https://www.pandora.com/artist/jane', 'pandora'],
  ['https://www.napster.com/artist/jane', 'napster'],
  ['https://play.anghami.com/album/1', 'anghami'],
  ['https://www.boomplay.com/albums/1', 'boomplay'],
  ['https://audius.co/jane/album/blue', 'audius'],
  ['https://www.qobuz.com/album/blue/1', 'qobuz'],
  ['https://www.mixcloud.com/jane/blue/', 'mixcloud'],
  ['https://www.beatport.com/release/blue/1', 'beatport'],
  ['https://www.shazam.com/album/1', 'shazam'],
  ['https://www.jiosaavn.com/album/blue/1', 'jiosaavn'],
  ['https://zvuk.com/release/1', 'zvuk'],
]

const link = fc.record(
  { link: fc.oneof(fc.constantFrom(...PLATFORM_LINKS.map(([l]) => l)), webLink), order: fc.integer({ min: 0, max: 100 }) },
  { requiredKeys: ['link'] },
)
const validMusic = fc.record(
  {
    mode: fc.constantFrom('auto', 'manual'),
    style: fc.constantFrom('tapter', 'bubble', 'light', 'gradient', 'brutal', 'cyber', 'minimal'),
    album: plainWords(200),
    artist: plainWords(200),
    thumbnail: fc.oneof(webLink, fc.constant('')),
    showCover: fc.boolean(),
    links: fc.array(link, { minLength: 1, maxLength: 15 }),
  },
  { requiredKeys: ['links'] },
)
const withDefaults = (d: Record<string, any>) => ({
  mode: 'manual',
  style: 'tapter',
  album: '',
  artist: '',
  thumbnail: '',
  showCover: true,
  ...d,
  links: d.links.map((l: { order?: number }, i: number) => ({ order: i, ...l })),
})
const r = renderContext()

describe(`music slots (${STORE})`, () => {
  const api = useSlotApi('music')
  const { create } = api

  it('detects the platform and icon of at least 20 platforms from the host', () => {
    const data = accepted('music', { links: PLATFORM_LINKS.slice(0, 15).map(([l]) => ({ link: l })) }) as any
    const rest = accepted('music', { links: PLATFORM_LINKS.slice(15).map(([l]) => ({ link: l })) }) as any
    const computed = [...music.compute(data, r).links, ...music.compute(rest, r).links]
    assert.deepEqual(
      computed.map((c) => c.platform),
      PLATFORM_LINKS.map(([, p]) => p),
    )
    assert.ok(new Set(computed.map((c) => c.icon)).size >= 20)
  })

  it('reports a link on an unknown host as a plain website', async () => {
    const res = await create({ links: [{ link: 'https://jane.example.com/listen' }] })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.computed.links, [{ platform: 'website', label: 'Website', icon: 'link' }])
  })

  it('defaults order to the index, style to tapter, mode to manual and showCover to true', async () => {
    const res = await create({ links: [{ link: 'open.spotify.com/album/1' }, { link: 'https://tidal.com/album/1', order: 7 }] })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.data, {
      mode: 'manual',
      style: 'tapter',
      album: '',
      artist: '',
      thumbnail: '',
      showCover: true,
      links: [
        { link: 'https://open.spotify.com/album/1', order: 0 },
        { link: 'https://tidal.com/album/1', order: 7 },
      ],
    })
  })

  it('takes 1 to 15 web links, and a web thumbnail', () => {
    assert.deepEqual(refusedKeys('music', { links: [] }), ['data.links'])
    assert.deepEqual(refusedKeys('music', { links: Array.from({ length: 16 }, () => ({ link: 'https://tidal.com/a' })) }), ['data.links'])
    assert.deepEqual(refusedKeys('music', { links: [{ link: 'https://tidal.com/a' }, { link: 'mailto:a@b.co' }] }), ['data.links.1.link'])
    assert.deepEqual(refusedKeys('music', { links: [{ link: 'https://tidal.com/a', order: -1 }] }), ['data.links.0.order'])
    assert.deepEqual(refusedKeys('music', { thumbnail: 'javascript:alert(1)', links: [{ link: 'https://tidal.com/a' }] }), ['data.thumbnail'])
    assert.deepEqual(refusedKeys('music', { style: 'disco', links: [{ link: 'https://tidal.com/a' }] }), ['data.style'])
  })

  it('refuses computed links[].platform and links[].icon inside data, naming each', async () => {
    const res = await create({ links: [{ link: 'https://tidal.com/a', platform: 'tidal', icon: 'tidal' }] })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['data.links.0.icon', 'data.links.0.platform'])
    assert.match(res.body.errors['data.links.0.platform'][0], /computed/)
  })

  it('renders cover, album, artist and platform links in order, each through the click redirect', () => {
    const data = accepted('music', {
      album: 'Blue',
      artist: 'Jane',
      thumbnail: 'https://img.example.com/c.jpg',
      style: 'cyber',
      links: [
        { link: 'https://tidal.com/a', order: 2 },
        { link: 'https://open.spotify.com/album/1', order: 1 },
      ],
    }) as any
    const computed = music.compute(data, r)
    const html = music.html({ id: 5, type: 'music', data, computed }, r).html
    assert.match(html, /^<section class="slot slot-music style-cyber"><img class="slot-music-cover" src="https:\/\/img\.example\.com\/c\.jpg"/)
    assert.match(html, /<h2>Blue<\/h2><p>Jane<\/p>/)
    assert.deepEqual(
      [...html.matchAll(/platform-(\w+)" href="([^"]+)" data-slot-id="5"/g)].map((m) => [m[1], m[2]]),
      [
        ['spotify', '/go/5/0'],
        ['tidal', '/go/5/1'],
      ],
    )
    assert.deepEqual(music.links!(data, computed), ['https://open.spotify.com/album/1', 'https://tidal.com/a'])
    // The page supplies brand marks: each button gets its platform's logo before its name.
    const marked = music.html(
      { id: 5, type: 'music', data, computed },
      { ...r, icon: (name: string) => r.h`<svg class="icon" data-mark="${name}"></svg>` },
    ).html
    assert.match(marked, /<svg class="icon" data-mark="spotify"><\/svg><span class="slot-music-platform">Spotify<\/span>/)
    assert.match(marked, /<svg class="icon" data-mark="tidal"><\/svg><span class="slot-music-platform">TIDAL<\/span>/)
  })

  it("shows the cover through the page's remote image function when it has one", () => {
    const data = accepted('music', { thumbnail: 'https://img.example.com/c.jpg', links: [{ link: 'https://open.spotify.com/album/1' }] }) as any
    const proxied = { ...r, remoteImage: (url: string) => `/-/remote/sig/${encodeURIComponent(url)}` }
    const html = music.html({ id: 5, type: 'music', data, computed: music.compute(data, r) }, proxied).html
    assert.match(html, /<img class="slot-music-cover" src="\/-\/remote\/sig\/https%3A%2F%2Fimg\.example\.com%2Fc\.jpg"/)
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('music', validMusic, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('music', validMusic)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validMusic, withDefaults)
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validMusic)
  })
})
