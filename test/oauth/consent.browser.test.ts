import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import * as oauth from 'oauth4webapi'
import { type Browser, chromium } from 'playwright-core'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail } from '../helpers/dashboard.ts'
import { discover, insecure, register, loopbackCallback } from './helpers.ts'

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
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

describe(`OAuth consent in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let callbackServer: Server
  let redirectUri: string
  const received: URL[] = []

  before(async () => {
    t = await startApp()
    browser = await chromium.launch(LAUNCH)
    ;({ server: callbackServer, redirectUri } = await loopbackCallback(received))
  })
  after(async () => {
    await browser?.close()
    callbackServer?.close()
    await t?.close()
  })

  it('registers, signs in, approves in the browser, calls the API, and stops working once disconnected', async () => {
    const as = await discover(t)
    const client = await register(as, { redirect_uris: [redirectUri], client_name: 'Agent <b>Smith</b>' })
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const authorize = new URL(String(as.authorization_endpoint))
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      scope: 'profile:read profile:write',
      resource: `${t.url}/v1`,
    })) {
      authorize.searchParams.set(k, v)
    }

    const context = await browser.newContext()
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    const page = await context.newPage()
    // Signed out: the authorization request sends the person to sign in (here: register) and back.
    await page.goto(authorize.href)
    assert.equal(new URL(page.url()).pathname, '/login')
    const next = new URL(page.url()).searchParams.get('next')
    await page.goto(`${t.url}/register?next=${encodeURIComponent(String(next))}`)
    await page.fill('input[name=name]', 'Ada')
    const email = freshEmail()
    await page.fill('input[name=email]', email)
    await page.fill('input[name=password]', 'correct horse battery')
    await page.click('button[type=submit]')
    await page.waitForLoadState()
    if (new URL(page.url()).pathname !== '/oauth/authorize') await page.goto(authorize.href)

    // The consent page: the app's name as text, its redirect host, what each scope does.
    const heading = await page.textContent('h1')
    assert.match(String(heading), /Agent <b>Smith<\/b>/)
    const body = String(await page.textContent('main'))
    assert.match(body, new RegExp(new URL(redirectUri).host.replace('.', '\\.')))
    assert.match(body, /see your pages/)
    assert.match(body, /create, change, reorder and delete blocks/)
    await page.evaluate(AXE)
    const serious = await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
      return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => v.id)
    })
    assert.deepEqual(serious, [])

    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.click('button[value=approve]')])
    const callback = received.at(-1)
    assert.ok(callback, 'the browser came back to the application')
    const params = oauth.validateAuthResponse(as, client, callback, state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure),
    )
    const me = await t.request('GET', '/v1/me', { token: tokens.access_token })
    assert.equal(me.status, 200)
    assert.equal(me.body.data.canWrite, true)

    // Signed out, the same request again: sign in, and the remembered consent sends the browser
    // straight on to the application (the sign-in form's CSP admits that redirect chain).
    await page.goto(`${t.url}/settings`)
    await Promise.all([page.waitForLoadState(), page.click('nav button:has-text("Sign out")')])
    await page.goto(authorize.href)
    assert.equal(new URL(page.url()).pathname, '/login')
    await page.fill('input[name=email]', email)
    await page.fill('input[name=password]', 'correct horse battery')
    const before = received.length
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.click('form[action="/login"] button[type=submit]')])
    assert.equal(received.length, before + 1)
    assert.ok(received.at(-1)?.searchParams.get('code'), 'back with a new code, without the consent page')

    // Disconnect in the dashboard, in the same browser: the next API call fails.
    await page.goto(`${t.url}/settings/apps`)
    assert.match(String(await page.textContent('main')), /Agent <b>Smith<\/b>/)
    await Promise.all([page.waitForLoadState(), page.click('button:has-text("Disconnect")')])
    assert.equal((await t.request('GET', '/v1/me', { token: tokens.access_token })).status, 401)
    await context.close()
  })
})
