import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { STORE } from '../helpers/app.ts'
import { appAndBrowser, localContext, seriousAxeFindings } from '../helpers/browser.ts'

const ARTIFACTS = new URL('../../test-artifacts/api-reference/', import.meta.url)
/** What the first load of /v1/docs may transfer, compressed: the document and all it loads. */
const FIRST_LOAD_BUDGET = 300 * 1024

/** Presses Tab until `isTarget` holds for the focused element, at most `limit` times; how many it took, or -1. */
async function tabUntil(page: Page, isTarget: () => Promise<boolean>, limit: number): Promise<number> {
  for (let i = 1; i <= limit; i++) {
    await page.keyboard.press('Tab')
    if (await isTarget()) return i
  }
  return -1
}

describe(`/v1/docs in a real browser (${STORE})`, () => {
  const started = appAndBrowser()

  for (const width of [375, 1280]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`has no serious or critical axe findings at ${width} px, ${colorScheme}, and no policy violation`, async () => {
        const context = await localContext(started.browser, { viewport: { width, height: 900 }, colorScheme })
        try {
          const page = await context.newPage()
          const problems: string[] = []
          page.on('console', (m) => {
            if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text())
          })
          page.on('pageerror', (e) => problems.push(e.message))
          await page.goto(`${started.t.url}/v1/docs`)
          assert.deepEqual(await seriousAxeFindings(page.locator('html')), [])
          assert.deepEqual(problems, [])
          mkdirSync(ARTIFACTS, { recursive: true })
          await page.screenshot({ path: new URL(`docs-${width}-${colorScheme}.png`, ARTIFACTS).pathname })
        } finally {
          await context.close()
        }
      })
    }
  }

  it('reaches an operation and its examples with the keyboard alone', async () => {
    const context = await localContext(started.browser, { viewport: { width: 1280, height: 900 } })
    try {
      const page = await context.newPage()
      await page.goto(`${started.t.url}/v1/docs`)
      const contents = page.getByRole('navigation', { name: 'Contents' })
      const link = contents.getByRole('link', { name: 'GET Read a profile', exact: true })
      const focused = (locator: ReturnType<Page['locator']>) => () =>
        locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))
      assert.ok((await tabUntil(page, focused(link), 80)) > 0, 'the contents link to the operation is reachable with Tab')
      await page.keyboard.press('Enter')
      assert.equal(new URL(page.url()).hash, '#op-getProfile')
      const operation = page.getByRole('article', { name: 'GET Read a profile', exact: true })
      assert.ok(await operation.isVisible())
      const typescript = operation.getByRole('figure', { name: 'TypeScript', exact: true })
      assert.ok((await tabUntil(page, focused(typescript), 20)) > 0, 'Tab from the operation reaches its TypeScript example')
      assert.match(await typescript.innerText(), /client\.GET\('\/profiles\/\{profileKey\}'/)
      await page.keyboard.press('Shift+Tab')
      assert.ok(await focused(operation.getByRole('figure', { name: 'curl', exact: true }))(), 'Shift+Tab goes back to the curl example')
      for (const name of ['TypeScript', 'Python', 'Answer (200)']) {
        await page.keyboard.press('Tab')
        assert.ok(await focused(operation.getByRole('figure', { name, exact: true }))(), `Tab goes on to ${name}`)
      }
      await page.screenshot({ path: new URL('docs-keyboard-1280.png', ARTIFACTS).pathname })
    } finally {
      await context.close()
    }
  })

  it('loads in at most 300 KB compressed, all of it from this origin', async () => {
    const context = await localContext(started.browser, { viewport: { width: 375, height: 800 } })
    try {
      const page = await context.newPage()
      const requests: Array<Promise<{ url: string; bytes: number }>> = []
      page.on('requestfinished', (request) => {
        requests.push(request.sizes().then((sizes) => ({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize })))
      })
      await page.goto(`${started.t.url}/v1/docs`, { waitUntil: 'load' })
      const loaded = await Promise.all(requests)
      assert.ok(loaded.length >= 1)
      for (const { url } of loaded) assert.equal(new URL(url).origin, started.t.url, url)
      const total = loaded.reduce((sum, r) => sum + r.bytes, 0)
      assert.ok(total <= FIRST_LOAD_BUDGET, `first load: ${total} bytes`)
      console.log(`# first load of /v1/docs: ${loaded.length} request(s), ${total} bytes`)
    } finally {
      await context.close()
    }
  })

  it('keeps the error anchors that error documentation links point at', async () => {
    const context = await localContext(started.browser, { viewport: { width: 375, height: 800 } })
    try {
      const page = await context.newPage()
      const res = await fetch(`${started.t.url}/v1/me`)
      const { documentation } = (await res.json()) as { documentation: string }
      assert.equal(documentation, `${started.t.url}/v1/docs#error-unauthenticated`)
      await page.goto(documentation)
      const row = page.getByRole('row', { name: /unauthenticated 401/ })
      assert.ok(await row.isVisible())
      assert.ok(await row.evaluate((el) => el.matches(':target')))
    } finally {
      await context.close()
    }
  })
})
