import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { before, describe, it } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, makeUser, STORE } from '../helpers/app.ts'
import { appAndBrowser, localContext, seriousAxeFindings } from '../helpers/browser.ts'

// The theme picker as a person meets it on a phone and a desktop, light and dark: a grid of
// swatches, the apply button in sight whichever swatch is chosen. Only 127.0.0.1 is reachable.
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url)
const WIDTHS = [375, 1280] as const
const SCHEMES = ['light', 'dark'] as const
const HEIGHT = 800

describe(`dashboard theme picker in a real browser (${STORE})`, () => {
  const run = appAndBrowser()
  before(() => mkdirSync(ARTIFACTS, { recursive: true }))

  const newContext = (width: number, colorScheme: 'light' | 'dark', javaScriptEnabled = true) =>
    localContext(run.browser, { viewport: { width, height: HEIGHT }, colorScheme, javaScriptEnabled })

  /** A signed-in owner on the dashboard view of their page, which holds the picker. */
  async function openPicker(context: BrowserContext) {
    const user = await makeUser(run.t)
    const profile = await makeProfile(run.t, user)
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`)
    })
    await page.goto(`${run.t.url}/login`)
    await page.getByLabel('E-mail').fill(user.email)
    await page.getByLabel('Password').fill('correct horse battery')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL(`${run.t.url}/my-links`)
    await page.goto(`${run.t.url}/my-links/${profile.id}`)
    return { page, profile, problems }
  }

  const apply = (page: Page) => page.getByRole('button', { name: 'Use this theme' })
  const swatch = (page: Page, name: string) => page.getByRole('group', { name: 'Theme of the page' }).getByRole('radio', { name, exact: true })

  /** The whole box of the apply button lies inside the viewport. */
  async function inSight(page: Page, what: string) {
    const box = (await apply(page).boundingBox())!
    assert.ok(
      box.y >= 0 && box.y + box.height <= HEIGHT,
      `${what}: the apply button is at ${Math.round(box.y)}..${Math.round(box.y + box.height)} of a ${HEIGHT} px viewport`,
    )
  }

  const axeOnPicker = async (page: Page, name: string) =>
    assert.deepEqual(await seriousAxeFindings(page.getByRole('region', { name: 'Theme' })), [], `${name}: axe`)

  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      it(`${width} px, ${scheme}: a grid of named swatches, the apply button in sight after choosing any, the choice applied to the page`, async () => {
        const name = `theme-picker-${width}-${scheme}`
        const context = await newContext(width, scheme)
        const { page, profile, problems } = await openPicker(context)
        assert.equal(await page.getByRole('group', { name: 'Theme of the page' }).getByRole('radio').count(), THEMES.length)
        assert.equal(await swatch(page, THEMES[0].name).isChecked(), true)

        // Several swatches a row even on a phone: the first three sit side by side.
        const tops = await Promise.all(THEMES.slice(0, 3).map(async (th) => (await swatch(page, th.name).boundingBox())!.y))
        assert.equal(new Set(tops).size, 1, `${name}: the first three swatches share a row (${tops.join(', ')})`)
        await axeOnPicker(page, name)

        // A tap scrolls the swatch into view, the chosen one too (the picker starts below the fold).
        for (const theme of THEMES) {
          await swatch(page, theme.name).click()
          assert.equal(await swatch(page, theme.name).isChecked(), true, theme.name)
          await inSight(page, `${name} after ${theme.name}`)
        }
        await page.getByRole('region', { name: 'Theme' }).screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname })

        // Sunset, the theme whose button once vanished in the dark, applied like any other.
        await swatch(page, 'Sunset').check()
        await apply(page).click()
        await page.getByText('The page now uses the Sunset theme.').waitFor()
        assert.equal(await swatch(page, 'Sunset').isChecked(), true)
        assert.equal((await profilesRepository.findById(run.t.ctx.db, profile.id))!.themeId, 3)
        await axeOnPicker(page, `${name} after applying`)
        assert.deepEqual(problems, [], name)

        await page.goto(`${run.t.url}/${profile.login}`)
        assert.match((await page.getByRole('main').getAttribute('class')) ?? '', /\btheme-3\b/)
        await context.close()
      })
    }
  }

  it('applies a theme without script: the radio and the button are a plain form post', async () => {
    const context = await newContext(375, 'light', false)
    const { page, profile } = await openPicker(context)
    await swatch(page, 'Forest').check()
    await inSight(page, 'no script, after Forest')
    await apply(page).click()
    await page.getByText('The page now uses the Forest theme.').waitFor()
    assert.equal(await swatch(page, 'Forest').isChecked(), true)
    assert.equal((await profilesRepository.findById(run.t.ctx.db, profile.id))!.themeId, 4)
    await context.close()
  })
})
