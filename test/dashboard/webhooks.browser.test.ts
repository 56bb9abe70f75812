import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { CHROMIUM, localContext, seriousAxeFindings, signedInPage } from '../helpers/browser.ts'
import { startReceiver } from '../webhooks/receiver.ts'

// issue 45: endpoints in the dashboard: add one (the secret shown once), send a test, see it in
// the list of news sent, send it again, make a new secret (both sign meanwhile), remove it.

const PASSWORD = 'correct horse battery'
const SHOTS = process.env.SCREENSHOT_DIR

describe(`webhooks in the dashboard, in a browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  before(async () => {
    receiver = await startReceiver()
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    await receiver?.close()
  })

  const signedIn = (context: BrowserContext, email: string) => signedInPage(context, t.url, email, PASSWORD)

  for (const width of [375, 1280]) {
    it(`adds, tests, re-sends, re-keys and removes an address at ${width} px, passing axe`, async () => {
      const user = await makeUser(t)
      const context = await localContext(browser, { viewport: { width, height: 900 } })
      const page = await signedIn(context, user.email)
      await page.getByRole('link', { name: 'Webhooks' }).click()
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()

      // Refused without an address, every problem named.
      await page.getByRole('button', { name: 'Add the address' }).click()
      await page.getByText('Give the whole web address', { exact: false }).first().waitFor()
      assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])

      await page.getByRole('textbox', { name: 'Address', exact: true }).fill(receiver.url)
      await page.getByLabel('Name (optional)').fill('Leads to my list')
      await page.getByRole('checkbox', { name: 'A page or its blocks change' }).check()
      await page.getByRole('button', { name: 'Add the address' }).click()
      const secret = (await page.locator('#new-secret').textContent())!.trim()
      assert.match(secret, /^whsec_/)
      assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhooks-${width}.png`, fullPage: true })
      await page.goto(`${t.url}/settings/webhooks`)
      assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is shown once')

      await page.getByRole('link', { name: 'Leads to my list' }).click()
      const seen = receiver.received.length
      await page.getByRole('button', { name: 'Send a test' }).click()
      await page.getByText('A test is on its way.').waitFor()
      const got = await receiver.waitFor(seen + 1)
      assert.equal((new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string }).type, 'webhook.test')
      await t.ctx.webhooks.runOnce()
      await page.reload()
      await page.getByRole('cell', { name: 'Delivered (200)' }).waitFor()
      assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/webhook-${width}.png`, fullPage: true })

      await page.getByRole('button', { name: /^Send again: Test/ }).click()
      await page.getByText('It is being sent again.').waitFor()
      const again = await receiver.waitFor(seen + 2)
      assert.equal(again.headers['webhook-id'], got.headers['webhook-id'], 'sent again under its id')

      await page.getByRole('button', { name: 'Make a new secret' }).click()
      const fresh = (await page.locator('#new-secret').textContent())!.trim()
      assert.notEqual(fresh, secret)
      await page.getByText('The previous secret still works until', { exact: false }).waitFor()
      await t.ctx.webhooks.runOnce()
      await page.getByRole('button', { name: 'Send a test' }).click()
      const rotated = await receiver.waitFor(seen + 3)
      for (const s of [secret, fresh]) new Webhook(s).verify(rotated.body, rotated.headers as Record<string, string>)

      await page.getByRole('link', { name: 'Remove…' }).click()
      assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])
      await page.getByRole('button', { name: 'Remove it' }).click()
      await page.getByText('Removed: nothing more is sent there.').waitFor()
      assert.equal(await page.getByRole('link', { name: 'Leads to my list' }).count(), 0)
      await context.close()
    })
  }
})
