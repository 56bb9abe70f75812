import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { oauthRepository } from '../../src/store/oauth.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { usersRepository } from '../../src/store/users.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail } from '../helpers/dashboard.ts'

// Debian's chromium, never a downloaded browser; requests to anything but 127.0.0.1 are aborted.
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
// Evaluated through the DevTools protocol, which the dashboard's CSP does not (and need not) cover.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const PHONE = 360

describe(`dashboard journey in a real browser (${STORE})`, () => {
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

  async function newContext(options: { javaScriptEnabled?: boolean } = {}) {
    const context = await browser.newContext({ viewport: { width: PHONE, height: 780 }, timezoneId: 'Europe/Berlin', ...options })
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    return context
  }

  /** A page that records script errors and CSP refusals. */
  async function openPage(context: BrowserContext) {
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    return { page, problems }
  }

  /** On every page: no serious or critical axe finding, no sideways scrolling at 360 px, no CSP refusal. */
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
    assert.equal(overflow, 0, `${name}: no sideways scrolling at ${PHONE} px`)
    assert.deepEqual(problems, [], name)
    await page.screenshot({ path: new URL(`dashboard-${name}.png`, ARTIFACTS).pathname, fullPage: true })
  }

  it('register → create a page → issue a token → /v1/me → revoke → 401 → delete the page → its address is 404', async () => {
    const context = await newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url })
    const { page, problems } = await openPage(context)

    await page.goto(`${t.url}/login`)
    await audit(page, problems, 'login')
    await page.click('text=Create one')
    await page.waitForURL(`${t.url}/register`)
    // The script moved the time zone to the browser's own.
    assert.equal(await page.inputValue('#f-timezone'), 'Europe/Berlin')
    await audit(page, problems, 'register')
    const email = freshEmail()
    await page.fill('#f-name', 'Browser Person')
    await page.fill('#f-email', email)
    await page.fill('#f-password', 'a long browser password')
    await page.click('button:has-text("Create the account")')
    await page.waitForURL(`${t.url}/my-links`)
    assert.equal((await usersRepository.findByEmail(t.ctx.db, email))?.timezone, 'Europe/Berlin')
    await audit(page, problems, 'my-links-empty')

    // The live check answers as the login is typed.
    await page.fill('#f-login', 'settings')
    await page.waitForFunction(() => /reserved/.test(document.getElementById('f-login-status')?.textContent ?? ''))
    const login = `browser_${Date.now().toString(36)}`
    await page.fill('#f-login', login)
    await page.waitForFunction((l) => document.getElementById('f-login-status')?.textContent === `"${l}" is available.`, login)
    await page.click('button:has-text("Create the page")')
    await page.waitForURL(/\/my-links\/\d+$/)
    assert.equal((await fetch(`${t.url}/${login}`)).status, 200)
    assert.ok(await page.$eval('img.qr', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0))
    await audit(page, problems, 'profile')
    await page.goto(`${t.url}/my-links`)
    await audit(page, problems, 'my-links')

    await page.click('nav >> text=API tokens')
    await page.waitForURL(`${t.url}/settings/tokens`)
    await audit(page, problems, 'tokens')
    await page.fill('#f-name', 'journey token')
    await page.click('button:has-text("Issue the token")')
    const token = (await page.textContent('#new-token'))!.trim()
    assert.match(token, /^slp_[0-9A-Za-z]{40}$/)
    await page.click('button:has-text("Copy the token")')
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token)
    await audit(page, problems, 'token-issued')
    assert.equal((await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status, 200)

    await page.goto(`${t.url}/settings/tokens`)
    // Revoking asks first (#27): a page naming the token, then the button that does it.
    await page.getByRole('link', { name: 'Revoke journey token…' }).click()
    await page.getByRole('button', { name: 'Revoke “journey token”' }).click()
    await page.waitForSelector('text=The token is revoked')
    const refused = await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(refused.status, 401)

    await page.click('nav >> text=Connected apps')
    await audit(page, problems, 'apps')
    await page.click('nav >> text=Account')
    await audit(page, problems, 'settings')

    const profile = (await profilesRepository.findByLogin(t.ctx.db, login))!
    await page.goto(`${t.url}/my-links/${profile.id}`)
    await page.fill('#f-confirmLogin', login)
    await page.click('button:has-text("Delete the page forever")')
    await page.waitForURL(`${t.url}/my-links`)
    await page.waitForSelector(`text=The page ${login} is deleted.`)
    assert.equal((await fetch(`${t.url}/${login}`)).status, 404)

    await page.click('button:has-text("Sign out")')
    await page.waitForURL(`${t.url}/login`)
    await page.goto(`${t.url}/settings`)
    assert.equal(new URL(page.url()).pathname, '/login')
    assert.deepEqual(problems, [])
    await context.close()
  })

  it('passes the same audit on a form sent back with errors, the 404 page and a connected app', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context)
    // Chromium reports a page answered with an error status as a failed load; here that status is the point.
    const expectStatus = (status: number) => {
      const at = problems.findIndex((p) => p.startsWith(`console: Failed to load resource: the server responded with a status of ${status} `))
      if (at >= 0) problems.splice(at, 1)
    }
    await page.goto(`${t.url}/register`)
    const email = freshEmail()
    await page.fill('#f-name', 'Audit Person')
    await page.fill('#f-email', email)
    await page.fill('#f-password', 'short')
    await page.click('button:has-text("Create the account")')
    await page.waitForSelector('#f-password-error')
    expectStatus(422)
    await audit(page, problems, 'register-errors')
    await page.fill('#f-password', 'a long browser password')
    await page.click('button:has-text("Create the account")')
    await page.waitForURL(`${t.url}/my-links`)

    const notFound = await page.goto(`${t.url}/settings/nothing-here`)
    assert.equal(notFound?.status(), 404)
    expectStatus(404)
    await audit(page, problems, 'not-found')

    // One application, connected straight in the store: the consent flow has its own browser test.
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const clientId = 'https://agent.example/.well-known/oauth-client-metadata/journey-audit-agent.json'
    await oauthRepository.saveClient(t.ctx.db, {
      clientId,
      name: 'Journey audit agent',
      redirectUris: ['http://127.0.0.1:43210/callback'],
      metadataUrl: clientId,
    })
    await oauthRepository.upsertGrant(t.ctx.db, user.id, clientId, ['profile:read', 'profile:write'])
    await page.goto(`${t.url}/settings/apps`)
    await page.getByRole('button', { name: /^Disconnect Journey audit agent/ }).waitFor()
    await audit(page, problems, 'apps-one-row')
    await context.close()
  })

  it('works with script disabled: register, create a page, issue a token, change the login', async () => {
    const context = await newContext({ javaScriptEnabled: false })
    const { page } = await openPage(context)
    await page.goto(`${t.url}/register`)
    await page.fill('#f-name', 'No Script')
    await page.fill('#f-email', freshEmail())
    await page.fill('#f-password', 'a long browser password')
    await page.selectOption('#f-timezone', 'Asia/Tokyo')
    await page.click('button:has-text("Create the account")')
    await page.waitForURL(`${t.url}/my-links`)
    const login = `noscript_${Date.now().toString(36)}`
    await page.fill('#f-login', login)
    await page.click('button:has-text("Create the page")')
    await page.waitForURL(/\/my-links\/\d+$/)
    const renamed = `${login}_2`
    await page.fill('#f-login', renamed)
    await page.check('input[name="understood"]')
    await page.click('button:has-text("Change the address")')
    await page.waitForSelector('text=The old address no longer works')
    assert.equal((await fetch(`${t.url}/${renamed}`)).status, 200)
    await page.goto(`${t.url}/settings/tokens`)
    await page.fill('#f-name', 'no script token')
    await page.click('button:has-text("Issue the token")')
    assert.match((await page.textContent('#new-token'))!, /slp_/)
    // Without script the copy buttons stay hidden; the token is selectable text.
    assert.equal(await page.isVisible('button:has-text("Copy the token")'), false)
    await context.close()
  })
})
