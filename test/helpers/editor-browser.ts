import { pathToFileURL } from 'node:url'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { usersRepository } from '../../src/store/users.ts'
import type { TestApp } from './app.ts'
import { CHROMIUM, seriousAxeFindings } from './browser.ts'
import { freshEmail } from './dashboard.ts'

// Debian's chromium, never a downloaded browser (test/helpers/browser.ts).
export const LAUNCH = CHROMIUM
// Beside the checkout, wherever this module runs from (the tests also run compiled, in .test-build/).
export const ARTIFACTS = pathToFileURL(`${process.cwd()}/test-artifacts/`)
const WIDTHS = [375, 1280]

/** A browser context in Lisbon whose requests reach 127.0.0.1 only. */
export async function newContext(browser: Browser, options: { width?: number; locale?: string } = {}) {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, timezoneId: 'Europe/Lisbon', locale: options.locale })
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
  return context
}

/** A page whose script errors and console errors are collected in `problems`. */
export async function openPage(context: BrowserContext) {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('console', (m) => {
    // A refused save is answered 422 by design (the editor with the problems), which Chromium logs.
    // So is a music lookup that finds nothing (404, the lookup's own status, with the form again).
    // So is the video thumbnail in the preview: tests close the thumbnail upstream (TEST_ENV).
    const refusedByDesign = /status of 422/.test(m.text()) || (/status of 404/.test(m.text()) && m.location().url.endsWith('/editor/music'))
    if (m.type() === 'error' && !refusedByDesign && !m.location().url.includes('/-/remote/')) problems.push(`console: ${m.text()} ${m.location().url}`)
  })
  return { page, problems }
}

/**
 * axe at both widths, light and dark: no serious or critical finding; no sideways scrolling.
 * A screenshot at each width, or with `screenshots: 'on-failure'` only of a failing view (they are slow).
 */
export async function audit(page: Page, problems: string[], name: string, options: { screenshots?: 'always' | 'on-failure' } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true })
  const before = page.viewportSize()!
  const shoot = (width: number) => page.screenshot({ path: new URL(`editor-${name}-${width}.png`, ARTIFACTS).pathname, fullPage: true })
  for (const width of WIDTHS) {
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 })
        await page.emulateMedia({ colorScheme: scheme })
        const serious = await seriousAxeFindings(page.locator(':root'))
        assert.deepEqual(serious, [], `${name} at ${width} px, ${scheme}: axe`)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.equal(overflow, 0, `${name} at ${width} px: no sideways scrolling`)
      }
    } catch (err) {
      await shoot(width)
      throw err
    }
    if (options.screenshots !== 'on-failure') await shoot(width)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize(before)
  assert.deepEqual(problems, [], name)
}

/** Signs up in the browser and creates a page; answers the page's login and its owner. */
export async function signUpWithPage(t: TestApp, page: Page) {
  const email = freshEmail()
  await page.goto(`${t.url}/register`)
  await page.getByLabel('Name', { exact: true }).fill('Editor Person')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('a long browser password')
  await page.getByRole('button', { name: 'Create the account' }).click()
  await page.waitForURL(`${t.url}/my-links`)
  const login = `editor_${Date.now().toString(36)}`
  await page.getByLabel(/^Address \(your page/).fill(login)
  await page.getByRole('button', { name: 'Create the page' }).click()
  await page.waitForURL(/\/my-links\/\d+$/)
  await page.getByRole('link', { name: 'Edit the page' }).click()
  await page.waitForURL(/\/editor$/)
  const user = (await usersRepository.findByEmail(t.ctx.db, email))!
  return { login, user }
}

/** The block panel, adding or editing. */
export const panel = (page: Page) => page.getByRole('region', { name: /^(Add a block|Edit block):/ })

/** The block picker "Add block" opens: one button per type, named by the type. */
export const picker = (page: Page) => page.getByRole('region', { name: 'Choose a block' })

/** Opens the add panel for a type, through "Add block" and the type's button in the picker. */
export async function addBlock(page: Page, typeTitle: string) {
  await page.getByRole('button', { name: /^Add (the first )?block$/ }).click()
  await picker(page).getByRole('button', { name: typeTitle, exact: true }).click()
  await panel(page).waitFor()
}

/** Saves the open panel and waits for the editor to say `expect`. */
export async function save(page: Page, expect: RegExp) {
  await panel(page).getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByRole('status').filter({ hasText: expect }).waitFor()
}

/** Drops an image file on a drop zone as a person dragging it from their files would (a DataTransfer holding it). */
export async function dropFile(page: Page, zone: Locator, name: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ([file, b]) => {
      const files = new DataTransfer()
      files.items.add(new File([new Uint8Array(b)], file, { type: 'image/png' }))
      return files
    },
    [name, [...bytes]] as const,
  )
  await zone.dispatchEvent('dragover', { dataTransfer })
  await zone.dispatchEvent('drop', { dataTransfer })
}

/** Waits until the editor's live region says `text`. */
export const announced = (page: Page, text: RegExp) =>
  page.waitForFunction((source) => new RegExp(source).test(document.getElementById('ed-live')?.textContent ?? ''), text.source)

/**
 * Moves focus with Tab (then Shift+Tab) until `target` has it, checking at every stop that the
 * focused control shows a focus indicator (an outline or a ring).
 */
export async function tabTo(page: Page, target: Locator) {
  await target.first().waitFor()
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 250; i++) {
      if (await target.first().evaluate((el) => el === document.activeElement)) return
      await page.keyboard.press(key)
      const shown = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body || el.tagName === 'IFRAME') return true
        // Inside a date field, focus may be on Chromium's own calendar button, which draws its own ring.
        if (el.matches('input[type="datetime-local"]') && !el.matches(':focus')) return true
        const style = getComputedStyle(el)
        return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none'
      })
      if (!shown) {
        const what = await page.evaluate(
          () =>
            `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('type') ?? ''} ${document.activeElement?.getAttribute('name') ?? ''} ${document.activeElement?.textContent?.slice(0, 40)}`,
        )
        assert.fail(`no visible focus on ${what}`)
      }
    }
  }
  assert.fail(`could not reach ${target} with the keyboard`)
}
