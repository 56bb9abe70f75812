import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { after, before } from 'node:test'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core'
import { startApp, type TestApp } from './app.ts'

/** Debian's chromium, never a downloaded browser, with nothing of its own calling out. */
export const CHROMIUM = {
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

// Evaluated rather than added as a script tag, so the page's own CSP stays in force.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** An app and a browser for one describe block: started before its tests, closed after them. */
export function appAndBrowser(env: Record<string, string> = {}): { t: TestApp; browser: Browser } {
  const started = {} as { t: TestApp; browser: Browser }
  before(async () => {
    started.t = await startApp(env)
    started.browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await started.browser?.close()
    await started.t?.close()
  })
  return started
}

/** A browser context whose pages reach 127.0.0.1 only: any other request is aborted. */
export async function localContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
  return context
}

/** axe's serious and critical findings inside one part of a page (at most four places each). */
export async function seriousAxeFindings(part: Locator): Promise<Array<{ id: string; nodes: string[] }>> {
  // axe is half a megabyte of script: parsed once per document, not once per audit.
  if (!(await part.page().evaluate(() => 'axe' in window))) await part.page().evaluate(AXE)
  return part.evaluate(async (element) => {
    const result = await (window as any).axe.run(element, { resultTypes: ['violations'] })
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => ({ id: v.id, nodes: v.nodes.slice(0, 4).map((n: any) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`) }))
  })
}

/** A new tab of `context` signed in through the sign-in form, as a person does it. */
export async function signedInPage(context: BrowserContext, baseUrl: string, email: string, password: string) {
  const page = await context.newPage()
  await page.goto(`${baseUrl}/login`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
  return page
}

/**
 * A context that reaches our service as localhost (WebAuthn refuses IP addresses; the app's
 * PUBLIC_URL must say localhost too) and nothing else.
 */
export async function loopbackContext(browser: Browser, width: number, javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'UTC', javaScriptEnabled })
  await context.route('**/*', (route) => (['localhost', '127.0.0.1'].includes(new URL(route.request().url()).hostname) ? route.continue() : route.abort()))
  return context
}

/** A virtual platform authenticator that keeps discoverable passkeys and verifies its user. */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

/** Where screenshots go for a person to look at: beside the checkout, wherever the tests run from. */
const SCREENSHOTS = pathToFileURL(`${process.cwd()}/test-artifacts/`)

/** No serious or critical axe finding, no sideways scrolling, and a screenshot `name`.png to look at. */
export async function auditView(page: Page, name: string): Promise<void> {
  assert.deepEqual(await seriousAxeFindings(page.locator('html')), [], `${name}: axe`)
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, `${name}: no sideways scrolling`)
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true })
}

/**
 * Confirms it is the owner by password before a new way to sign in is added: a wrong password is
 * refused first, then the right one holds. `audit` looks at each of the two views.
 */
export async function confirmOwnerByPassword(page: Page, password: string, audit: (name: string) => Promise<void>): Promise<void> {
  await page.getByLabel('Your current password, to confirm').fill('not the password')
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByText('This is not your current password.').first().waitFor()
  await audit('owner-refused')
  await page.getByLabel('Your current password, to confirm').fill(password)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByText('It is you: go on within ten minutes.').waitFor()
  await audit('confirmed')
}

/** Adds a passkey on the passkeys page, the password confirming it is the owner (the page's authenticator answers). */
export async function addPasskeyByPassword(page: Page, base: string, password: string): Promise<void> {
  await page.goto(`${base}/settings/passkeys`)
  await page.getByLabel('Your current password, to confirm').fill(password)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByText('Passkey added.').waitFor()
}
