import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium, type Page } from 'playwright-core'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import music from '../../src/slots/music.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, uploadImage } from './page-fixtures.ts'
import { differingShare } from './screenshots.ts'

// Debian's chromium, never a downloaded browser; only 127.0.0.1 is reachable from the page.
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}
const ARTIFACTS = new URL('../../test-artifacts/music-styles/', import.meta.url)
// Evaluated rather than added as a script tag, so the page's own CSP stays in force.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const STYLES = Object.keys(music.enumLabels.style)
const SCHEMES = ['light', 'dark'] as const

/** Below this share of differing pixels, two styles read as one: a fifth of the block must change. */
const DISTINCT = 1 / 5

describe(`every music style looks distinct from the others in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let page: Page
  let profileId: number
  let login: string
  /** Slot id of each style, in STYLES order. */
  let slotIds: number[]
  const problems: string[] = []

  before(async () => {
    t = await startApp()
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    profileId = profile.id
    login = profile.login
    // The cover is an upload of the page's owner: served from our origin, so no proxy and no network.
    const cover = await uploadImage(t, user, 300, 300, '#ffb347', '#6a4c93')
    const release = (style: string) => ({
      type: 'music',
      data: {
        style,
        album: 'Night Drawings',
        artist: 'Jane Doe & Friends',
        thumbnail: cover.src,
        links: [
          { link: 'https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy' },
          { link: 'https://music.apple.com/us/album/1440857781' },
          { link: 'https://jane.example.org' },
        ],
      },
    })
    const created = await t.request('POST', `/v1/profiles/${profileId}/slots/batch`, { token, body: { slots: STYLES.map(release) } })
    assert.equal(created.status, 201, created.text)
    slotIds = created.body.data.map((s: { id: number }) => s.id)
    browser = await chromium.launch(LAUNCH)
    const context = await browser.newContext({ userAgent: BROWSER_UA, reducedMotion: 'reduce' })
    page = await context.newPage()
    await page.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy|Refused/i.test(m.text())) problems.push(`console: ${m.text()}`)
    })
    mkdirSync(ARTIFACTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  /** Each style's block as a PNG, every cover loaded, with the theme and colour scheme given. */
  async function screenshots(themeId: number, scheme: (typeof SCHEMES)[number]): Promise<Buffer[]> {
    await profilesRepository.update(t.ctx.db, profileId, { themeId })
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    // Tall enough to show every block at once, so every lazy cover loads.
    await page.setViewportSize({ width: 375, height: 3000 })
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`${t.url}/${login}`)
    await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode())))
    const shots: Buffer[] = []
    for (const [i, style] of STYLES.entries()) {
      const block = page.locator(`#slot-${slotIds[i]} > .slot-music.style-${style}`)
      const png = await block.screenshot()
      writeFileSync(new URL(`${themeId}-${scheme}-${style}.png`, ARTIFACTS), png)
      shots.push(png)
    }
    return shots
  }

  /** Serious and critical axe-core findings on the page as it is shown. */
  async function axeFindings(): Promise<string[]> {
    await page.evaluate(AXE)
    return page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
      return result.violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v: any) =>
            `${v.id}: ${v.nodes
              .slice(0, 4)
              .map((n: any) => n.target.join(' '))
              .join(', ')}`,
        )
    })
  }

  for (const theme of THEMES) {
    it(`theme ${theme.id} ${theme.name}: every pair of styles differs in at least a fifth of its pixels, and every style reads well, light and dark`, async () => {
      const alike: string[] = []
      for (const scheme of SCHEMES) {
        const shots = await screenshots(theme.id, scheme)
        // Styles recolour text: each must keep its contrast on every theme, in both modes.
        assert.deepEqual(await axeFindings(), [], `${scheme}`)
        for (let a = 0; a < STYLES.length; a++) {
          for (let b = a + 1; b < STYLES.length; b++) {
            const share = await differingShare(shots[a], shots[b])
            if (share < DISTINCT) alike.push(`${scheme}: ${STYLES[a]} and ${STYLES[b]} (${Math.round(share * 100)} % of pixels differ)`)
          }
        }
      }
      assert.deepEqual(alike, [])
      assert.deepEqual(problems, [])
    })
  }
})
