import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { chromium, type Browser, type Page } from 'playwright-core'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { CHROMIUM, localContext, seriousAxeFindings } from '../helpers/browser.ts'
import { startProvider, type TestProvider } from '../helpers/oidc-provider.ts'

// The single sign-on button as a person meets it, at a phone's width and a desktop's: the
// sign-in page, the way through a real provider and back, a refusal, linking from Account, and
// the sign-in page with passwords off. Each new view is checked with axe and photographed.
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const BUTTON = 'Sign in with Example ID'
const ENV = {
  OIDC_CLIENT_ID: 'slotline',
  OIDC_CLIENT_SECRET: 'browser-test-client-secret',
  OIDC_BUTTON_TEXT: BUTTON,
  OIDC_ALLOWED_DOMAINS: 'example.test',
  OIDC_AUTO_REGISTER: 'on',
}

function providerAndApp(env: Record<string, string> = {}) {
  const s = {} as { t: TestApp; op: TestProvider; browser: Browser }
  before(async () => {
    s.op = await startProvider({ clientId: 'slotline', clientSecret: ENV.OIDC_CLIENT_SECRET, redirectUri: () => `${s.t.url}/login/sso/callback` })
    s.t = await startApp({ ...ENV, OIDC_ISSUER_URL: s.op.issuer, ...env })
    s.browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await s.browser?.close()
    await s.t?.close()
    await s.op?.close()
  })
  return s
}

async function audit(page: Page, name: string) {
  assert.deepEqual(await seriousAxeFindings(page.locator('html')), [], `${name}: axe`)
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, `${name}: no sideways scrolling`)
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: new URL(`sso-${name}.png`, ARTIFACTS).pathname, fullPage: true })
}

describe(`single sign-on in a real browser (${STORE})`, () => {
  const s = providerAndApp()

  for (const width of [375, 1280]) {
    it(`signs in with the button, refuses another domain, and links from Account (${width} px)`, async () => {
      const context = await localContext(s.browser, { viewport: { width, height: 900 } })
      const page = await context.newPage()
      await page.goto(`${s.t.url}/login`)
      await audit(page, `sign-in-${width}`)

      s.op.person = { sub: `pat-${width}`, email: `pat.${width}@example.test`, email_verified: true, name: 'Pat' }
      await page.getByRole('link', { name: BUTTON }).click()
      await page.waitForURL(`${s.t.url}/my-links`)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${s.t.url}/login`)
      // Signed out here, not at the provider: a fresh browser, so the next person is asked for.
      await context.clearCookies()

      s.op.person = { sub: `quinn-${width}`, email: `quinn.${width}@elsewhere.test`, email_verified: true }
      await page.getByRole('link', { name: BUTTON }).click()
      await page.getByRole('heading', { name: 'You are not signed in' }).waitFor()
      await page.getByText('only for e-mail addresses at example.test').waitFor()
      await audit(page, `refused-${width}`)

      const user = await makeUser(s.t)
      await context.clearCookies()
      await page.getByRole('link', { name: 'Back to sign in' }).click()
      await page.getByLabel('E-mail').fill(user.email)
      await page.getByLabel('Password').fill('correct horse battery')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL(`${s.t.url}/my-links`)
      await page.goto(`${s.t.url}/settings`)
      await page.getByRole('link', { name: 'Single sign-on' }).click()
      await audit(page, `link-${width}`)
      s.op.person = { sub: `rae-${width}`, email: `rae.${width}@example.test`, email_verified: true }
      await page.getByRole('button', { name: 'Link single sign-on' }).click()
      await page.getByText(`Single sign-on is linked (rae.${width}@example.test)`).waitFor()
      await audit(page, `linked-${width}`)
      await context.close()
    })
  }
})

describe(`an account made by single sign-on, in a real browser (${STORE})`, () => {
  const s = providerAndApp()

  for (const width of [375, 1280]) {
    it(`changes its e-mail and deletes itself by signing in again at the provider (${width} px)`, async () => {
      const context = await localContext(s.browser, { viewport: { width, height: 900 } })
      const page = await context.newPage()
      s.op.person = { sub: `uma-${width}`, email: `uma.${width}@example.test`, email_verified: true, name: 'Uma' }
      await page.goto(`${s.t.url}/login`)
      await page.getByRole('link', { name: BUTTON }).click()
      await page.waitForURL(`${s.t.url}/my-links`)

      await page.goto(`${s.t.url}/settings`)
      await audit(page, `account-no-password-${width}`)
      await page.getByLabel('New e-mail').fill(`uma.moved.${width}@example.test`)
      await page.getByRole('button', { name: 'Continue' }).click()
      await page.getByText(`Your e-mail is now uma.moved.${width}@example.test.`).waitFor()

      await page.goto(`${s.t.url}/settings/delete`)
      await audit(page, `delete-no-password-${width}`)
      await page.getByRole('button', { name: 'Sign in again and delete my account' }).click()
      await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor()
      await context.close()
    })
  }
})

describe(`the sign-in page with passwords off, in a real browser (${STORE})`, () => {
  const s = providerAndApp({ PASSWORD_SIGN_IN: 'off' })

  for (const width of [375, 1280]) {
    it(`shows the button alone and signs in with it (${width} px)`, async () => {
      const context = await localContext(s.browser, { viewport: { width, height: 900 } })
      const page = await context.newPage()
      await page.goto(`${s.t.url}/login`)
      assert.equal(await page.getByLabel('Password').count(), 0)
      await audit(page, `only-button-${width}`)
      s.op.person = { sub: `sam-${width}`, email: `sam.${width}@example.test`, email_verified: true }
      await page.getByRole('link', { name: BUTTON }).click()
      await page.waitForURL(`${s.t.url}/my-links`)
      await context.close()
    })
  }
})
