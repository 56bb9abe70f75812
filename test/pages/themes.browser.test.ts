import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium, type Page } from 'playwright-core'
import sharp from 'sharp'
import { demo } from '../../src/cli/demo-commands.ts'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { STORE, makeAccount, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, uploadImage } from './page-fixtures.ts'
import { keepScreenshot } from './screenshots.ts'

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
const ARTIFACTS = new URL('../../test-artifacts/themes/', import.meta.url)
const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url)
// Evaluated rather than added as a script tag, so the page's own CSP stays in force.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WIDTHS = [375, 1280] as const
const SCHEMES = ['light', 'dark'] as const
/** A few screenshots kept in the repository for people choosing a theme. */
const SHOWCASE = new Set(['1-1280-light', '2-1280-dark', '6-375-light', '11-1280-light', '8-375-dark', '10-1280-light'])

describe(`every theme renders the demo page in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let page: Page
  let profileId: number
  let thumbnailHost: Server
  const problems: string[] = []
  const failedLocal: string[] = []

  before(async () => {
    // The video thumbnail host, on 127.0.0.1: the page's image proxy (/-/remote/) fetches from here.
    const thumbnail = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#2d3142' } })
      .jpeg()
      .toBuffer()
    thumbnailHost = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail))
    await new Promise<void>((r) => thumbnailHost.listen(0, '127.0.0.1', r))
    const hostPort = `127.0.0.1:${(thumbnailHost.address() as AddressInfo).port}`
    t = await startApp({ YOUTUBE_THUMBNAIL_URL: `http://${hostPort}`, UPLOAD_URL_ALLOW_HOSTS: hostPort })
    const { user, token } = await makeAccount(t)
    await demo.run(t.ctx, { email: user.email, login: 'jane.doe' })
    const profile = (await profilesRepository.findByLogin(t.ctx.db, 'jane.doe'))!
    profileId = profile.id
    const [avatar, cover] = await Promise.all([uploadImage(t, user, 400, 400, '#f6a96b', '#b3446c'), uploadImage(t, user, 1600, 900, '#284b63', '#9ad1d4')])
    const patched = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { avatar: avatar.path, bgImage: cover.path } })
    assert.equal(patched.status, 200, patched.text)
    // Named and custom button styles must keep their own colours on every theme.
    const styled = await t.request('POST', `/v1/profiles/${profileId}/slots/batch`, {
      token,
      body: {
        slots: [
          { type: 'button', data: { title: 'Shop prints', link: 'example.com/shop', style: 'bright' } },
          {
            type: 'button',
            data: {
              title: 'Newsletter',
              subtitle: 'Monthly, no spam',
              link: 'example.com/news',
              style: 'custom',
              customize: { backgroundColor: '#0f5132', textColor: '#ffffff', subtitleColor: '#d1e7dd', borderRadius: 4 },
            },
          },
        ],
      },
    })
    assert.equal(styled.status, 201, styled.text)
    browser = await chromium.launch(LAUNCH)
    const context = await browser.newContext({ userAgent: BROWSER_UA })
    page = await context.newPage()
    await page.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy|Refused/i.test(m.text())) problems.push(`console: ${m.text()}`)
    })
    page.on('requestfailed', (r) => {
      // A request the browser cancels itself (leaving the page, or dropping a srcset candidate
      // after a full-page screenshot resized it) is no broken image: those are checked on the
      // page. Anything else that fails on our origin is.
      if (r.url().startsWith(t.url) && r.failure()?.errorText !== 'net::ERR_ABORTED') failedLocal.push(`${r.url()} ${r.failure()?.errorText}`)
    })
    mkdirSync(ARTIFACTS, { recursive: true })
    mkdirSync(SCREENSHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    thumbnailHost?.closeAllConnections()
    await new Promise((r) => thumbnailHost?.close(r))
  })

  /** Sets the theme the way the dashboard does: a profile write, then the change event. */
  async function useTheme(themeId: number) {
    await profilesRepository.update(t.ctx.db, profileId, { themeId })
    t.ctx.events.emit('profile-changed', { profileId, logins: ['jane.doe'] })
  }

  for (const theme of THEMES) {
    it(`theme ${theme.id} ${theme.name}: both widths, light and dark, accessible, nothing overflows, every image loads`, async () => {
      await useTheme(theme.id)
      for (const width of WIDTHS) {
        for (const scheme of SCHEMES) {
          const shot = `${theme.id}-${width}-${scheme}`
          // Off the page first: resized, the page still shown would start fetching the wider
          // WebP of its srcset, and the next navigation would cancel it (a failed request).
          await page.goto('about:blank')
          await page.setViewportSize({ width, height: 900 })
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' })
          await page.goto(`${t.url}/jane.doe`)
          assert.equal(await page.$eval('main', (el) => el.className.split(' ')[1]), `theme-${theme.id}`)
          // Lazy images load once scrolled to; then wait for the last of them.
          await page.evaluate(async () => {
            for (let y = 0; y < document.body.scrollHeight; y += 500) {
              window.scrollTo(0, y)
              await new Promise((r) => setTimeout(r, 20))
            }
            window.scrollTo(0, 0)
            await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))))
          })
          const broken = await page.evaluate(() =>
            [...document.images].filter((img) => img.src.startsWith(location.origin) && !(img.complete && img.naturalWidth > 0)).map((img) => img.src),
          )
          assert.deepEqual(broken, [], shot)
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          assert.equal(overflow, 0, `${shot}: no sideways scrolling`)
          // The stylesheet passed the CSP (its hash is the theme's): the avatar is round.
          assert.equal(await page.$eval('.avatar', (el) => getComputedStyle(el).borderRadius), '50%', shot)
          await page.evaluate(AXE)
          const serious = await page.evaluate(async () => {
            const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
            return result.violations
              .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
              .map((v: any) => ({ id: v.id, nodes: v.nodes.slice(0, 4).map((n: any) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`) }))
          })
          assert.deepEqual(serious, [], shot)
          const path = new URL(`theme-${shot}.png`, ARTIFACTS).pathname
          // The pointer stays where an earlier test left it: a hovered button would look filled.
          await page.mouse.move(0, 0)
          const png = await page.screenshot({ path, fullPage: true })
          if (SHOWCASE.has(shot)) await keepScreenshot(png, new URL(`theme-${shot}.png`, SCREENSHOTS))
        }
      }
      assert.deepEqual(problems, [])
      assert.deepEqual(failedLocal, [])
    })
  }

  it('shows the named and custom button colours unchanged on every theme', async () => {
    const colours: string[] = []
    for (const theme of THEMES) {
      await useTheme(theme.id)
      await page.goto(`${t.url}/jane.doe`)
      colours.push(
        await page.evaluate(() => {
          const bright = getComputedStyle(document.querySelector('.slot-button.style-bright')!)
          const custom = getComputedStyle(document.querySelector('.slot-button.style-custom')!)
          return `${bright.backgroundImage} | ${custom.backgroundColor} ${custom.color} ${custom.borderRadius}`
        }),
      )
    }
    assert.equal(new Set(colours).size, 1, colours.join('\n'))
    assert.match(colours[0], /rgb\(15, 81, 50\) rgb\(255, 255, 255\) 4px$/)
  })
})
