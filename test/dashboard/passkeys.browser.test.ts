import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeUser, STORE } from '../helpers/app.ts'
import { appAndBrowser, auditView, confirmOwnerByPassword, loopbackContext, virtualAuthenticator } from '../helpers/browser.ts'

// Passkeys as a person meets them, through Chromium's virtual authenticator (DevTools protocol):
// added, renamed, used alone and as the second step, removed; then the attacks a stolen answer
// or a reused challenge would try. WebAuthn refuses IP addresses, so the service is reached as
// localhost and its PUBLIC_URL says so.
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const PASSWORD = 'correct horse battery'

describe(`passkeys in a real browser (${STORE})`, () => {
  const s = appAndBrowser()
  let base = ''
  before(() => {
    base = s.t.url.replace('127.0.0.1', 'localhost')
    s.t.ctx.config.publicUrl = base
  })

  const audit = (page: Page, name: string) => auditView(page, `passkeys-${name}`)

  async function password(page: Page, email: string) {
    await page.goto(`${base}/login`)
    await page.getByLabel('E-mail').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${base}/login`)
  }

  /** Opens the passkeys page and confirms it is the owner with the password. */
  async function confirmWithPassword(page: Page) {
    await page.goto(`${base}/settings/passkeys`)
    await page.getByLabel('Your current password, to confirm').fill(PASSWORD)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByText('It is you: go on within ten minutes.').waitFor()
  }

  const passkeyRows = (userId: number) => s.t.ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute()

  it('adds no passkey once the confirmation is gone: neither its challenge nor its answer is taken', async () => {
    const user = await makeUser(s.t)
    const context = await loopbackContext(s.browser, 1280)
    const page = await context.newPage()
    const { cdp, authenticatorId } = await virtualAuthenticator(page)
    await password(page, user.email)
    const forget = () => s.t.ctx.db.deleteFrom('passkey_challenges').where('purpose', '=', 'owner-confirmed').execute()

    // Confirmed, then the confirmation is gone before the challenge is asked for.
    await confirmWithPassword(page)
    await forget()
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Confirm it is you first').waitFor()
    // Confirmed, and gone between the device's answer and its arrival.
    await confirmWithPassword(page)
    await page.route(`${base}/settings/passkeys/add`, async (route) => {
      await forget()
      await route.continue()
    })
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Confirm it is you first').waitFor()
    assert.deepEqual(await passkeyRows(user.id), [])
    // The device made one, which the service never kept: it cannot sign in.
    assert.equal((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length, 1)
    await page.unroute(`${base}/settings/passkeys/add`)

    // Confirmed again: added, and the confirmation is spent by it.
    await confirmWithPassword(page)
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Passkey added.').waitFor()
    assert.equal((await passkeyRows(user.id)).length, 1)
    assert.equal(await page.getByRole('button', { name: 'Add a passkey' }).count(), 0)
    await context.close()
  })

  for (const width of [375, 1280]) {
    it(`adds a passkey, signs in with it alone and as the second step, removes it (${width} px)`, async () => {
      const user = await makeUser(s.t)
      const context = await loopbackContext(s.browser, width)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      const { cdp, authenticatorId } = await virtualAuthenticator(page)
      await password(page, user.email)
      await page.waitForURL(`${base}/my-links`)

      // Another browser signed in by password: adding a passkey signs it out.
      const other = await loopbackContext(s.browser, width)
      const otherPage = await other.newPage()
      await password(otherPage, user.email)
      await otherPage.waitForURL(`${base}/my-links`)

      await page.goto(`${base}/settings`)
      await page.getByRole('link', { name: 'Passkeys' }).click()
      await page.getByRole('heading', { name: 'Passkeys', level: 1 }).waitFor()
      await audit(page, `none-${width}`)
      // A session alone adds nothing: the password comes first.
      assert.equal(await page.getByRole('button', { name: 'Add a passkey' }).count(), 0)
      await confirmOwnerByPassword(page, PASSWORD, (name) => audit(page, `${name}-${width}`))
      await page.getByLabel('Name of this passkey').fill('Test laptop')
      await page.getByRole('button', { name: 'Add a passkey' }).click()
      await page.getByText('Passkey added. Other browsers signed in to your account were signed out.').waitFor()
      await audit(page, `added-${width}`)
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
      assert.equal(credentials.length, 1)
      assert.equal(credentials[0].isResidentCredential, true, 'a discoverable passkey')
      await otherPage.goto(`${base}/my-links`)
      assert.equal(new URL(otherPage.url()).pathname, '/login', 'the other browser was signed out')
      await other.close()

      await page.getByLabel('New name for Test laptop').fill('Laptop')
      await page.getByRole('button', { name: 'Rename Test laptop' }).click()
      await page.getByText('Passkey renamed.').waitFor()
      assert.equal(await page.getByRole('cell', { name: 'Laptop', exact: true }).count(), 1)
      await signOut(page)

      // A passkey alone: no e-mail, no password.
      await audit(page, `sign-in-${width}`)
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
      await page.waitForURL(`${base}/my-links`)
      await page.goto(`${base}/settings/passkeys`)
      assert.doesNotMatch((await page.getByRole('table').textContent()) ?? '', /Never/, 'last used is filled in')
      await signOut(page)

      // The password, then the passkey as the second step.
      await password(page, user.email)
      await page.waitForURL(`${base}/login/code`)
      await audit(page, `second-step-${width}`)
      await page.getByRole('button', { name: 'Sign in with your passkey' }).click()
      await page.waitForURL(`${base}/my-links`)

      await page.goto(`${base}/settings/passkeys`)
      await page.getByRole('button', { name: 'Remove Laptop' }).click()
      await page.getByText('Passkey removed. Other browsers signed in to your account were signed out.').waitFor()
      await audit(page, `removed-${width}`)
      await signOut(page)
      await password(page, user.email)
      await page.waitForURL(`${base}/my-links`)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  it('refuses a replayed answer and a challenge used twice', async () => {
    const user = await makeUser(s.t)
    const context = await loopbackContext(s.browser, 1280)
    const page = await context.newPage()
    await virtualAuthenticator(page)
    await password(page, user.email)
    await confirmWithPassword(page)
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Passkey added.').waitFor()
    await signOut(page)

    // The answer that signed in once, sent again (as someone who copied it would): refused.
    const posted = page.waitForRequest((r) => r.url() === `${base}/login/passkey` && r.method() === 'POST')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    const body = (await posted).postData() ?? ''
    await page.waitForURL(`${base}/my-links`)
    await signOut(page)
    const replayed = await page.evaluate(async (b) => {
      const res = await fetch('/login/passkey', { method: 'POST', body: b, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      return { url: res.url, text: await res.text() }
    }, body)
    assert.equal(new URL(replayed.url).pathname, '/login')
    assert.match(replayed.text, /This passkey was not accepted/)
    await page.goto(`${base}/my-links`)
    assert.equal(new URL(page.url()).pathname, '/login', 'the replay did not sign in')

    // One challenge, two fresh answers from the device, sent at once: one signs in, the other is
    // refused. They are sent from here with the browser's cookie and read without following the
    // redirect: followed, the refused one's way to /login would meet the other's new session.
    // Plain JavaScript text: the test's compiler would wrap named functions in helpers the page lacks.
    const answers: { csrf: string; first: string; second: string } = await page.evaluate(`(async () => {
      const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
      const bytes = (x) => Uint8Array.from(atob(x.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
      const csrf = document.querySelector('form[action="/login/passkey"] input[name="_csrf"]').value
      const options = await (await fetch('/login/passkey/options', { method: 'POST', body: new URLSearchParams({ _csrf: csrf }) })).json()
      const answer = async () => {
        const c = await navigator.credentials.get({ publicKey: { ...options, challenge: bytes(options.challenge) } })
        const r = c.response
        const response = { clientDataJSON: b64u(r.clientDataJSON), authenticatorData: b64u(r.authenticatorData), signature: b64u(r.signature) }
        return JSON.stringify({ id: c.id, rawId: b64u(c.rawId), type: c.type, response, clientExtensionResults: {} })
      }
      return { csrf, first: await answer(), second: await answer() }
    })()`)
    const cookie = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ')
    const send = async (credential: string) => {
      const res = await fetch(`${base}/login/passkey`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: answers.csrf, credential, next: '/my-links' }),
      })
      return new URL(res.headers.get('location') ?? '', base).pathname
    }
    const outcomes = await Promise.all([send(answers.first), send(answers.second)])
    assert.deepEqual(outcomes.sort(), ['/login', '/my-links'], 'the same challenge does not work twice')
    await context.close()
  })

  it('says passkeys need JavaScript when it is off; the password still works', async () => {
    const user = await makeUser(s.t)
    const context = await loopbackContext(s.browser, 375, false)
    const page = await context.newPage()
    await page.goto(`${base}/login`)
    // The DevTools switch stops scripts but not the parser's scripting flag, so the noscript
    // line is checked in the document rather than on screen.
    assert.match(await page.content(), /<noscript><p class="notice">Passkeys need JavaScript, which is off in this browser\./)
    // axe runs on timers, which stop with scripts: the same page is audited with them on above.
    await page.screenshot({ path: new URL('passkeys-no-script-375.png', ARTIFACTS).pathname, fullPage: true })
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.getByText('Passkeys need JavaScript in this browser.').waitFor()
    await password(page, user.email)
    await page.waitForURL(`${base}/my-links`)
    await context.close()
  })
})
