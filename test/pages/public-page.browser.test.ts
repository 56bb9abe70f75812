import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import sharp from 'sharp'
import { demo } from '../../src/cli/demo-commands.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, buildDemoPage, DEMO_TEXTS, type PageTexts, uploadImage } from './page-fixtures.ts'

// Debian's chromium, never a downloaded browser; every request that is not for 127.0.0.1 is
// aborted, so a stray https image or the YouTube player never leaves the machine.
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
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** Script payloads: each tries to set window.__xss or open a dialog, by a different route. */
const XSS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload=window.__xss=1>',
  '"><script>window.__xss=1</script>',
  "'><img src=x onerror=window.__xss=1>",
  'javascript:window.__xss=1',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<body onload=window.__xss=1>',
  '<a href="javascript:alert(1)">x</a>',
  '<details open ontoggle=window.__xss=1>',
  '<input autofocus onfocus=window.__xss=1>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>',
  '<svg><script>window.__xss=1</script></svg>',
  '<object data="javascript:window.__xss=1">',
  '<embed src="javascript:window.__xss=1">',
  '<video><source onerror="window.__xss=1"></video>',
  '<audio src=x onerror=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<base href="javascript:window.__xss=1//">',
  '<form action="javascript:window.__xss=1"><button>x</button></form>',
  '<img src="x` `<script>window.__xss=1</script>"` `>',
  '&lt;script&gt;window.__xss=1&lt;/script&gt;',
  '<scr<script>ipt>window.__xss=1</scr</script>ipt>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<div style="background:url(javascript:window.__xss=1)">x</div>',
  '</textarea><script>window.__xss=1</script>',
  '</title><script>window.__xss=1</script>',
  '<!--<img src="--><img src=x onerror=window.__xss=1//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg><animate onbegin=window.__xss=1 attributeName=x dur=1s>',
  '<span onmouseover=window.__xss=1 style="display:block;position:fixed;inset:0">x</span>',
  '</style><script>window.__xss=1</script>',
  '"onfocus="window.__xss=1"autofocus="',
  "';window.__xss=1;//",
  '<template><script>window.__xss=1</script></template><img src=x onerror=window.__xss=1>',
]

/** The payload in every text field of the page (bounded by each field's maximum length). */
function payloadTexts(payload: string): PageTexts {
  // A word first: plain-text fields drop tags, and a field left empty would be refused.
  const texts = Object.fromEntries(Object.keys(DEMO_TEXTS).map((k) => [k, `${k} ${payload}`])) as unknown as PageTexts
  return { ...texts, textHtml: `<p>Text ${payload}</p>${payload}`, linkSuffix: payload }
}

/** What would betray a payload that got through: run flags, script elements, handlers, URLs. */
async function evidence(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __xss?: unknown; __fired?: boolean }
    const handlers: string[] = []
    const bad: string[] = []
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name.startsWith('on')) handlers.push(`${el.tagName} ${a.name}`)
        if (/^\s*(javascript|vbscript|data):/i.test(a.value) && ['href', 'src', 'action', 'formaction', 'data', 'xlink:href'].includes(a.name)) {
          bad.push(`${el.tagName} ${a.name}=${a.value}`)
        }
      }
    }
    return {
      fired: w.__fired === true,
      // The page's own script, and its structured data: a data block the browser never runs.
      scripts: [...document.scripts].filter((el) => el.type !== 'application/ld+json').length,
      dataBlocks: document.querySelectorAll('script[type="application/ld+json"]').length,
      handlers,
      bad,
      embeds: document.querySelectorAll('iframe, object, embed, base, meta[http-equiv]').length,
    }
  })
}

describe(`public page in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let context: BrowserContext
  let token: string
  let profileId: number
  let user: User
  let thumbnail: Buffer
  let thumbnailHost: Server

  /** A page that may only reach 127.0.0.1, recording dialogs and page errors. */
  async function openPage(ctx: BrowserContext, width: number) {
    const page = await ctx.newPage()
    await page.setViewportSize({ width, height: 900 })
    await page.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname
      // Video thumbnails come from our own origin (/-/remote/), which fetched them from the fake host.
      if (host === '127.0.0.1') return route.continue()
      return route.abort()
    })
    const problems: string[] = []
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`)
      void d.dismiss()
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy|Refused/i.test(m.text())) problems.push(`console: ${m.text()}`)
    })
    return { page, problems }
  }

  before(async () => {
    // The video thumbnail host, on 127.0.0.1: the page's image proxy fetches from here, so
    // screenshots show a thumbnail.
    thumbnailHost = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail))
    await new Promise<void>((r) => thumbnailHost.listen(0, '127.0.0.1', r))
    const hostPort = `127.0.0.1:${(thumbnailHost.address() as AddressInfo).port}`
    t = await startApp({ YOUTUBE_THUMBNAIL_URL: `http://${hostPort}`, UPLOAD_URL_ALLOW_HOSTS: hostPort })
    const account = await makeAccount(t)
    token = account.token
    user = account.user
    // The demo page of `cli demo` (one slot of every type and a legacy one), with an avatar and
    // a cover added through the API so the whole header shows.
    await demo.run(t.ctx, { email: user.email, login: 'jane.doe' })
    const profile = (await profilesRepository.findByLogin(t.ctx.db, 'jane.doe'))!
    profileId = profile.id
    const [avatar, cover] = await Promise.all([uploadImage(t, user, 400, 400, '#f6a96b', '#b3446c'), uploadImage(t, user, 1600, 900, '#284b63', '#9ad1d4')])
    const patched = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { avatar: avatar.path, bgImage: cover.path } })
    assert.equal(patched.status, 200, patched.text)
    thumbnail = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#2d3142' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"><circle cx="150" cy="130" r="70" fill="#ef8354"/><rect x="230" y="170" width="180" height="110" rx="12" fill="#bfc0c0"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer()
    browser = await chromium.launch(LAUNCH)
    // A person's browser: HeadlessChrome in the agent would be left out of analytics as a bot.
    context = await browser.newContext({ userAgent: BROWSER_UA })
    mkdirSync(ARTIFACTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    thumbnailHost?.closeAllConnections()
    await new Promise((r) => thumbnailHost?.close(r))
  })

  for (const width of [375, 1280]) {
    it(`renders the demo page at ${width} px under its own CSP, with every image loaded`, async () => {
      const { page, problems } = await openPage(context, width)
      const blocked: string[] = []
      page.on('requestfailed', (r) => blocked.push(r.url()))
      await page.goto(`${t.url}/jane.doe`)
      // Lazy images load once scrolled to; then wait for the last of them.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y)
          await new Promise((r) => setTimeout(r, 30))
        }
        window.scrollTo(0, 0)
        await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))))
      })
      const broken = await page.evaluate(() =>
        [...document.images].filter((img) => img.src.startsWith(location.origin) && !(img.complete && img.naturalWidth > 0)).map((img) => img.src),
      )
      assert.deepEqual(broken, [])
      // The theme applied (its stylesheet passed the CSP hash): the avatar is a circle.
      assert.equal(await page.$eval('.avatar', (el) => getComputedStyle(el).borderRadius), '50%')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.equal(overflow, 0, 'no sideways scrolling')
      assert.deepEqual(problems, [])
      assert.ok(
        blocked.every((url) => !url.startsWith(t.url)),
        `local requests failed: ${blocked.join(', ')}`,
      )
      await page.screenshot({ path: new URL(`public-page-${width}.png`, ARTIFACTS).pathname, fullPage: true })
      await page.close()
    })
  }

  it("loads WebP variants sized to the screen, with each image's box reserved before it loads", async () => {
    const { page, problems } = await openPage(context, 375)
    // Image bytes held back: the layout must already give every uploaded image its final box.
    await page.route('**/static/**', () => {})
    await page.goto(`${t.url}/jane.doe`, { waitUntil: 'domcontentloaded' })
    const boxes = await page.$$eval('.slot-picture img, .slot-gallery-items img', (imgs) =>
      imgs.map((img) => ({ height: img.getBoundingClientRect().height, width: img.getBoundingClientRect().width, hasSize: img.hasAttribute('width') })),
    )
    assert.ok(boxes.length >= 2)
    for (const box of boxes) {
      assert.ok(box.hasSize, 'width and height attributes')
      assert.ok(box.height > 0 && box.width > 0, `box reserved: ${JSON.stringify(box)}`)
    }
    await page.unroute('**/static/**')
    await page.reload()
    await page.$eval('.slot-picture img', (img) => (img as HTMLImageElement).decode())
    const picture = await page.$eval('.slot-picture img', (img) => ({
      current: (img as HTMLImageElement).currentSrc,
      loading: img.getAttribute('loading'),
    }))
    // 375 px wide at DPR 1: the 400 px WebP, not the 800 px upload.
    assert.match(picture.current, /\.w400\.webp$/)
    assert.equal(picture.loading, 'eager')
    assert.deepEqual(problems, [])
    await page.close()
  })

  for (const width of [375, 1280]) {
    it(`has no serious or critical axe-core violations at ${width} px`, async () => {
      // axe is injected as a script, which the page's CSP would rightly refuse.
      const axeContext = await browser.newContext({ userAgent: BROWSER_UA, bypassCSP: true })
      const { page } = await openPage(axeContext, width)
      await page.goto(`${t.url}/jane.doe`)
      await page.addScriptTag({ path: AXE })
      const violations = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
        return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3) }))
      })
      const serious = violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      assert.deepEqual(serious, [])
      await axeContext.close()
    })
  }

  it('reads the whole page with script disabled', async () => {
    const noScript = await browser.newContext({ userAgent: BROWSER_UA, javaScriptEnabled: false })
    const { page } = await openPage(noScript, 375)
    await page.goto(`${t.url}/jane.doe`)
    const text = await page.textContent('main')
    for (const s of ['Jane Demo', 'Book a session', 'Recent work', 'About', 'Showreel', 'Do you travel?', 'Blue Hours', 'Spring exhibition', 'Write to me']) {
      assert.ok(text?.includes(s), s)
    }
    assert.equal(await page.$$eval('.slot-youtube-frame > a[href^="/-/go/"] img', (els) => els.length), 1)
    await noScript.close()
  })

  it('swaps in the privacy-enhanced YouTube player on a click and counts the click', async () => {
    const before = await clicks()
    const { page, problems } = await openPage(context, 375)
    await page.goto(`${t.url}/jane.doe`)
    await page.click('.slot-youtube-frame > a')
    const src = await page.waitForSelector('.slot-youtube-frame iframe').then((el) => el.getAttribute('src'))
    assert.equal(src, 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1')
    assert.equal(page.url(), `${t.url}/jane.doe`)
    assert.deepEqual(problems, [])
    // The swap fetched the redirect without following it; give the request time to land.
    let after = before
    for (let i = 0; i < 250 && after === before; i++) {
      await page.waitForTimeout(20)
      after = await clicks()
    }
    assert.equal(after, before + 1)
    await page.close()
  })

  it('follows a button through the click redirect', async () => {
    const { page } = await openPage(context, 375)
    await page.goto(`${t.url}/jane.doe`)
    const href = await page.getAttribute('a.slot-button >> nth=0', 'href')
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().startsWith('https://example.com/book')), page.click('a.slot-button >> nth=0')])
    assert.equal(request.redirectedFrom()?.url(), `${t.url}${href}`)
    await page.close()
  })

  it(`keeps ${XSS.length} script payloads in every text field inert`, async () => {
    assert.ok(XSS.length >= 30)
    // Escaping must hold on its own: this context ignores the CSP that would also stop them.
    const unsafe = await browser.newContext({ userAgent: BROWSER_UA, bypassCSP: true, javaScriptEnabled: true })
    // A string, not a function: tsx would wrap a function with helpers the page does not have.
    await unsafe.addInitScript(
      "window.__fired = false; Object.defineProperty(window, '__xss', { configurable: false, get() {}, set() { window.__fired = true } })",
    )
    // The trap itself works: markup that does run is caught.
    const control = await openPage(unsafe, 375)
    await control.page.setContent('<img src="x" onerror="window.__xss=1"><a href="javascript:void 0">x</a>')
    await control.page.waitForFunction(() => (window as unknown as { __fired: boolean }).__fired)
    const caught = await evidence(control.page)
    assert.equal(caught.fired, true)
    assert.equal(caught.handlers.length, 1)
    assert.equal(caught.bad.length, 1)
    await control.page.close()

    const { page, problems } = await openPage(unsafe, 375)
    for (const [i, payload] of XSS.entries()) {
      const profile = await makeProfile(t, user, `xss.${i}`)
      await buildDemoPage(t, user, token, profile, payloadTexts(payload))
      await page.goto(`${t.url}/xss.${i}`)
      // Give handlers a chance: open every details, hover, and let timers run.
      await page.$$eval('details', (els) => {
        for (const d of els) (d as HTMLDetailsElement).open = true
      })
      await page.mouse.move(100, 100)
      await page.waitForTimeout(20)
      const found = await evidence(page)
      assert.deepEqual(
        { ...found, problems },
        { fired: false, scripts: 1, dataBlocks: 1, handlers: [], bad: [], embeds: 0, problems: [] },
        `payload ${i}: ${payload}`,
      )
    }
    await unsafe.close()
  })

  async function clicks(): Promise<number> {
    await t.ctx.intake.flush()
    const res = await t.request('GET', `/v1/profiles/${profileId}/analytics?period=today&compare=false`, { token })
    return res.body.data.totals.clicks
  }
})
