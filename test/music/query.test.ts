import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AppError } from '../../src/kernel/errors.ts'
import { looksLikeLink, normalisedQuery, parseMusicQuery } from '../../src/music/query.ts'

describe('parseMusicQuery', () => {
  it('reads 12 and 13 digits as a UPC, spaces and dashes between groups tolerated', () => {
    assert.deepEqual(parseMusicQuery({ query: '724384960650' }), { by: 'upc', upc: '724384960650' })
    assert.deepEqual(parseMusicQuery({ query: ' 0 724384 960650 ' }), { by: 'upc', upc: '0724384960650' })
    assert.deepEqual(parseMusicQuery({ query: '5-099749-534728' }), { by: 'upc', upc: '5099749534728' })
  })

  it('reads a 12-character country-registrant-year-designation code as an ISRC, dashes tolerated', () => {
    assert.deepEqual(parseMusicQuery({ query: 'USRC17607839' }), { by: 'isrc', isrc: 'USRC17607839' })
    assert.deepEqual(parseMusicQuery({ query: 'US-RC1-76-07839' }), { by: 'isrc', isrc: 'USRC17607839' })
    assert.deepEqual(parseMusicQuery({ query: 'usrc17607839' }), { by: 'isrc', isrc: 'USRC17607839' })
  })

  it('reads a link on a music platform, with or without its scheme, and names the platform', () => {
    const cases: Array<[string, string]> = [
      ['https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc', 'spotify'],
      ['https://music.apple.com/us/album/discovery/697194953', 'appleMusic'],
      ['https://itunes.apple.com/us/album/id697194953', 'appleMusic'],
      ['https://music.youtube.com/playlist?list=OLAK5uy_x', 'youtubeMusic'],
      ['https://www.youtube.com/watch?v=FGBhQbmPwH8', 'youtube'],
      ['https://www.deezer.com/album/302127', 'deezer'],
      ['https://tidal.com/browse/album/1834160', 'tidal'],
      ['https://music.amazon.co.uk/albums/B00BO2HAIE', 'amazonMusic'],
      ['https://soundcloud.com/artist/sets/x', 'soundcloud'],
      ['https://artist.bandcamp.com/album/x', 'bandcamp'],
      ['https://music.yandex.kz/album/36022', 'yandex'],
      ['open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV', 'spotify'],
    ]
    for (const [query, platform] of cases) {
      const q = parseMusicQuery({ query, artist: 'ignored', type: 'track' })
      assert.equal(q.by, 'url', query)
      assert.equal(q.by === 'url' && q.platform, platform, query)
    }
    assert.deepEqual(parseMusicQuery({ query: 'open.spotify.com/album/x' }), {
      by: 'url',
      url: 'https://open.spotify.com/album/x',
      platform: 'spotify',
    })
  })

  it('refuses a link off the music platforms with a 422 naming query', () => {
    // 0.AA/ is what the contract fuzz found: written as a link, so refused, not searched as a title.
    for (const query of ['https://example.com/album', 'ftp://open.spotify.com/album/x', 'example.org/x', '0.AA/']) {
      assert.ok(looksLikeLink(query), query)
      assert.throws(
        () => parseMusicQuery({ query }),
        (err: unknown) => err instanceof AppError && err.status === 422 && Object.keys(err.errors ?? {}).join() === 'query',
        query,
      )
    }
  })

  it('reads everything else as a title, which artist narrows and type only shapes with an artist', () => {
    for (const query of ['Vol.1', 'AC/DC', '1999', '1.5/10', 'Abbey Road', 'What’s Going On?', '12345678901']) {
      assert.equal(parseMusicQuery({ query }).by, 'title', query)
      assert.equal(looksLikeLink(query), false, query)
    }
    assert.deepEqual(parseMusicQuery({ query: '  Good   Things ', type: 'track' }), { by: 'title', title: 'Good Things', artist: null, kind: 'album' })
    assert.deepEqual(parseMusicQuery({ query: 'Good Things', artist: ' Aloe  Blacc ', type: 'track' }), {
      by: 'title',
      title: 'Good Things',
      artist: 'Aloe Blacc',
      kind: 'track',
    })
    assert.deepEqual(parseMusicQuery({ query: 'Good Things', artist: '   ' }), { by: 'title', title: 'Good Things', artist: null, kind: 'album' })
  })

  it('refuses a blank query with a 422 naming query', () => {
    assert.throws(
      () => parseMusicQuery({ query: ' \t ' }),
      (err: unknown) => err instanceof AppError && !!err.errors?.query,
    )
  })
})

describe('normalisedQuery', () => {
  const key = (query: string, artist?: string) => JSON.stringify(normalisedQuery(parseMusicQuery({ query, artist })))

  it('gives one cache key to the spellings of one query', () => {
    assert.equal(key('0724384960650'), key('724384960650'))
    assert.equal(key('US-RC1-76-07839'), key('usrc17607839'))
    assert.equal(key('Good  Things', 'ALOE BLACC'), key('good things', 'Aloe Blacc'))
  })

  it('keeps different queries apart', () => {
    assert.notEqual(key('Good Things'), key('Good Things', 'Aloe Blacc'))
    assert.notEqual(key('5099749534728'), key('099749534728'))
  })
})
