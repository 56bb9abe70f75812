import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { compileBody } from '../../src/kernel/validation.ts'
import musicSlot from '../../src/slots/music.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { deezerDiscovery, DISCOVERY_UPC, HARDER_ISRC } from '../music/fakes/fixtures.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'

const lookupPath = (params: Record<string, string>) => `/v1/music/lookup?${new URLSearchParams(params)}`

/** Network rule: every upstream of this app is one of our fakes on 127.0.0.1. */
function assertOnlyLocalUpstreams(t: TestApp) {
  for (const url of Object.values(t.ctx.config.music)) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
}

/** Empties the day's cache, so a test sees the upstreams whatever ran before it. */
async function forgetLookups(t: TestApp) {
  const redis = t.ctx.redis
  if (redis) {
    const prefix = redis.options.keyPrefix ?? ''
    const keys = await redis.keys(`${prefix}music:lookup:*`)
    if (keys.length) await redis.del(...keys.map((k) => k.slice(prefix.length)))
  } else {
    await t.ctx.db.deleteFrom('music_lookups').execute()
  }
}

describe(`GET /music/lookup (${STORE})`, () => {
  let t: TestApp
  let fakes: FakeUpstreams
  let token: string
  const lookup = (params: Record<string, string>, as = token) => t.request('GET', lookupPath(params), { token: as })

  before(async () => {
    fakes = await startFakeUpstreams()
    t = await startApp({ ...fakes.env })
    assertOnlyLocalUpstreams(t)
    token = (await makeAccount(t)).token
  })
  after(async () => {
    await t.close()
    await fakes.close()
  })
  beforeEach(async () => {
    fakes.reset()
    await forgetLookups(t)
  })

  it('refuses a request without a token with 401', async () => {
    const res = await t.request('GET', lookupPath({ query: DISCOVERY_UPC }))
    assert.equal(res.status, 401)
    assert.equal(fakes.totalCalls(), 0)
  })

  it('finds an album by UPC and answers every platform’s link as a ready music slot', async () => {
    const user = await makeUser(t)
    const readOnly = await makeToken(t, user, ['profile:read'])
    const res = await lookup({ query: DISCOVERY_UPC }, readOnly)
    assert.equal(res.status, 200, res.text)
    const data = res.body.data
    assert.equal(data.query, DISCOVERY_UPC)
    assert.equal(data.matchedBy, 'upc')
    assert.equal(data.album, 'Discovery')
    assert.equal(data.artist, 'Daft Punk')
    assert.equal(data.thumbnail, deezerDiscovery.cover_xl)
    assert.deepEqual(
      data.links.map((l: any) => l.platform),
      ['spotify', 'appleMusic', 'youtubeMusic', 'youtube', 'deezer', 'tidal', 'amazonMusic', 'yandex', 'napster', 'anghami'],
    )
    const byPlatform = Object.fromEntries(data.links.map((l: any) => [l.platform, l]))
    assert.deepEqual(byPlatform.spotify, {
      platform: 'spotify',
      label: 'Spotify',
      icon: 'spotify',
      url: 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc',
    })
    // The catalogues' own links win over Odesli's referral links; Apple's tracking marker is dropped.
    assert.equal(byPlatform.deezer.url, 'https://www.deezer.com/album/302127')
    assert.equal(byPlatform.appleMusic.url, 'https://music.apple.com/us/album/discovery/697194953')
    assert.equal(byPlatform.appleMusic.icon, 'apple-music')
    assert.deepEqual(data.slot, {
      type: 'music',
      data: {
        mode: 'manual',
        style: 'tapter',
        album: 'Discovery',
        artist: 'Daft Punk',
        thumbnail: deezerDiscovery.cover_xl,
        showCover: true,
        links: data.links.map((l: any, order: number) => ({ link: l.url, order })),
      },
    })
    assert.deepEqual(fakes.deezer.calls, [`/album/upc:${DISCOVERY_UPC}`])
    assert.deepEqual(fakes.itunes.calls, [`/lookup?upc=${DISCOVERY_UPC}`])
    assert.deepEqual(fakes.odesli.calls, [`/v1-alpha.1/links?url=${encodeURIComponent('https://www.deezer.com/album/302127')}`])
  })

  it('reads a barcode with spaces, and an EAN-13 that Deezer files as its 12-digit UPC', async () => {
    const res = await lookup({ query: `0 ${DISCOVERY_UPC.slice(0, 6)} ${DISCOVERY_UPC.slice(6)}` })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.body.data.matchedBy, 'upc')
    assert.equal(res.body.data.album, 'Discovery')
    assert.deepEqual(fakes.deezer.calls, [`/album/upc:0${DISCOVERY_UPC}`, `/album/upc:${DISCOVERY_UPC}`])
  })

  it('finds a track by ISRC, dashes and lower case tolerated', async () => {
    const res = await lookup({ query: 'gb-duw-00-00059' })
    assert.equal(res.status, 200, res.text)
    const data = res.body.data
    assert.equal(data.matchedBy, 'isrc')
    assert.equal(data.album, 'Harder, Better, Faster, Stronger')
    assert.equal(data.artist, 'Daft Punk')
    assert.deepEqual(
      data.links.map((l: any) => l.platform),
      ['spotify', 'appleMusic', 'deezer', 'tidal'],
    )
    assert.deepEqual(fakes.deezer.calls, [`/track/isrc:${HARDER_ISRC}`])
    assert.equal(fakes.itunes.calls.length, 0)
  })

  it('finds a release from its link on each platform', async () => {
    const cases: Array<[string, string, string]> = [
      ['https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc?si=abc', 'spotify', 'Discovery'],
      ['https://music.apple.com/us/album/discovery/697194953', 'appleMusic', 'Discovery'],
      ['https://itunes.apple.com/us/album/discovery/id697194953', 'appleMusic', 'Discovery'],
      ['https://music.youtube.com/playlist?list=OLAK5uy_discovery', 'youtubeMusic', 'Discovery'],
      ['https://www.youtube.com/playlist?list=OLAK5uy_discovery', 'youtube', 'Discovery'],
      ['https://www.deezer.com/en/album/302127', 'deezer', 'Discovery'],
      ['https://tidal.com/browse/album/1834160', 'tidal', 'Discovery'],
      ['https://music.amazon.de/albums/B00BO2HAIE', 'amazonMusic', 'Discovery'],
      ['https://music.yandex.ru/album/36022', 'yandex', 'Discovery'],
      ['https://soundcloud.com/the-lanterns/sets/midnight-parade', 'soundcloud', 'Midnight Parade'],
      ['https://thelanterns.bandcamp.com/album/midnight-parade', 'bandcamp', 'Midnight Parade'],
      ['audiomack.com/the-lanterns/album/midnight-parade', 'audiomack', 'Midnight Parade'],
    ]
    for (const [query, platform, album] of cases) {
      const res = await lookup({ query })
      assert.equal(res.status, 200, `${query}: ${res.text}`)
      const data = res.body.data
      assert.equal(data.matchedBy, 'url', query)
      assert.equal(data.album, album, query)
      const own = data.links.find((l: any) => l.platform === platform)
      assert.ok(own, `${query} keeps a ${platform} link`)
      // The musician's own link stands for its platform.
      assert.equal(own.url, query.startsWith('http') ? query : `https://${query}`)
      assert.ok(data.links.length >= 4, `${query} finds the other platforms`)
    }
    assert.equal(fakes.odesli.calls.length, cases.length)
  })

  it('searches a bare title among albums and picks the exact title over a near one', async () => {
    const res = await lookup({ query: 'Discovery', type: 'track' })
    assert.equal(res.status, 200, res.text)
    const data = res.body.data
    assert.equal(data.matchedBy, 'title')
    assert.equal(data.album, 'Discovery')
    assert.equal(data.artist, 'Daft Punk')
    assert.equal(data.links.find((l: any) => l.platform === 'deezer').url, 'https://www.deezer.com/album/302127')
    // Without artist, `type` is ignored: a bare title finds releases.
    assert.deepEqual(fakes.deezer.calls, ['/search/album?q=Discovery&limit=10'])
    assert.deepEqual(fakes.itunes.calls, ['/search?term=Discovery&media=music&entity=album&limit=10'])
  })

  it('narrows a title search by artist, for an album by default and for a track with type=track', async () => {
    const album = await lookup({ query: 'Discovery', artist: 'Daft Punk' })
    assert.equal(album.status, 200, album.text)
    assert.equal(album.body.data.album, 'Discovery')
    assert.equal(new URL(fakes.deezer.calls[0], 'http://x').searchParams.get('q'), 'artist:"Daft Punk" album:"Discovery"')

    fakes.reset()
    const track = await lookup({ query: 'One More Time', artist: 'Daft Punk', type: 'track' })
    assert.equal(track.status, 200, track.text)
    const data = track.body.data
    assert.equal(data.matchedBy, 'title')
    assert.equal(data.album, 'One More Time')
    assert.deepEqual(
      data.links.map((l: any) => [l.platform, l.url]),
      [
        ['spotify', 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV'],
        ['appleMusic', 'https://music.apple.com/us/album/one-more-time/697194953?i=697195462'],
        ['deezer', 'https://www.deezer.com/track/3135553'],
      ],
    )
    assert.equal(new URL(fakes.deezer.calls[0], 'http://x').pathname, '/search/track')
    assert.equal(new URL(fakes.itunes.calls[0], 'http://x').searchParams.get('entity'), 'song')
  })

  it('answers 404 not_found with errors null and asks for a UPC, ISRC, link or title', async () => {
    for (const query of ['A Record Nobody Made', '000000000000', 'ZZ-XXX-99-99999', 'https://open.spotify.com/album/nothingHere']) {
      const res = await lookup({ query, artist: 'Nobody' })
      assert.equal(res.status, 404, `${query}: ${res.text}`)
      assert.equal(res.body.code, 'not_found')
      assert.equal(res.body.errors, null)
      for (const word of ['UPC', 'ISRC', 'link', 'title', 'artist']) assert.match(res.body.message, new RegExp(word), `${query}: ${res.body.message}`)
    }
  })

  it('refuses a link that is not on a music platform with 422 naming query', async () => {
    const res = await lookup({ query: 'https://example.com/my-album' })
    assert.equal(res.status, 422)
    assert.equal(res.body.code, 'validation_failed')
    assert.match(res.body.errors.query[0], /music platform/)
    assert.equal(fakes.totalCalls(), 0)
  })

  it('refuses parameters out of the spec’s bounds with 422 naming each one', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(501) }, 'query'],
      [{ query: 'Discovery', artist: 'a'.repeat(201) }, 'artist'],
      [{ query: 'Discovery', type: 'single' }, 'type'],
    ]
    for (const [params, field] of cases) {
      const res = await lookup(params)
      assert.equal(res.status, 422, `${JSON.stringify(params)}: ${res.text}`)
      assert.ok(res.body.errors[field], `${JSON.stringify(params)} names ${field}: ${JSON.stringify(res.body.errors)}`)
    }
    const blank = await lookup({ query: '   ' })
    assert.deepEqual(blank.body.errors.query, ['Must not be empty: pass a UPC, an ISRC, a release link or a title.'])
    assert.equal((await lookup({ query: 'x'.repeat(500) })).status, 404)
    assert.equal((await lookup({ query: 'Discovery', artist: 'Daft Punk'.padEnd(200, '!') })).status, 404)
  })

  it('still answers when Deezer is down, from iTunes, after one retry', async () => {
    fakes.deezer.mode = 'down'
    const res = await lookup({ query: DISCOVERY_UPC })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.body.data.album, 'Discovery')
    assert.equal(
      res.body.data.thumbnail,
      'https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/0c/5a/7e/0c5a7e2f-0a3b-6c3f-5b0f-1c2a6b0b1d5e/dj.xyzabc.jpg/600x600bb.jpg',
    )
    assert.equal(fakes.deezer.calls.length, 2)
    assert.ok(
      res.body.data.links.some((l: any) => l.platform === 'spotify'),
      'Odesli still adds the other platforms',
    )
  })

  it('still answers when Odesli is down, with the catalogues’ own links', async () => {
    fakes.odesli.mode = 'down'
    const res = await lookup({ query: DISCOVERY_UPC })
    assert.equal(res.status, 200, res.text)
    assert.deepEqual(
      res.body.data.links.map((l: any) => l.url),
      ['https://music.apple.com/us/album/discovery/697194953', 'https://www.deezer.com/album/302127'],
    )
    // A Deezer link is read by Deezer itself when Odesli cannot be asked.
    const byLink = await lookup({ query: 'https://www.deezer.com/track/3135556' })
    assert.equal(byLink.status, 200, byLink.text)
    assert.equal(byLink.body.data.album, 'Harder, Better, Faster, Stronger')
    assert.ok(fakes.deezer.calls.includes('/track/3135556'))
  })

  it('does not keep an answer given while an upstream was down', async () => {
    fakes.odesli.mode = 'down'
    assert.equal((await lookup({ query: DISCOVERY_UPC })).status, 200)
    fakes.reset()
    const res = await lookup({ query: DISCOVERY_UPC })
    assert.equal(res.status, 200)
    assert.equal(fakes.odesli.calls.length, 1)
    assert.equal(res.body.data.links.length, 10)
  })

  it('retries an upstream once after a 503 and answers in full', async () => {
    fakes.deezer.mode = 'flaky'
    const res = await lookup({ query: HARDER_ISRC })
    assert.equal(res.status, 200, res.text)
    assert.deepEqual(fakes.deezer.calls, [`/track/isrc:${HARDER_ISRC}`, `/track/isrc:${HARDER_ISRC}`])
  })

  it('answers 503 upstream_unavailable when every upstream is down', async () => {
    fakes.deezer.mode = 'down'
    fakes.itunes.mode = 'down'
    fakes.odesli.mode = 'down'
    for (const query of [DISCOVERY_UPC, 'Discovery', 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc']) {
      const res = await lookup({ query })
      assert.equal(res.status, 503, `${query}: ${res.text}`)
      assert.equal(res.body.code, 'upstream_unavailable')
      assert.equal(res.body.errors, null)
    }
  })

  it('answers 503 rather than hanging when every upstream stops answering', async () => {
    fakes.deezer.mode = 'hang'
    fakes.itunes.mode = 'hang'
    fakes.odesli.mode = 'hang'
    const res = await lookup({ query: DISCOVERY_UPC })
    assert.equal(res.status, 503, res.text)
    assert.equal(res.body.code, 'upstream_unavailable')
  })

  it('answers a repeated lookup from the cache without calling any upstream', async () => {
    const first = await lookup({ query: HARDER_ISRC })
    assert.equal(first.status, 200)
    assert.ok(fakes.totalCalls() > 0)
    fakes.reset()
    const again = await lookup({ query: 'GB-DUW-00-00059' })
    assert.equal(again.status, 200)
    assert.equal(fakes.totalCalls(), 0)
    assert.equal(again.body.data.query, 'GB-DUW-00-00059')
    assert.deepEqual({ ...again.body.data, query: HARDER_ISRC }, first.body.data)
  })

  it('gives a slot that POST /profiles/{profileKey}/slots creates unchanged (201)', async () => {
    const { user, token: writer } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    for (const query of [DISCOVERY_UPC, HARDER_ISRC, 'https://thelanterns.bandcamp.com/album/midnight-parade', 'Discovery']) {
      const { data } = (await lookup({ query }, writer)).body
      const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token: writer, body: data.slot })
      assert.equal(res.status, 201, `${query}: ${res.text}`)
      assert.equal(res.body.data.type, 'music')
      assert.deepEqual(res.body.data.data, data.slot.data)
      assert.deepEqual(
        res.body.data.computed.links,
        data.links.map(({ platform, label, icon }: any) => ({ platform, label, icon })),
      )
    }
  })

  it('gives slot data the music slot type accepts unchanged', async () => {
    const validate = compileBody(musicSlot.schema)
    for (const query of [DISCOVERY_UPC, HARDER_ISRC, 'https://thelanterns.bandcamp.com/album/midnight-parade']) {
      const { data } = (await lookup({ query })).body
      assert.ok(validate(data.slot.data), `${query}: ${JSON.stringify(validate.errors)}`)
      assert.deepEqual(musicSlot.normalise(data.slot.data), data.slot.data)
      assert.deepEqual(
        musicSlot.compute(data.slot.data, { fileUrl: (p) => p }).links,
        data.links.map(({ platform, label, icon }: any) => ({ platform, label, icon })),
      )
    }
  })
})

describe(`GET /music/lookup rate limit (${STORE})`, () => {
  let t: TestApp
  let fakes: FakeUpstreams
  before(async () => {
    fakes = await startFakeUpstreams()
    t = await startApp({ ...fakes.env, RATE_LIMIT_MUSIC_PER_MINUTE: '2' })
    assertOnlyLocalUpstreams(t)
  })
  after(async () => {
    await t.close()
    await fakes.close()
  })

  it('allows RATE_LIMIT_MUSIC_PER_MINUTE lookups a minute, then 429 with Retry-After', async () => {
    const { token } = await makeAccount(t)
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.request('GET', lookupPath({ query: HARDER_ISRC }), { token })).status, 200)
    }
    const res = await t.request('GET', lookupPath({ query: HARDER_ISRC }), { token })
    assert.equal(res.status, 429)
    assert.equal(res.body.code, 'rate_limited')
    assert.ok(Number(res.headers['retry-after']) >= 1)
    // Only music lookups count against this limit.
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
  })
})

describe(`GET /openapi.json documents music lookup (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('describes the query, the result and the 404 and 503 answers', async () => {
    const { token } = await makeAccount(t)
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const op = doc.paths['/music/lookup'].get
    assert.match(op.summary, /UPC.*ISRC.*link.*title/)
    assert.match(op.description, /POST \/profiles\/\{profileKey\}\/slots/)
    const params = Object.fromEntries(op.parameters.map((p: any) => [p.name, p]))
    assert.deepEqual(Object.keys(params), ['query', 'artist', 'type'])
    assert.equal(params.query.required, true)
    assert.equal(params.query.schema.maxLength, 500)
    assert.equal(params.query.schema.pattern, '\\S', 'a blank query is refused, and the document says so')
    assert.equal(params.artist.schema.maxLength, 200)
    for (const p of Object.values(params) as any[]) {
      assert.ok(p.description, `${p.name} has a description`)
      assert.ok(p.schema.examples?.length, `${p.name} has examples`)
    }
    for (const code of ['200', '401', '404', '422', '429', '503']) assert.ok(op.responses[code], `documents ${code}`)
    const slot = op.responses['200'].content['application/json'].schema.properties.data.properties.slot
    // The slot data is the music type's named component, itself the registry's schema.
    const data = slot.properties.data.$ref ? doc.components.schemas[slot.properties.data.$ref.split('/').pop()] : slot.properties.data
    const schema = JSON.parse(JSON.stringify(musicSlot.schema))
    assert.deepEqual(data.properties, schema.properties)
    // Fields with a default are optional to a client, so the document does not require them.
    assert.ok((data.required ?? []).every((k: string) => schema.required.includes(k) && schema.properties[k].default === undefined))
  })
})
