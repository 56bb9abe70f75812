import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeUser, STORE } from '../helpers/app.ts'
import { appAndBrowser, confirmOwnerByPassword, localContext, seriousAxeFindings } from '../helpers/browser.ts'
import { codeFor } from '../helpers/two-factor.ts'

// Two-factor codes and the list of sessions as a person meets them, at a phone's width and a
// desktop's: enrolment, the recovery codes, the second sign-in step, each checked with axe.
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const PASSWORD = 'correct horse battery'

describe(`two-factor codes in a real browser (${STORE})`, () => {
  const s = appAndBrowser()

  async function audit(page: Page, name: string) {
    assert.deepEqual(await seriousAxeFindings(page.locator('html')), [], `${name}: axe`)
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, `${name}: no sideways scrolling`)
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: new URL(`two-factor-${name}.png`, ARTIFACTS).pathname, fullPage: true })
  }

  async function password(page: Page, email: string) {
    await page.goto(`${s.t.url}/login`)
    await page.getByLabel('E-mail').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${s.t.url}/login`)
  }

  for (const width of [375, 1280]) {
    it(`enrols, signs in with a computed code, and takes a recovery code once (${width} px)`, async () => {
      const user = await makeUser(s.t)
      const context = await localContext(s.browser, { viewport: { width, height: 900 }, timezoneId: 'UTC' })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await password(page, user.email)
      await page.waitForURL(`${s.t.url}/my-links`)

      await page.goto(`${s.t.url}/settings`)
      await page.getByRole('link', { name: 'Two-factor codes' }).click()
      await audit(page, `off-${width}`)
      // A session alone turns nothing on: the password comes first.
      assert.equal(await page.getByRole('button', { name: 'Set up two-factor codes' }).count(), 0)
      await confirmOwnerByPassword(page, PASSWORD, (name) => audit(page, `${name}-${width}`))
      await page.getByRole('button', { name: 'Set up two-factor codes' }).click()
      await page.getByRole('img', { name: 'QR code to add your account to an authenticator app' }).waitFor()
      await audit(page, `scan-${width}`)
      const manual = (await page.getByText('Cannot scan?').textContent()) ?? ''
      const secret = /type: ([A-Z2-7 ]+)$/.exec(manual.trim())?.[1].replace(/ /g, '') ?? ''
      assert.ok(secret.length >= 32, 'the seed is shown for typing by hand')

      await page.getByLabel('Code', { exact: true }).fill('000000')
      await page.getByRole('button', { name: 'Turn on two-factor codes' }).click()
      await page.getByText('This code is not right').waitFor()
      await audit(page, `refused-${width}`)
      await page.getByLabel('Code', { exact: true }).fill(codeFor(secret))
      await page.getByRole('button', { name: 'Turn on two-factor codes' }).click()
      await page.getByRole('heading', { name: 'Your recovery codes', level: 1 }).waitFor()
      await audit(page, `recovery-codes-${width}`)
      const codes = (
        await page
          .getByRole('list')
          .filter({ hasText: /^[a-z0-9-\s]+$/ })
          .getByRole('listitem')
          .allTextContents()
      ).map((c) => c.trim())
      assert.equal(codes.length, 10)
      await page.getByRole('link', { name: 'I have saved them' }).click()
      await audit(page, `on-${width}`)

      await page.goto(`${s.t.url}/settings/sessions`)
      await audit(page, `sessions-${width}`)
      await signOut(page)

      // Password, then a code the test computes as the phone would.
      await password(page, user.email)
      await page.waitForURL(`${s.t.url}/login/code`)
      await audit(page, `second-step-${width}`)
      await page.getByLabel('Code', { exact: true }).fill(codeFor(secret, 1))
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL(`${s.t.url}/my-links`)
      await signOut(page)

      // A recovery code signs in once; the second time it is refused.
      await password(page, user.email)
      await page.getByLabel('Code', { exact: true }).fill(codes[0])
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL(`${s.t.url}/my-links`)
      await signOut(page)
      await password(page, user.email)
      await page.getByLabel('Code', { exact: true }).fill(codes[0])
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByRole('alert').waitFor()
      assert.match((await page.getByRole('alert').textContent()) ?? '', /That code did not work/)
      assert.equal(new URL(page.url()).pathname, '/login/code')
      await audit(page, `second-step-refused-${width}`)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }
})
