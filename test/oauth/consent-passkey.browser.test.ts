import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import { loopbackCallback } from './helpers.ts'
import { after, before, describe, it } from 'node:test'
import { makeUser, STORE } from '../helpers/app.ts'
import { addPasskeyByPassword, appAndBrowser, loopbackContext, seriousAxeFindings, virtualAuthenticator } from '../helpers/browser.ts'

// Approving an application from an account whose second factor is a passkey, in Chromium with
// its virtual authenticator (as test/dashboard/passkeys.browser.test.ts does): the consent page
// asks for the passkey, and the approval reaches the application only with it. WebAuthn refuses
// IP addresses, so the service is reached as localhost and its PUBLIC_URL says so.
const PASSWORD = 'correct horse battery'

describe(`OAuth consent with a passkey, in a real browser (${STORE})`, () => {
  const s = appAndBrowser()
  let base = ''
  let callbackServer: Server
  let redirectUri = ''
  const received: URL[] = []
  before(async () => {
    base = s.t.url.replace('127.0.0.1', 'localhost')
    s.t.ctx.config.publicUrl = base
    ;({ server: callbackServer, redirectUri } = await loopbackCallback(received))
  })
  after(() => callbackServer?.close())

  it('asks for the passkey on the consent page and approves with it', async () => {
    const user = await makeUser(s.t)
    const context = await loopbackContext(s.browser, 1280)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const { cdp, authenticatorId } = await virtualAuthenticator(page)
    await page.goto(`${base}/login`)
    await page.getByLabel('E-mail').fill(user.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL(`${base}/my-links`)
    await addPasskeyByPassword(page, base, PASSWORD)

    const registered = await s.t.request('POST', '/oauth/register', {
      body: { redirect_uris: [redirectUri], client_name: 'Passkey agent', token_endpoint_auth_method: 'none' },
    })
    assert.equal(registered.status, 201, registered.text)
    const clientId = registered.body.client_id as string
    const verifier = randomBytes(32).toString('base64url')
    const authorize = new URL('/oauth/authorize', base)
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'passkey-state',
      scope: 'profile:read',
    })) {
      authorize.searchParams.set(k, v)
    }

    await page.goto(authorize.href)
    await page.getByRole('heading', { name: /Allow \W?Passkey agent\W? to use your Slotline account/ }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Approve', exact: true }).count(), 0, 'no approval without the passkey')
    assert.equal(await page.getByRole('button', { name: 'Deny' }).count(), 1)
    assert.deepEqual(await seriousAxeFindings(page.locator('html')), [])
    const before = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.getByRole('button', { name: 'Approve with your passkey' }).click()])
    const after = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount
    assert.ok(after > before, 'the passkey signed the approval')
    const callback = received.at(-1)
    assert.equal(callback?.searchParams.get('state'), 'passkey-state')
    const code = callback?.searchParams.get('code')
    assert.ok(code, 'back at the application with a code')

    const token = await fetch(`${s.t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
    })
    const tokens = (await token.json()) as { access_token?: string }
    assert.equal(token.status, 200, JSON.stringify(tokens))
    assert.equal((await s.t.request('GET', '/v1/me', { token: tokens.access_token })).status, 200)
    assert.deepEqual(errors, [])
    await context.close()
  })
})
