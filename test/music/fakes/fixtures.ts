/**
 * Upstream answers written by hand in the shapes the public documentation gives: Deezer
 * (developers.deezer.com/api: album, track, search, errors), the iTunes Search API
 * (performance-partners.apple.com/search-api) and Odesli (odesli.co, API v1-alpha.1).
 */

const DZ_COVER = 'https://cdn-images.dzcdn.net/images/cover/2e018122cb56986277102d2041a592c8'
const daftPunk = {
  id: 27,
  name: 'Daft Punk',
  link: 'https://www.deezer.com/artist/27',
  picture: 'https://api.deezer.com/artist/27/image',
  picture_xl: 'https://cdn-images.dzcdn.net/images/artist/638e69b9caaf9f9f3f8826febea7b543/1000x1000-000000-80-0-0.jpg',
  tracklist: 'https://api.deezer.com/artist/27/top?limit=50',
  type: 'artist',
}

export const DISCOVERY_UPC = '724384960650'
export const HARDER_ISRC = 'GBDUW0000059'

/** GET /album/302127 and /album/upc:724384960650. */
export const deezerDiscovery = {
  id: 302127,
  title: 'Discovery',
  upc: DISCOVERY_UPC,
  link: 'https://www.deezer.com/album/302127',
  share: 'https://www.deezer.com/album/302127?utm_source=deezer&utm_content=album-302127&utm_medium=web',
  cover: 'https://api.deezer.com/album/302127/image',
  cover_small: `${DZ_COVER}/56x56-000000-80-0-0.jpg`,
  cover_medium: `${DZ_COVER}/250x250-000000-80-0-0.jpg`,
  cover_big: `${DZ_COVER}/500x500-000000-80-0-0.jpg`,
  cover_xl: `${DZ_COVER}/1000x1000-000000-80-0-0.jpg`,
  md5_image: '2e018122cb56986277102d2041a592c8',
  genre_id: 113,
  genres: { data: [{ id: 113, name: 'Dance', picture: 'https://api.deezer.com/genre/113/image', type: 'genre' }] },
  label: 'Parlophone (France)',
  nb_tracks: 14,
  duration: 3660,
  fans: 248316,
  release_date: '2001-03-07',
  record_type: 'album',
  available: true,
  tracklist: 'https://api.deezer.com/album/302127/tracks',
  explicit_lyrics: false,
  explicit_content_lyrics: 7,
  explicit_content_cover: 0,
  contributors: [{ ...daftPunk, radio: true, role: 'Main' }],
  artist: daftPunk,
  type: 'album',
  tracks: { data: [] },
}

const { upc: _upc, share: _share, genres: _genres, label: _label, ...discoverySearchItem } = deezerDiscovery

const deezerAlbumRef = {
  id: 302127,
  title: 'Discovery',
  cover: 'https://api.deezer.com/album/302127/image',
  cover_small: `${DZ_COVER}/56x56-000000-80-0-0.jpg`,
  cover_medium: `${DZ_COVER}/250x250-000000-80-0-0.jpg`,
  cover_big: `${DZ_COVER}/500x500-000000-80-0-0.jpg`,
  cover_xl: `${DZ_COVER}/1000x1000-000000-80-0-0.jpg`,
  md5_image: '2e018122cb56986277102d2041a592c8',
  tracklist: 'https://api.deezer.com/album/302127/tracks',
  type: 'album',
}

/** GET /track/isrc:GBDUW0000059 and /track/3135556. */
export const deezerHarder = {
  id: 3135556,
  readable: true,
  title: 'Harder, Better, Faster, Stronger',
  title_short: 'Harder, Better, Faster, Stronger',
  title_version: '',
  isrc: HARDER_ISRC,
  link: 'https://www.deezer.com/track/3135556',
  share: 'https://www.deezer.com/track/3135556?utm_source=deezer&utm_content=track-3135556&utm_medium=web',
  duration: 224,
  track_position: 4,
  disk_number: 1,
  rank: 956167,
  release_date: '2001-03-07',
  explicit_lyrics: false,
  explicit_content_lyrics: 0,
  explicit_content_cover: 0,
  preview: 'https://cdnt-preview.dzcdn.net/api/1/1/a/5/f/0/a5f0c3b4.mp3',
  bpm: 123.4,
  gain: -12.4,
  available_countries: ['DE', 'FR', 'GB', 'US'],
  contributors: [{ ...daftPunk, radio: true, role: 'Main' }],
  md5_image: '2e018122cb56986277102d2041a592c8',
  artist: daftPunk,
  album: { ...deezerAlbumRef, link: 'https://www.deezer.com/album/302127', release_date: '2001-03-07' },
  type: 'track',
}

/** An item of GET /search/track. */
export const deezerOneMoreTimeHit = {
  id: 3135553,
  readable: true,
  title: 'One More Time',
  title_short: 'One More Time',
  title_version: '',
  link: 'https://www.deezer.com/track/3135553',
  duration: 320,
  rank: 912345,
  explicit_lyrics: false,
  explicit_content_lyrics: 0,
  explicit_content_cover: 0,
  preview: 'https://cdnt-preview.dzcdn.net/api/1/1/0/3/9/0/039f1c.mp3',
  md5_image: '2e018122cb56986277102d2041a592c8',
  artist: daftPunk,
  album: deezerAlbumRef,
  type: 'track',
}

/** An item of GET /search/album that is not the one wanted (same title, another artist). */
const otherDiscoveryHit = {
  ...discoverySearchItem,
  id: 9001,
  title: 'Discovery (Live)',
  link: 'https://www.deezer.com/album/9001',
  artist: { ...daftPunk, id: 4242, name: 'The Discoverers', link: 'https://www.deezer.com/artist/4242' },
}

export const deezerSearch = (items: unknown[]) => ({ data: items, total: items.length })
export const deezerAlbumSearchHits = [otherDiscoveryHit, discoverySearchItem]
export const deezerNoData = { error: { type: 'DataException', message: 'no data', code: 800 } }

// iTunes
const MZ = 'https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/0c/5a/7e/0c5a7e2f-0a3b-6c3f-5b0f-1c2a6b0b1d5e/dj.xyzabc.jpg'

/** A collection result of /lookup?upc= and /search?entity=album. */
export const itunesDiscovery = {
  wrapperType: 'collection',
  collectionType: 'Album',
  artistId: 5468295,
  collectionId: 697194953,
  amgArtistId: 168791,
  artistName: 'Daft Punk',
  collectionName: 'Discovery',
  collectionCensoredName: 'Discovery',
  artistViewUrl: 'https://music.apple.com/us/artist/daft-punk/5468295?uo=4',
  collectionViewUrl: 'https://music.apple.com/us/album/discovery/697194953?uo=4',
  artworkUrl60: `${MZ}/60x60bb.jpg`,
  artworkUrl100: `${MZ}/100x100bb.jpg`,
  collectionPrice: 9.99,
  collectionExplicitness: 'notExplicit',
  trackCount: 14,
  copyright: '℗ 2001 Daft Life Ltd.',
  country: 'USA',
  currency: 'USD',
  releaseDate: '2001-03-07T08:00:00Z',
  primaryGenreName: 'Electronic',
}

/** A song result of /search?entity=song. */
export const itunesOneMoreTime = {
  wrapperType: 'track',
  kind: 'song',
  artistId: 5468295,
  collectionId: 697194953,
  trackId: 697195462,
  artistName: 'Daft Punk',
  collectionName: 'Discovery',
  trackName: 'One More Time',
  collectionViewUrl: 'https://music.apple.com/us/album/one-more-time/697194953?i=697195462&uo=4',
  trackViewUrl: 'https://music.apple.com/us/album/one-more-time/697194953?i=697195462&uo=4',
  previewUrl: 'https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview/one-more-time.m4a',
  artworkUrl30: `${MZ}/30x30bb.jpg`,
  artworkUrl60: `${MZ}/60x60bb.jpg`,
  artworkUrl100: `${MZ}/100x100bb.jpg`,
  releaseDate: '2000-11-13T12:00:00Z',
  trackTimeMillis: 320357,
  country: 'USA',
  primaryGenreName: 'Electronic',
}

export const itunesResults = (results: unknown[]) => ({ resultCount: results.length, results })

// Odesli
const odesliEntity = (id: string, provider: string, platforms: string[], type: 'album' | 'song', title: string, artistName: string) => ({
  id,
  type,
  title,
  artistName,
  thumbnailUrl: `https://thumbs.example-cdn.test/${provider}/${id}.jpg`,
  thumbnailWidth: 640,
  thumbnailHeight: 640,
  apiProvider: provider,
  platforms,
})

export interface OdesliFixture {
  /** Substrings of the links this answer is for (each platform's id). */
  keys: string[]
  body: Record<string, unknown>
}

/** Discovery on every platform Odesli knows it on. */
export const odesliDiscovery: OdesliFixture = {
  keys: ['2noRn2Aes5aoNVsU6iWThc', '697194953', 'album/302127', '1834160', 'B00BO2HAIE', 'album/36022', 'OLAK5uy_discovery', 'alb.27331185', '1026585'],
  body: {
    entityUniqueId: 'DEEZER_ALBUM::302127',
    userCountry: 'US',
    pageUrl: 'https://album.link/s/2noRn2Aes5aoNVsU6iWThc',
    linksByPlatform: {
      amazonMusic: { url: 'https://music.amazon.com/albums/B00BO2HAIE', entityUniqueId: 'AMAZON_ALBUM::B00BO2HAIE' },
      amazonStore: { url: 'https://amazon.com/dp/B00BO2HAIE?tag=songlink0d-20', entityUniqueId: 'AMAZON_ALBUM::B00BO2HAIE' },
      anghami: { url: 'https://play.anghami.com/album/1026585?refer=linktree', entityUniqueId: 'ANGHAMI_ALBUM::1026585' },
      deezer: { url: 'https://www.deezer.com/album/302127', entityUniqueId: 'DEEZER_ALBUM::302127' },
      appleMusic: {
        url: 'https://geo.music.apple.com/us/album/_/697194953?mt=1&app=music&ls=1&at=1000lHKX&ct=api_http&itscg=30200&itsct=odsl_m',
        nativeAppUriMobile: 'music://music.apple.com/us/album/_/697194953?mt=1&app=music&ls=1&at=1000lHKX&ct=api_uri_m&itscg=30200&itsct=odsl_m',
        nativeAppUriDesktop: 'itms://music.apple.com/us/album/_/697194953?mt=1&app=music&ls=1&at=1000lHKX&ct=api_uri_d&itscg=30200&itsct=odsl_m',
        entityUniqueId: 'ITUNES_ALBUM::697194953',
      },
      itunes: {
        url: 'https://geo.music.apple.com/us/album/_/697194953?mt=1&app=itunes&ls=1&at=1000lHKX&ct=api_http&itscg=30200&itsct=odsl_m',
        entityUniqueId: 'ITUNES_ALBUM::697194953',
      },
      napster: { url: 'https://play.napster.com/album/alb.27331185', entityUniqueId: 'NAPSTER_ALBUM::alb.27331185' },
      spotify: {
        url: 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc',
        nativeAppUriDesktop: 'spotify:album:2noRn2Aes5aoNVsU6iWThc',
        entityUniqueId: 'SPOTIFY_ALBUM::2noRn2Aes5aoNVsU6iWThc',
      },
      tidal: { url: 'https://listen.tidal.com/album/1834160', entityUniqueId: 'TIDAL_ALBUM::1834160' },
      yandex: { url: 'https://music.yandex.com/album/36022', entityUniqueId: 'YANDEX_ALBUM::36022' },
      youtube: { url: 'https://www.youtube.com/playlist?list=OLAK5uy_discovery', entityUniqueId: 'YOUTUBE_ALBUM::OLAK5uy_discovery' },
      youtubeMusic: { url: 'https://music.youtube.com/playlist?list=OLAK5uy_discovery', entityUniqueId: 'YOUTUBE_ALBUM::OLAK5uy_discovery' },
    },
    entitiesByUniqueId: {
      'DEEZER_ALBUM::302127': odesliEntity('302127', 'deezer', ['deezer'], 'album', 'Discovery', 'Daft Punk'),
      'SPOTIFY_ALBUM::2noRn2Aes5aoNVsU6iWThc': odesliEntity('2noRn2Aes5aoNVsU6iWThc', 'spotify', ['spotify'], 'album', 'Discovery', 'Daft Punk'),
      'ITUNES_ALBUM::697194953': odesliEntity('697194953', 'itunes', ['appleMusic', 'itunes'], 'album', 'Discovery', 'Daft Punk'),
      'TIDAL_ALBUM::1834160': odesliEntity('1834160', 'tidal', ['tidal'], 'album', 'Discovery', 'Daft Punk'),
      'AMAZON_ALBUM::B00BO2HAIE': odesliEntity('B00BO2HAIE', 'amazon', ['amazonMusic', 'amazonStore'], 'album', 'Discovery', 'Daft Punk'),
      'YANDEX_ALBUM::36022': odesliEntity('36022', 'yandex', ['yandex'], 'album', 'Discovery', 'Daft Punk'),
      'YOUTUBE_ALBUM::OLAK5uy_discovery': odesliEntity('OLAK5uy_discovery', 'youtube', ['youtube', 'youtubeMusic'], 'album', 'Discovery', 'Daft Punk'),
      'NAPSTER_ALBUM::alb.27331185': odesliEntity('alb.27331185', 'napster', ['napster'], 'album', 'Discovery', 'Daft Punk'),
      'ANGHAMI_ALBUM::1026585': odesliEntity('1026585', 'anghami', ['anghami'], 'album', 'Discovery', 'Daft Punk'),
    },
  },
}

const trackLinks = (entity: string, links: Record<string, string>) =>
  Object.fromEntries(Object.entries(links).map(([platform, url]) => [platform, { url, entityUniqueId: `${entity}::${platform}` }]))

/** A track: the answer for any of Harder, Better, Faster, Stronger's links. */
export const odesliHarder: OdesliFixture = {
  keys: ['track/3135556', '5W3cjX2J3tjhG8zb6u0qHn', '697195787'],
  body: {
    entityUniqueId: 'DEEZER_SONG::3135556',
    userCountry: 'US',
    pageUrl: 'https://song.link/d/3135556',
    linksByPlatform: trackLinks('SONG', {
      deezer: 'https://www.deezer.com/track/3135556',
      spotify: 'https://open.spotify.com/track/5W3cjX2J3tjhG8zb6u0qHn',
      appleMusic: 'https://geo.music.apple.com/us/album/_/697194953?i=697195787&mt=1&app=music&ls=1&at=1000lHKX',
      tidal: 'https://listen.tidal.com/track/1834164',
    }),
    entitiesByUniqueId: {
      'DEEZER_SONG::3135556': odesliEntity('3135556', 'deezer', ['deezer'], 'song', 'Harder, Better, Faster, Stronger', 'Daft Punk'),
    },
  },
}

export const odesliOneMoreTime: OdesliFixture = {
  keys: ['track/3135553', '0DiWol3AO6WpXZgp0goxAV', '697195462'],
  body: {
    entityUniqueId: 'DEEZER_SONG::3135553',
    userCountry: 'US',
    pageUrl: 'https://song.link/d/3135553',
    linksByPlatform: trackLinks('SONG', {
      deezer: 'https://www.deezer.com/track/3135553',
      spotify: 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV',
      appleMusic: 'https://geo.music.apple.com/us/album/_/697194953?i=697195462&mt=1&app=music&ls=1&at=1000lHKX',
    }),
    entitiesByUniqueId: {
      'DEEZER_SONG::3135553': odesliEntity('3135553', 'deezer', ['deezer'], 'song', 'One More Time', 'Daft Punk'),
    },
  },
}

/** An independent release: where Bandcamp, SoundCloud and Audiomack links come from. */
export const odesliIndie: OdesliFixture = {
  keys: ['lanterns', '7ouMYWpwJ422jRcDASZB7P'],
  body: {
    entityUniqueId: 'SPOTIFY_ALBUM::7ouMYWpwJ422jRcDASZB7P',
    userCountry: 'US',
    pageUrl: 'https://album.link/s/7ouMYWpwJ422jRcDASZB7P',
    linksByPlatform: {
      spotify: { url: 'https://open.spotify.com/album/7ouMYWpwJ422jRcDASZB7P', entityUniqueId: 'SPOTIFY_ALBUM::7ouMYWpwJ422jRcDASZB7P' },
      bandcamp: { url: 'https://thelanterns.bandcamp.com/album/midnight-parade', entityUniqueId: 'BANDCAMP_ALBUM::lanterns' },
      soundcloud: { url: 'https://soundcloud.com/the-lanterns/sets/midnight-parade', entityUniqueId: 'SOUNDCLOUD_ALBUM::lanterns' },
      audiomack: { url: 'https://audiomack.com/the-lanterns/album/midnight-parade', entityUniqueId: 'AUDIOMACK_ALBUM::lanterns' },
    },
    entitiesByUniqueId: {
      'SPOTIFY_ALBUM::7ouMYWpwJ422jRcDASZB7P': odesliEntity('7ouMYWpwJ422jRcDASZB7P', 'spotify', ['spotify'], 'album', 'Midnight Parade', 'The Lanterns'),
    },
  },
}

export const odesliUnresolved = { statusCode: 404, code: 'could_not_resolve_entity' }
