import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DRAWN_ICONS, socialIconSvg } from '../../src/rendering/social-icon-svg.ts'
import { SOCIAL_PLATFORMS, socialIcon } from '../../src/profiles/social-icons.ts'

describe('socialIconSvg', () => {
  it('draws every icon socialIcon() can answer', () => {
    const names = new Set([...SOCIAL_PLATFORMS.map((p) => p.icon), 'email', 'phone', 'whatsapp', 'link'])
    for (const name of names) assert.ok(DRAWN_ICONS.includes(name), name)
    for (const link of ['mailto:a@b.co', 'tel:+123', 'whatsapp://send?phone=1', 'https://nowhere.example']) assert.ok(DRAWN_ICONS.includes(socialIcon(link)))
  })

  it('draws each icon differently, as an inline SVG hidden from screen readers', () => {
    const drawn = new Set(DRAWN_ICONS.map((name) => socialIconSvg(name).svg.html))
    assert.equal(drawn.size, DRAWN_ICONS.length)
    for (const name of DRAWN_ICONS) {
      const { svg, label } = socialIconSvg(name)
      assert.match(svg.html, /^<svg class="icon" viewBox="0 0 24 24" [^>]*aria-hidden="true"[^>]*>.+<\/svg>$/)
      assert.doesNotMatch(svg.html, /<script|on\w+=/i)
      assert.ok(label.length > 0)
    }
  })

  it('draws the marks of the major music platforms, for music blocks', () => {
    for (const name of ['spotify', 'apple-music', 'youtube-music', 'deezer', 'tidal', 'soundcloud', 'bandcamp', 'amazon-music', 'audiomack', 'pandora']) {
      assert.ok(DRAWN_ICONS.includes(name), name)
    }
  })

  it('falls back to the generic link icon for a name it does not know', () => {
    assert.deepEqual(socialIconSvg('no-such-platform'), socialIconSvg('link'))
    assert.equal(socialIconSvg('link').label, 'Website')
  })
})
