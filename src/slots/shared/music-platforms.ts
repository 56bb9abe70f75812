/**
 * Music platforms, in the order a music slot lists them: the single table behind the music
 * slot's `computed.links[].platform`/`icon` and the music lookup's links. Pure: no imports.
 * `platform` ids are Odesli's where it has one; `icon` names follow the page icon set.
 */
export interface MusicPlatform {
  platform: string
  label: string
  icon: string
  /** Hosts, matched exactly or as a parent domain (artist.bandcamp.com is bandcamp.com). */
  hosts: readonly string[]
  /** Brands with a domain per country (music.amazon.de, music.yandex.kz). */
  hostPattern?: RegExp
}

export const MUSIC_PLATFORMS: readonly MusicPlatform[] = Object.freeze([
  { platform: 'spotify', label: 'Spotify', icon: 'spotify', hosts: ['open.spotify.com', 'play.spotify.com', 'spotify.com', 'spotify.link', 'spoti.fi'] },
  { platform: 'appleMusic', label: 'Apple Music', icon: 'apple-music', hosts: ['music.apple.com', 'itunes.apple.com', 'geo.music.apple.com'] },
  { platform: 'youtubeMusic', label: 'YouTube Music', icon: 'youtube-music', hosts: ['music.youtube.com'] },
  { platform: 'youtube', label: 'YouTube', icon: 'youtube', hosts: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'] },
  { platform: 'deezer', label: 'Deezer', icon: 'deezer', hosts: ['deezer.com', 'deezer.page.link', 'dzr.page.link', 'link.deezer.com'] },
  { platform: 'tidal', label: 'TIDAL', icon: 'tidal', hosts: ['tidal.com', 'listen.tidal.com'] },
  {
    platform: 'amazonMusic',
    label: 'Amazon Music',
    icon: 'amazon-music',
    hosts: ['music.amazon.com'],
    hostPattern: /(^|\.)music\.amazon\.(com?\.)?[a-z]{2,3}$/,
  },
  { platform: 'soundcloud', label: 'SoundCloud', icon: 'soundcloud', hosts: ['soundcloud.com', 'on.soundcloud.com', 'soundcloud.app.goo.gl'] },
  {
    platform: 'yandex',
    label: 'Yandex Music',
    icon: 'yandex-music',
    hosts: ['music.yandex.ru', 'music.yandex.com'],
    hostPattern: /(^|\.)music\.yandex\.[a-z]{2,3}$/,
  },
  { platform: 'bandcamp', label: 'Bandcamp', icon: 'bandcamp', hosts: ['bandcamp.com'] },
  { platform: 'audiomack', label: 'Audiomack', icon: 'audiomack', hosts: ['audiomack.com'] },
  { platform: 'pandora', label: 'Pandora', icon: 'pandora', hosts: ['pandora.com', 'pandora.app.link'] },
  { platform: 'napster', label: 'Napster', icon: 'napster', hosts: ['napster.com'] },
  { platform: 'anghami', label: 'Anghami', icon: 'anghami', hosts: ['anghami.com'] },
  { platform: 'boomplay', label: 'Boomplay', icon: 'boomplay', hosts: ['boomplay.com', 'boomplaymusic.com'] },
  { platform: 'audius', label: 'Audius', icon: 'audius', hosts: ['audius.co'] },
  { platform: 'qobuz', label: 'Qobuz', icon: 'qobuz', hosts: ['qobuz.com'] },
  { platform: 'mixcloud', label: 'Mixcloud', icon: 'mixcloud', hosts: ['mixcloud.com'] },
  { platform: 'beatport', label: 'Beatport', icon: 'beatport', hosts: ['beatport.com'] },
  { platform: 'shazam', label: 'Shazam', icon: 'shazam', hosts: ['shazam.com'] },
  { platform: 'jiosaavn', label: 'JioSaavn', icon: 'jiosaavn', hosts: ['jiosaavn.com'] },
  { platform: 'zvuk', label: 'Zvuk', icon: 'zvuk', hosts: ['zvuk.com'] },
])

const byHost = new Map<string, MusicPlatform>()
for (const p of MUSIC_PLATFORMS) for (const host of p.hosts) byHost.set(host, p)

/** The platform of a link, from its host; null for links that are not on a music platform. */
export function musicPlatformOf(link: string): MusicPlatform | null {
  let host: string
  try {
    const url = new URL(link)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    host = url.hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return null
  }
  // The most specific suffix wins: music.youtube.com before youtube.com.
  const labels = host.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    const platform = byHost.get(labels.slice(i).join('.'))
    if (platform) return platform
  }
  return MUSIC_PLATFORMS.find((p) => p.hostPattern?.test(host)) ?? null
}

/** Where a platform sorts among the slot's links (unknown platforms last). */
export const platformRank = (platform: string) => {
  const i = MUSIC_PLATFORMS.findIndex((p) => p.platform === platform)
  return i === -1 ? MUSIC_PLATFORMS.length : i
}
