import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium, type Page } from 'playwright-core'
import { kebab, PRIMARY_BUTTON, THEMES } from '../../src/profiles/design-tokens.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA } from './page-fixtures.ts'

// Debian's chromium, never a downloaded browser; only 127.0.0.1 is reachable from the page.
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

/** What the page's stylesheet makes of a button. */
interface Look {
  background: string
  text: string
  border: string
  shadow: string
}

describe(`button styles on the public page in a real browser (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let page: Page
  let profileId: number
  let login: string

  before(async () => {
    t = await startApp()
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    profileId = profile.id
    login = profile.login
    const created = await t.request('POST', `/v1/profiles/${profileId}/slots/batch`, {
      token,
      body: {
        slots: [
          { type: 'button', data: { title: 'Primary', link: 'https://example.com/a' } },
          { type: 'button', data: { title: 'Very red', link: 'https://example.com/b', style: 'very-red' } },
        ],
      },
    })
    assert.equal(created.status, 201, created.text)
    const form = await formsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Say hello',
      description: '',
      fields: [{ name: 'name', label: 'Name', type: 'text', required: true }],
      submitLabel: 'Send',
    })
    const fresh = (await profilesRepository.findById(t.ctx.db, profileId))!
    await slotService.appendManaged(t.ctx.db, fresh, [
      { type: 'form', data: { formId: form.id, view: 'inline', style: 'very-red' } },
      { type: 'form', data: { formId: form.id, view: 'inline' } },
    ])
    browser = await chromium.launch(LAUNCH)
    page = await (await browser.newContext({ userAgent: BROWSER_UA, reducedMotion: 'reduce' })).newPage()
    await page.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  async function show(themeId: number, scheme: 'light' | 'dark') {
    await profilesRepository.update(t.ctx.db, profileId, { themeId })
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`${t.url}/${login}`)
  }

  const look = (selector: string): Promise<Look> =>
    page.$eval(selector, (el) => {
      const s = getComputedStyle(el)
      return { background: s.backgroundColor, text: s.color, border: s.borderTopColor, shadow: s.boxShadow }
    })

  /** A theme token as a computed colour, the way the browser writes one. */
  const token = (name: string): Promise<string> =>
    page.evaluate((value) => {
      const probe = document.body.appendChild(document.createElement('i'))
      probe.style.color = value
      const colour = getComputedStyle(probe).color
      probe.remove()
      return colour
    }, `var(--${name})`)

  for (const theme of THEMES) {
    it(`theme ${theme.id} ${theme.name}: primary buttons take the theme's ${theme.buttonFill} fill, light and dark`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        await show(theme.id, scheme)
        const [button, submit] = await Promise.all([look('.slot-button.style-primary'), look('.slot-form-submit.style-primary')])
        // The form's submit button is a primary button like any other.
        assert.deepEqual(submit, button, scheme)
        // The colours come from the tokens' table of fills, the one the contrast test checks.
        const fill = PRIMARY_BUTTON[theme.buttonFill]
        const colour = (key: string | null) => (key ? token(kebab(key)) : 'rgba(0, 0, 0, 0)')
        assert.equal(button.background, await colour(fill.bg), scheme)
        assert.equal(button.text, await colour(fill.fg), scheme)
        assert.equal(button.border, await colour(fill.edge), scheme)
        if (theme.buttonFill === 'hard') {
          const text = await token('text')
          assert.equal(button.border, text, scheme)
          assert.equal(button.shadow, `${text} 4px 4px 0px 0px`, scheme)
        }
      }
    })
  }

  it("dresses a form's submit button in the form's style, as a button slot of that style", async () => {
    for (const theme of THEMES) {
      await show(theme.id, 'light')
      const [button, submit] = await Promise.all([look('.slot-button.style-very-red'), look('.slot-form-submit.style-very-red')])
      assert.deepEqual(submit, button, `theme ${theme.id}`)
      assert.equal(submit.background, 'rgb(200, 35, 27)', `theme ${theme.id}`)
    }
  })
})
