import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { demo } from '../src/cli/demo.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { makeAccount, startApp } from '../test/helpers/app.ts'
import { report } from './lib.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
}
const HTML_BUDGET = 30 * 1024
const LCP_BUDGET_MS = 500
const LOADS = 5

/**
 * The `cli demo` page as a visitor gets it: HTML bytes on the wire (what the server sent, with
 * its own compression), image bytes loaded, and Chromium's largest contentful paint on loopback
 * (median of five cold loads, one per theme in turn). Budgets: HTML < 30 KB compressed, LCP < 500 ms.
 */
export async function benchDemoPage(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  const browser = await chromium.launch(LAUNCH)
  try {
    const { user } = await makeAccount(t)
    await demo.run(t.ctx, { email: user.email, login: 'demo.page' })
    const profile = (await profilesRepository.findByLogin(t.ctx.db, 'demo.page'))!
    const url = `${t.url}/demo.page`
    const raw = Buffer.from(await (await fetch(url, { headers: { 'user-agent': BROWSER, 'accept-encoding': 'identity' } })).arrayBuffer())
    const lcps: number[] = []
    let wire = 0
    let images = 0
    for (let i = 0; i < LOADS; i++) {
      await profilesRepository.update(t.ctx.db, profile.id, { themeId: (i % 12) + 1 })
      t.ctx.events.emit('profile-changed', { profileId: profile.id, logins: ['demo.page'] })
      await fetch(url) // fills the page cache: visitors are served from it
      const context = await browser.newContext({ userAgent: BROWSER, viewport: { width: 375, height: 800 } })
      const page = await context.newPage()
      await page.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
      await page.goto(url, { waitUntil: 'load' })
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries()
              resolve(entries[entries.length - 1].startTime)
            }).observe({ type: 'largest-contentful-paint', buffered: true })
          }),
      )
      lcps.push(lcp)
      // Every image, lazy ones included once scrolled to; sizes as transferred (Resource Timing).
      const bytes = await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y)
          await new Promise((r) => setTimeout(r, 20))
        }
        await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))))
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
        const own = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.initiatorType === 'img' && e.name.startsWith(location.origin))
        return { html: nav.encodedBodySize, images: own.reduce((sum, e) => sum + e.encodedBodySize, 0) }
      })
      wire = bytes.html
      images = bytes.images
      await context.close()
    }
    lcps.sort((a, b) => a - b)
    const lcp = lcps[Math.floor(lcps.length / 2)]
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
    report(
      `demo page bytes (${store})`,
      `HTML ${kb(wire)} on the wire ${wire < HTML_BUDGET ? '✓' : '✗'} (< 30 KB)`,
      `raw ${kb(raw.length)}, gzip ${kb(gzipSync(raw).length)}, brotli ${kb(brotliCompressSync(raw).length)}; images ${kb(images)} (all, lazy ones scrolled to)`,
    )
    report(`demo page LCP on loopback (${store})`, `${lcp.toFixed(0)} ms ${lcp < LCP_BUDGET_MS ? '✓' : '✗'} (< 500 ms)`, `median of ${LOADS} cold loads at 375 px: ${lcps.map((v) => v.toFixed(0)).join(', ')} ms`)
    return { wire, images, lcp }
  } finally {
    await browser.close()
    await t.close()
  }
}
