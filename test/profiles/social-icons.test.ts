import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { SOCIAL_PLATFORMS, socialIcon } from '../../src/profiles/social-icons.ts'

describe('socialIcon', () => {
  it('knows at least 40 platforms, each named once', () => {
    const icons = SOCIAL_PLATFORMS.map((p) => p.icon)
    assert.ok(icons.length >= 40, `only ${icons.length} platforms`)
    assert.equal(new Set(icons).size, icons.length)
  })

  it('gives every host in the table to exactly one platform', () => {
    const hosts = SOCIAL_PLATFORMS.flatMap((p) => p.hosts)
    assert.equal(new Set(hosts).size, hosts.length)
  })

  const cases: Array<[string, string]> = [
    ['https://instagram.com/jane.doe', 'instagram'],
    ['https://www.tiktok.com/@jane', 'tiktok'],
    ['https://youtube.com/@jane', 'youtube'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube'],
    ['https://x.com/jane', 'x'],
    ['https://twitter.com/jane', 'x'],
    ['https://facebook.com/jane', 'facebook'],
    ['https://www.linkedin.com/in/jane', 'linkedin'],
    ['https://github.com/jane', 'github'],
    ['https://t.me/jane', 'telegram'],
    ['https://wa.me/15551234567', 'whatsapp'],
    ['https://open.spotify.com/artist/1', 'spotify'],
    ['https://soundcloud.com/jane', 'soundcloud'],
    ['https://music.apple.com/us/album/1', 'apple-music'],
    ['https://www.twitch.tv/jane', 'twitch'],
    ['https://discord.gg/abc', 'discord'],
    ['https://pinterest.com/jane', 'pinterest'],
    ['https://www.snapchat.com/add/jane', 'snapchat'],
    ['https://www.threads.net/@jane', 'threads'],
    ['https://bsky.app/profile/jane.bsky.social', 'bluesky'],
    ['https://mastodon.social/@jane', 'mastodon'],
    ['https://www.reddit.com/user/jane', 'reddit'],
    ['https://vk.com/jane', 'vk'],
    ['https://www.patreon.com/jane', 'patreon'],
    ['https://jane.bandcamp.com', 'bandcamp'],
  ]
  for (const [link, icon] of cases) {
    it(`derives ${icon} from ${link}`, () => assert.equal(socialIcon(link), icon))
  }

  it('derives email, phone and whatsapp from the scheme', () => {
    assert.equal(socialIcon('mailto:jane@example.com'), 'email')
    assert.equal(socialIcon('tel:+15551234567'), 'phone')
    assert.equal(socialIcon('whatsapp://send?phone=15551234567'), 'whatsapp')
  })

  it('prefers the most specific host: music.youtube.com is youtube-music, not youtube', () => {
    assert.equal(socialIcon('https://music.youtube.com/watch?v=1'), 'youtube-music')
    assert.equal(socialIcon('https://podcasts.apple.com/us/podcast/1'), 'apple-podcasts')
  })

  it('recognises brands on their country domains', () => {
    assert.equal(socialIcon('https://www.pinterest.co.uk/jane'), 'pinterest')
    assert.equal(socialIcon('https://www.amazon.de/dp/1'), 'amazon')
    assert.equal(socialIcon('https://music.amazon.co.jp/albums/1'), 'amazon-music')
  })

  it('does not match a platform name that is only part of a host label', () => {
    assert.equal(socialIcon('https://notinstagram.com/jane'), 'link')
    assert.equal(socialIcon('https://instagram.com.evil.example/jane'), 'link')
  })

  it('answers link for an unknown host or an unparsable link', () => {
    assert.equal(socialIcon('https://example.com/me'), 'link')
    assert.equal(socialIcon('not a url'), 'link')
  })

  it('never throws and always answers a known icon name', () => {
    const known = new Set([...SOCIAL_PLATFORMS.map((p) => p.icon), 'email', 'phone', 'whatsapp', 'link'])
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl()), (link) => {
        assert.ok(known.has(socialIcon(link)))
      }),
    )
  })
})
