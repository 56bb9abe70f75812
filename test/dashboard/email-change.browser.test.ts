import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { CHROMIUM, localContext, seriousAxeFindings, signedInPage } from '../helpers/browser.ts'
import { freshEmail } from '../helpers/dashboard.ts'
import { startSmtpSink } from '../helpers/smtp-sink.ts'

const PASSWORD = 'correct horse battery'
const linkIn = (raw: string) =>
  /http:\/\/127\.0\.0\.1:\d+\/settings\/email\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[0]

describe(`changing the e-mail in a browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  before(async () => {
    sink = await startSmtpSink()
    t = await startApp({ SMTP_URL: sink.url, MAIL_FROM: 'Slotline <no-reply@127.0.0.1>' })
    browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    await sink?.close()
  })

  const signedIn = (context: BrowserContext, email: string) => signedInPage(context, t.url, email, PASSWORD)

  it('works without script (plain form posts), passes axe with script, and signs the other browser out', async () => {
    const user = await makeUser(t)
    // The owner's phone, without script; axe runs in the other browser, where script runs.
    const noScript = await localContext(browser, { javaScriptEnabled: false, viewport: { width: 360, height: 780 } })
    const other = await localContext(browser, { viewport: { width: 360, height: 780 } })
    const page = await signedIn(noScript, user.email)
    const watcher = await signedIn(other, user.email)

    await page.goto(`${t.url}/settings`)
    const newEmail = freshEmail()
    await page.getByLabel('New e-mail').fill(newEmail)
    await page.locator('#f-emailCurrentPassword').fill(PASSWORD)
    const before = sink.messages.length
    await page.getByRole('button', { name: 'Send the confirmation link' }).click()
    await page.getByText(`We mailed a link to ${newEmail}.`).waitFor()

    await watcher.goto(`${t.url}/settings`)
    await watcher.getByText(`Waiting for you to open the link we mailed to ${newEmail}.`).waitFor()
    assert.deepEqual(await seriousAxeFindings(watcher.locator('body')), [])

    // A mail that never comes fails the test rather than holding it.
    const mail = await Promise.race([
      sink.waitFor(before + 1),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no mail')), 15_000).unref()),
    ])
    const link = linkIn(mail.raw)
    assert.ok(link)
    // Showing the page uses nothing up.
    await watcher.goto(link)
    await watcher.getByRole('heading', { name: 'Confirm your new e-mail' }).waitFor()
    assert.deepEqual(await seriousAxeFindings(watcher.locator('body')), [])

    await page.goto(link)
    await page.getByRole('button', { name: `Use ${newEmail}` }).click()
    await page.getByText(`Your e-mail is now ${newEmail}.`).waitFor()
    assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, newEmail)

    await watcher.goto(`${t.url}/settings`)
    assert.equal(new URL(watcher.url()).pathname, '/login', 'the other browser is signed out')
    await noScript.close()
    await other.close()
  })
})
