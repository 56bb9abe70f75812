/**
 * Platform icons for social links (spec, Profile: icons are derived by the server). The icon
 * names are the stable identifiers pages and clients draw from; `link` means "no platform".
 */
export const SOCIAL_PLATFORMS: ReadonlyArray<{ icon: string; hosts: readonly string[] }> = Object.freeze([
  { icon: 'instagram', hosts: ['instagram.com', 'instagr.am', 'ig.me'] },
  { icon: 'tiktok', hosts: ['tiktok.com'] },
  { icon: 'youtube', hosts: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'] },
  { icon: 'youtube-music', hosts: ['music.youtube.com'] },
  { icon: 'x', hosts: ['x.com', 'twitter.com', 't.co'] },
  { icon: 'facebook', hosts: ['facebook.com', 'fb.com', 'fb.me', 'fb.watch'] },
  { icon: 'messenger', hosts: ['messenger.com', 'm.me'] },
  { icon: 'linkedin', hosts: ['linkedin.com', 'lnkd.in'] },
  { icon: 'github', hosts: ['github.com', 'github.io'] },
  { icon: 'gitlab', hosts: ['gitlab.com'] },
  { icon: 'telegram', hosts: ['t.me', 'telegram.me', 'telegram.org', 'telegram.dog'] },
  { icon: 'whatsapp', hosts: ['wa.me', 'whatsapp.com', 'whatsapp.me'] },
  { icon: 'signal', hosts: ['signal.me', 'signal.group'] },
  { icon: 'viber', hosts: ['viber.com', 'viber.me'] },
  { icon: 'line', hosts: ['line.me'] },
  { icon: 'wechat', hosts: ['wechat.com', 'weixin.qq.com'] },
  { icon: 'weibo', hosts: ['weibo.com', 'weibo.cn'] },
  { icon: 'skype', hosts: ['skype.com'] },
  { icon: 'spotify', hosts: ['spotify.com', 'spotify.link', 'spoti.fi'] },
  { icon: 'soundcloud', hosts: ['soundcloud.com'] },
  { icon: 'apple-music', hosts: ['music.apple.com', 'itunes.apple.com'] },
  { icon: 'apple-podcasts', hosts: ['podcasts.apple.com'] },
  { icon: 'app-store', hosts: ['apps.apple.com'] },
  { icon: 'google-play', hosts: ['play.google.com'] },
  { icon: 'deezer', hosts: ['deezer.com', 'deezer.page.link', 'dzr.page.link'] },
  { icon: 'tidal', hosts: ['tidal.com'] },
  { icon: 'bandcamp', hosts: ['bandcamp.com'] },
  { icon: 'mixcloud', hosts: ['mixcloud.com'] },
  { icon: 'audiomack', hosts: ['audiomack.com'] },
  { icon: 'twitch', hosts: ['twitch.tv'] },
  { icon: 'kick', hosts: ['kick.com'] },
  { icon: 'vimeo', hosts: ['vimeo.com'] },
  { icon: 'rumble', hosts: ['rumble.com'] },
  { icon: 'discord', hosts: ['discord.com', 'discord.gg', 'discordapp.com'] },
  { icon: 'pinterest', hosts: ['pinterest.com', 'pin.it'] },
  { icon: 'snapchat', hosts: ['snapchat.com'] },
  { icon: 'threads', hosts: ['threads.net', 'threads.com'] },
  { icon: 'bluesky', hosts: ['bsky.app', 'bsky.social', 'blueskyweb.xyz'] },
  {
    icon: 'mastodon',
    hosts: ['mastodon.social', 'mastodon.online', 'mastodon.world', 'mstdn.social', 'mas.to', 'fosstodon.org', 'hachyderm.io', 'infosec.exchange'],
  },
  { icon: 'reddit', hosts: ['reddit.com', 'redd.it'] },
  { icon: 'vk', hosts: ['vk.com', 'vk.ru', 'vk.me'] },
  { icon: 'ok', hosts: ['ok.ru'] },
  { icon: 'tumblr', hosts: ['tumblr.com'] },
  { icon: 'medium', hosts: ['medium.com'] },
  { icon: 'substack', hosts: ['substack.com'] },
  { icon: 'patreon', hosts: ['patreon.com'] },
  { icon: 'ko-fi', hosts: ['ko-fi.com'] },
  { icon: 'buymeacoffee', hosts: ['buymeacoffee.com'] },
  { icon: 'paypal', hosts: ['paypal.com', 'paypal.me'] },
  { icon: 'cashapp', hosts: ['cash.app'] },
  { icon: 'venmo', hosts: ['venmo.com'] },
  { icon: 'onlyfans', hosts: ['onlyfans.com'] },
  { icon: 'behance', hosts: ['behance.net'] },
  { icon: 'dribbble', hosts: ['dribbble.com'] },
  { icon: 'flickr', hosts: ['flickr.com', 'flic.kr'] },
  { icon: 'etsy', hosts: ['etsy.com', 'etsy.me'] },
  { icon: 'amazon', hosts: ['amazon.com', 'amzn.to', 'a.co'] },
  { icon: 'amazon-music', hosts: ['music.amazon.com'] },
  { icon: 'goodreads', hosts: ['goodreads.com'] },
  { icon: 'letterboxd', hosts: ['letterboxd.com', 'boxd.it'] },
  { icon: 'imdb', hosts: ['imdb.com'] },
  { icon: 'strava', hosts: ['strava.com', 'strava.app.link'] },
  { icon: 'steam', hosts: ['steamcommunity.com', 'steampowered.com'] },
  { icon: 'calendly', hosts: ['calendly.com'] },
  { icon: 'quora', hosts: ['quora.com'] },
  { icon: 'stackoverflow', hosts: ['stackoverflow.com'] },
])

/**
 * Brands with a domain per country (pinterest.de, amazon.co.uk): matched on the registrable
 * label, checked after the exact host table so music.amazon.de stays amazon-music.
 */
const COUNTRY_DOMAINS: ReadonlyArray<[RegExp, string]> = [
  [/(^|\.)music\.amazon\.(com?\.)?[a-z]{2,3}$/, 'amazon-music'],
  [/(^|\.)amazon\.(com?\.)?[a-z]{2,3}$/, 'amazon'],
  [/(^|\.)pinterest\.(com?\.)?[a-z]{2,3}$/, 'pinterest'],
  [/(^|\.)(mastodon|mstdn)\.[a-z0-9.-]+$/, 'mastodon'],
]

const SCHEME_ICONS: Record<string, string> = { mailto: 'email', tel: 'phone', whatsapp: 'whatsapp' }

const byHost = new Map<string, string>()
for (const { icon, hosts } of SOCIAL_PLATFORMS) for (const host of hosts) byHost.set(host, icon)

/** Icon name for a social link, from its scheme or host; `link` when nothing matches. */
export function socialIcon(link: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1].toLowerCase()
  if (scheme && SCHEME_ICONS[scheme]) return SCHEME_ICONS[scheme]
  let host: string
  try {
    host = new URL(link).hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return 'link'
  }
  // The most specific suffix wins: music.youtube.com before youtube.com.
  const labels = host.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    const icon = byHost.get(labels.slice(i).join('.'))
    if (icon) return icon
  }
  for (const [re, icon] of COUNTRY_DOMAINS) if (re.test(host)) return icon
  return 'link'
}
