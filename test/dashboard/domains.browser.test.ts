import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium } from 'playwright-core'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { CHROMIUM, localContext, seriousAxeFindings, signedInPage } from '../helpers/browser.ts'
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts'

// A page on its owner's own domain, from the dashboard: connect it, read the records to create,
// check them until it works, remove it. At 375 px without JavaScript (plain form posts), at
// 1280 px with it.

const PASSWORD = 'correct horse battery'
const SHOTS = process.env.SCREENSHOT_DIR
const TARGET = 'pages.slotline.test'

describe(`your own domain in the dashboard, in a browser (${STORE})`, () => {
  let t: TestApp
  let dns: TestDnsServer
  let browser: Browser
  before(async () => {
    dns = await startDnsServer()
    t = await startApp({ DOMAINS_DNS_SERVERS: dns.address, DOMAINS_CNAME_TARGET: TARGET })
    browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    await dns?.close()
  })

  // axe runs in the page, so the view without JavaScript is read but not audited: its markup is
  // the same as the audited ones'.
  for (const [width, javaScriptEnabled] of [
    [375, true],
    [1280, true],
    [375, false],
  ] as const) {
    it(`connects, checks and removes a domain at ${width} px${javaScriptEnabled ? '' : ' without JavaScript'}, passing axe`, async () => {
      const user = await makeUser(t)
      const profile = await makeProfile(t, user)
      const name = `shop${width}${javaScriptEnabled ? '' : '-plain'}.example.test`
      const context = await localContext(browser, { viewport: { width, height: 900 }, javaScriptEnabled })
      const page = await signedInPage(context, t.url, user.email, PASSWORD)
      await page.goto(`${t.url}/my-links/${profile.id}`)
      await page.getByRole('link', { name: 'Your own domain' }).click()
      await page.getByRole('heading', { name: 'Your own domain', level: 1 }).waitFor()

      await page.getByRole('textbox', { name: 'Domain' }).fill('not a domain')
      await page.getByRole('button', { name: 'Connect the domain' }).click()
      await page.locator('#f-domain-error').waitFor()
      if (javaScriptEnabled) assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])

      await page.getByRole('textbox', { name: 'Domain' }).fill(name)
      await page.getByRole('button', { name: 'Connect the domain' }).click()
      await page.getByText('Connected. Now create the records below').waitFor()
      await page.getByText('Waiting for its records').waitFor()
      const txtName = `_slotline.${name}`
      await page.getByRole('cell', { name: txtName }).waitFor()
      const txtValue = (await page.getByRole('row').filter({ hasText: txtName }).getByRole('cell').nth(2).textContent())!.trim()
      assert.match(txtValue, /^slotline-verify=[0-9a-f]{32}$/)
      await page.getByRole('row').filter({ hasText: 'CNAME' }).getByRole('cell', { name: TARGET }).waitFor()
      if (javaScriptEnabled) assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/domain-pending-${width}${javaScriptEnabled ? '' : '-plain'}.png`, fullPage: true })

      await page.getByRole('button', { name: 'Check the records now' }).click()
      await page.getByText('Not yet: see what is still missing below.').waitFor()
      await page.getByText(`No TXT record at ${txtName}`, { exact: false }).waitFor()

      dns.zone.set(txtName, { TXT: [txtValue] })
      dns.zone.set(name, { CNAME: TARGET })
      await page.getByRole('button', { name: 'Check the records now' }).click()
      await page.getByText(`Working: your page is shown at https://${name}/.`).waitFor()
      assert.equal(await page.getByRole('cell', { name: txtName }).count(), 0, 'no records to create once it works')
      if (javaScriptEnabled) assert.deepEqual(await seriousAxeFindings(page.locator('body')), [])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/domain-active-${width}${javaScriptEnabled ? '' : '-plain'}.png`, fullPage: true })

      await page.getByRole('link', { name: /^← / }).click()
      await page.getByRole('link', { name: `https://${name}/` }).waitFor()
      await page.getByRole('img', { name: `QR code for https://${name}/` }).waitFor()

      await page.getByRole('link', { name: 'Your own domain' }).click()
      await page.getByRole('button', { name: 'Remove the domain' }).click()
      await page.getByText('Removed: your page is back at its usual address.').waitFor()
      await page.getByRole('button', { name: 'Connect the domain' }).waitFor()
      await context.close()
    })
  }
})
