import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE } from '../helpers/app.ts'
import { addPasskeyByPassword, appAndBrowser, loopbackContext, virtualAuthenticator, auditView } from '../helpers/browser.ts'
import { codeFor, turnOnCodes } from '../helpers/two-factor.ts'

// An account without a password, as a person meets it in Chromium with its virtual
// authenticator (as passkeys.browser.test.ts): it drops its password, then changes its e-mail
// and deletes itself with its passkey. Each new view is checked with axe and photographed.
const _ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const PASSWORD = 'correct horse battery'

describe(`an account without a password, in a real browser (${STORE})`, () => {
  const s = appAndBrowser()
  let base = ''
  before(() => {
    base = s.t.url.replace('127.0.0.1', 'localhost')
    s.t.ctx.config.publicUrl = base
  })

  const audit = (page: Page, name: string) => auditView(page, `passwordless-${name}`)

  for (const width of [375, 1280]) {
    it(`changes its e-mail and deletes itself with its passkey (${width} px)`, async () => {
      const user = await makeUser(s.t)
      // Two-factor codes first (they give the recovery codes a password-less account needs).
      const { secret } = await turnOnCodes(s.t.ctx, user, PASSWORD)
      const context = await loopbackContext(s.browser, width)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await virtualAuthenticator(page)
      await page.goto(`${base}/login`)
      await page.getByLabel('E-mail').fill(user.email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByLabel('Code', { exact: true }).fill(codeFor(secret, 1))
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL(`${base}/my-links`)
      await addPasskeyByPassword(page, base, PASSWORD)
      await page.getByLabel('Current password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Remove my password' }).click()
      await page.getByText('Your password is removed').waitFor()

      // Another way to sign in now asks for the second step instead of a password.
      await page.goto(`${base}/settings/passkeys`)
      await page.getByLabel('Code', { exact: true }).waitFor()
      assert.equal(await page.getByLabel('Your current password, to confirm').count(), 0)
      assert.equal(await page.getByRole('button', { name: 'Add a passkey' }).count(), 0)
      await audit(page, `passkeys-owner-${width}`)

      await page.goto(`${base}/settings`)
      await audit(page, `settings-${width}`)
      assert.equal(await page.getByLabel('Current password').count(), 0)
      const newEmail = `moved.${width}.${user.email}`
      await page.getByLabel('New e-mail').fill(newEmail)
      await page.getByRole('button', { name: 'Continue' }).click()
      await page.getByRole('heading', { name: 'Confirm it is you', level: 1 }).waitFor()
      await audit(page, `confirm-email-${width}`)
      await page.getByLabel('Code', { exact: true }).fill('000000')
      await page.getByRole('button', { name: 'Confirm the new e-mail' }).click()
      await page.getByText('That code did not work').waitFor()
      await audit(page, `confirm-email-refused-${width}`)
      assert.equal((await usersRepository.findById(s.t.ctx.db, user.id))?.email, user.email)
      await page.getByRole('button', { name: 'Confirm with your passkey' }).click()
      await page.getByText(`Your e-mail is now ${newEmail}.`).waitFor()
      assert.equal((await usersRepository.findById(s.t.ctx.db, user.id))?.email, newEmail)

      await page.goto(`${base}/settings/delete`)
      await audit(page, `delete-${width}`)
      await page.getByRole('button', { name: 'Delete my account forever with your passkey' }).click()
      await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor()
      assert.equal(await usersRepository.findById(s.t.ctx.db, user.id), undefined)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }
})
