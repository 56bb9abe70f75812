import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { slotService } from '../../src/slots/slot-service.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

// The views of #27 (leads, statistics, first run, account) as a person meets them, at a phone's
// width and a desktop's, each checked with axe. Debian's chromium; only 127.0.0.1 is reachable.
const LAUNCH = {
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
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WIDTHS = [375, 1280] as const
const PASSWORD = 'correct horse battery'

describe(`dashboard views people stay in, in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser

  before(async () => {
    t = await startApp()
    browser = await chromium.launch(LAUNCH)
    mkdirSync(ARTIFACTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  async function newContext(width: number) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, timezoneId: 'UTC', acceptDownloads: true })
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    return context
  }

  async function openPage(context: BrowserContext) {
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    return { page, problems }
  }

  /** No serious or critical axe finding, no sideways scrolling, no script error or CSP refusal. */
  async function audit(page: Page, problems: string[], name: string) {
    await page.evaluate(AXE)
    const serious = await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
      return result.violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => ({ id: v.id, nodes: v.nodes.slice(0, 4).map((n: any) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`) }))
    })
    assert.deepEqual(serious, [], `${name}: axe`)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.equal(overflow, 0, `${name}: no sideways scrolling`)
    assert.deepEqual(problems, [], name)
    await page.screenshot({ path: new URL(`stay-in-${name}.png`, ARTIFACTS).pathname, fullPage: true })
  }

  async function signIn(page: Page, email: string) {
    await page.goto(`${t.url}/login`)
    await page.getByLabel('E-mail').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL(`${t.url}/my-links`)
  }

  async function ownerWithForm() {
    const user = await makeUser(t, { timezone: 'UTC' })
    const profile = await makeProfile(t, user)
    const form = await formsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Contact',
      description: '',
      fields: [
        { name: 'name', label: 'Your name', type: 'text', required: true },
        { name: 'message', label: 'Message', type: 'textarea', required: false },
      ],
      submitLabel: 'Send',
    })
    const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    return { user, profile, form, slot }
  }

  it('leads: a too-fast visitor keeps what they typed and is told to wait; the owner reads, exports and deletes it', async () => {
    const { user, profile, form, slot } = await ownerWithForm()
    for (let i = 0; i < 30; i++) {
      await formSubmissionsRepository.insert(t.ctx.db, {
        formId: form.id,
        profileId: profile.id,
        slotId: slot.id,
        data: { name: `Earlier ${i}`, message: 'hello' },
      })
    }

    // A visitor sends at once (autofill does): the form comes back, answers kept, a plain request to wait.
    const visitorContext = await newContext(375)
    const { page: visitor } = await openPage(visitorContext)
    // What the page script reports as time since load is set here, so the test does not depend
    // on how fast this machine is: first 0.5 s (autofill), then 5 s (a person).
    let elapsed = 500
    await visitor.route('**/-/forms/**', (route) => route.continue({ postData: (route.request().postData() ?? '').replace(/(^|&)_e=\d*/, `$1_e=${elapsed}`) }))
    await visitor.goto(`${t.url}/${profile.login}`)
    await visitor.getByLabel('Your name').fill('=HYPERLINK("http://127.0.0.1:9/","x")')
    await visitor.getByLabel('Message').fill('Call me back, please.')
    await visitor.getByRole('button', { name: 'Send' }).click()
    await visitor.getByRole('alert').waitFor()
    assert.match((await visitor.getByRole('alert').textContent()) ?? '', /Wait a moment, then send the form again; your answers are still here\./)
    assert.equal(await visitor.getByLabel('Message').inputValue(), 'Call me back, please.')
    elapsed = 5000
    await visitor.getByRole('button', { name: 'Send' }).click()
    await visitor.getByText('Thank you').waitFor()
    await visitorContext.close()

    for (const width of WIDTHS) {
      const context = await newContext(width)
      const { page, problems } = await openPage(context)
      await signIn(page, user.email)
      await page.goto(`${t.url}/my-links/${profile.id}`)
      await page.getByRole('link', { name: 'Form submissions' }).click()
      await audit(page, problems, `leads-forms-${width}`)
      await page.getByRole('link', { name: 'Contact' }).click()
      await page.getByRole('heading', { name: 'Contact' }).waitFor()
      // Newest first: the visitor's message heads the list, 25 to a page.
      const firstRow = page.getByRole('row').nth(1)
      assert.match((await firstRow.textContent()) ?? '', /Call me back, please\./)
      assert.equal(await page.getByRole('button', { name: /^Delete the submission/ }).count(), 25)
      await audit(page, problems, `leads-inbox-${width}`)
      await page.getByRole('link', { name: 'Older submissions' }).click()
      assert.equal(await page.getByRole('button', { name: /^Delete the submission/ }).count(), 6)
      await page.getByRole('link', { name: 'Newest' }).click()

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download all as CSV' }).click()])
      const file = readFileSync(await download.path())
      assert.deepEqual([...file.subarray(0, 3)], [0xef, 0xbb, 0xbf])
      assert.match(file.toString('utf8'), /"'=HYPERLINK\(""http:\/\/127\.0\.0\.1:9\/"",""x""\)","Call me back, please\."\r\n/)
      await context.close()
    }

    // Deleting works without script: a plain form post, then the list again with a notice.
    const context = await newContext(375)
    const { page, problems } = await openPage(context)
    await signIn(page, user.email)
    await page.goto(`${t.url}/my-links/${profile.id}/leads/${slot.id}`)
    await page
      .getByRole('button', { name: /^Delete the submission/ })
      .first()
      .click()
    await page.getByText('The submission is deleted.').waitFor()
    assert.doesNotMatch((await page.getByRole('table').textContent()) ?? '', /Call me back/)
    assert.deepEqual(problems, [])
    await context.close()
  })

  it('statistics: figures with the previous period, clicks that add up, the period picker and the daily CSV', async () => {
    const user = await makeUser(t, { timezone: 'UTC' })
    const profile = await makeProfile(t, user)
    await profilesRepository.update(t.ctx.db, profile.id, { socials: [{ link: 'https://github.com/jane', order: 0 }] })
    const [book] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'button', data: { title: 'Book', link: 'https://book.example' } }])
    const intake = t.ctx.intake
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
    const at = new Date(Date.now() - 86_400_000)
    for (let i = 0; i < 8; i++) intake.view({ profileId: profile.id, ip: `10.1.0.${i}`, userAgent: ua, at })
    for (let i = 0; i < 4; i++) intake.click({ profileId: profile.id, ip: `10.1.0.${i}`, userAgent: ua, at, slotId: book.id, socialIndex: null })
    intake.click({ profileId: profile.id, ip: '10.1.0.7', userAgent: ua, at, slotId: null, socialIndex: 0 })
    await intake.flush()

    for (const width of WIDTHS) {
      const context = await newContext(width)
      const { page, problems } = await openPage(context)
      await signIn(page, user.email)
      await page.goto(`${t.url}/my-links/${profile.id}`)
      await page.getByRole('link', { name: 'Statistics' }).click()
      await page.getByRole('heading', { name: /^Statistics of/ }).waitFor()
      await page.getByRole('link', { name: 'Last 7 days' }).click()
      await page.waitForURL(/period=last7/)
      const text = (await page.getByRole('main').textContent()) ?? ''
      assert.match(text, /Views\s*8/)
      assert.match(text, /Clicks\s*5/)
      assert.match(text, /previous period: 0/)
      assert.match(text, /bots, link previews and browser prefetches are not/)
      // 4 on the block and 1 on the social link: the rows add up to the 5 in all.
      assert.match((await page.getByRole('row', { name: /Book/ }).textContent()) ?? '', /Button block\s*4/)
      assert.match((await page.getByRole('row', { name: /github/ }).textContent()) ?? '', /Social link\s*1/)
      assert.match((await page.getByRole('row', { name: /All clicks/ }).textContent()) ?? '', /All clicks\s*5/)
      assert.equal(await page.getByRole('img', { name: 'Views and clicks per day' }).count(), 1)
      await audit(page, problems, `statistics-${width}`)

      await page.getByLabel('A month').selectOption({ index: 1 })
      await page.getByRole('button', { name: 'Show the month' }).click()
      await page.waitForURL(/month=\d{4}-\d{2}/)
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download “Day by day” (CSV)' }).click()])
      const rows = readFileSync(await download.path(), 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n')
      assert.equal(rows[0], 'Day (UTC),Views,Unique visitors,Clicks')
      await context.close()
    }
  })

  it('first run: / says what this is; registration shows every error at once; a wrong password says what to do', async () => {
    const user = await makeUser(t)
    for (const width of WIDTHS) {
      const context = await newContext(width)
      const { page, problems } = await openPage(context)
      await page.goto(`${t.url}/`)
      await page.getByRole('heading', { name: 'Slotline' }).waitFor()
      assert.equal(await page.getByRole('link', { name: 'API reference' }).getAttribute('href'), '/v1/docs')
      assert.match((await page.getByRole('main').textContent()) ?? '', new RegExp(`${t.url}/mcp`.replaceAll('.', '\\.')))
      await audit(page, problems, `welcome-${width}`)

      await page.getByRole('link', { name: 'Create an account' }).click()
      await page.getByRole('button', { name: 'Create the account' }).click()
      await page.getByText('3 fields need attention.').waitFor()
      // Chromium logs the refused form's 422 (and the sign-in's 401 below) as a console error: expected here.
      problems.splice(0, problems.length, ...problems.filter((m) => !/status of 42[2]/.test(m)))
      for (const message of ['Enter a name.', 'Enter your e-mail address.', 'Choose a password of at least 8 characters.']) {
        assert.equal(await page.getByText(message).count(), 1, message)
      }
      await audit(page, problems, `register-errors-${width}`)

      await page.goto(`${t.url}/login`)
      await page.getByLabel('E-mail').fill(user.email)
      await page.getByLabel('Password').fill('not the password')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByRole('alert').waitFor()
      problems.splice(0, problems.length, ...problems.filter((m) => !/status of 401/.test(m)))
      const said = (await page.getByRole('alert').textContent()) ?? ''
      assert.match(said, /Check the e-mail and the password, then try again/)
      assert.doesNotMatch((await page.getByRole('main').textContent()) ?? '', /Nothing was saved/)
      await audit(page, problems, `sign-in-wrong-${width}`)
      await page.getByRole('link', { name: 'Forgot your password?' }).click()
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor()
      await audit(page, problems, `forgot-${width}`)
      await context.close()
    }
  })

  it('account: read-only tokens by default, revoke asks first, export, and delete with the e-mail typed', async () => {
    for (const width of WIDTHS) {
      const user = await makeUser(t)
      await makeProfile(t, user)
      const context = await newContext(width)
      const { page, problems } = await openPage(context)
      await signIn(page, user.email)
      await page.goto(`${t.url}/settings/tokens`)
      assert.equal(await page.getByRole('checkbox', { name: /profile:read/ }).isChecked(), true)
      assert.equal(await page.getByRole('checkbox', { name: /profile:write/ }).isChecked(), false)
      await page.getByLabel('Name').fill('Zapier')
      await page.getByRole('button', { name: 'Issue the token' }).click()
      await page.getByRole('heading', { name: 'Your new token “Zapier”' }).waitFor()
      await page.goto(`${t.url}/settings/tokens`)
      await page.getByLabel('Name').fill('zapier')
      await page.getByRole('button', { name: 'Issue the token' }).click()
      await page.getByText('You already have a token named “zapier”').waitFor()
      problems.splice(0, problems.length, ...problems.filter((m) => !/status of 422/.test(m)))
      await audit(page, problems, `tokens-${width}`)
      await page.getByRole('link', { name: 'Revoke Zapier…' }).click()
      await page.getByRole('heading', { name: 'Revoke “Zapier”?' }).waitFor()
      await audit(page, problems, `revoke-confirm-${width}`)
      await page.getByRole('link', { name: 'Keep it' }).click()
      await page.getByRole('link', { name: 'Revoke Zapier…' }).waitFor()

      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Account' }).click()
      await audit(page, problems, `account-${width}`)
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export my data' }).click()])
      assert.match(download.suggestedFilename(), /^slotline-export-.*\.zip$/)
      assert.deepEqual([...readFileSync(await download.path()).subarray(0, 2)], [0x50, 0x4b])

      // A new e-mail needs the current password; the refusal is told beside the field.
      await page.getByLabel('New e-mail').fill(`new.${user.email}`)
      await page.locator('#f-emailCurrentPassword').fill('not the password')
      await page.getByRole('button', { name: 'Change the e-mail' }).click()
      await page.getByText('This is not your current password.').first().waitFor()
      problems.splice(0, problems.length, ...problems.filter((m) => !/status of 422/.test(m)))
      await audit(page, problems, `account-email-refused-${width}`)

      await page.getByRole('link', { name: 'Delete my account…' }).click()
      await page.getByLabel(/Your current password/).fill('not the password')
      await page.getByRole('button', { name: 'Delete my account forever' }).click()
      await page.getByText('This is not your current password.').first().waitFor()
      problems.splice(0, problems.length, ...problems.filter((m) => !/status of 422/.test(m)))
      await audit(page, problems, `delete-account-${width}`)
      await page.getByLabel(/Your current password/).fill(PASSWORD)
      await page.getByRole('button', { name: 'Delete my account forever' }).click()
      await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor()
      await audit(page, problems, `account-deleted-${width}`)
      await page.goto(`${t.url}/settings`)
      assert.equal(new URL(page.url()).pathname, '/login')
      await context.close()
    }
  })
})
