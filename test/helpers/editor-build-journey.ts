import assert from 'node:assert/strict'
import type { Browser, Locator, Page } from 'playwright-core'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { pageStyle } from '../../src/rendering/theme.ts'
import { solid } from '../media/images.ts'
import { makeToken, type TestApp } from './app.ts'
import { seriousAxeFindings } from './browser.ts'
import { ARTIFACTS, addBlock, announced, audit, newContext, openPage, panel, picker, save, signUpWithPage } from './editor-browser.ts'

// A page built the way a person builds it, with nothing but what the editor shows, found by role
// and name: every block type through the picker, one edited in place, one hidden, one scheduled
// for tomorrow, a theme picked, the preview ahead of every save; then the public page and the API
// tell the same story. One journey per width, each in a file of its own so the two run side by side.

/** Tomorrow at 09:00 in Lisbon (the test browser's and so the account's zone), as a datetime-local value. */
export function tomorrowInLisbon(): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now() + 86_400_000)
  return `${day}T09:00`
}

/** The block whose card summary reads `summary`. */
export const blockCard = (page: Page, summary: string) =>
  page.getByRole('listitem').filter({ has: page.locator('.ed-summary', { hasText: new RegExp(`^${summary}$`) }) })
const block = blockCard
const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement)

/** The whole build at one width, with the mouse. */
export async function buildByPointer(t: TestApp, browser: Browser, width: number) {
  const context = await newContext(browser, { width })
  const { page, problems } = await openPage(context)
  const { login, user } = await signUpWithPage(t, page)
  const frame = page.frameLocator('iframe[title="Preview of your public page"]')
  const narrow = width < 1024
  // On a phone the preview is behind a button; on a wide screen it is always in view.
  const lookAtPreview = async (check: () => Promise<unknown>) => {
    if (narrow) await page.getByRole('button', { name: 'Preview', exact: true }).click()
    await check()
    if (narrow) {
      await page.getByRole('button', { name: 'Close preview' }).click()
      assert.ok(await isFocused(page.getByRole('button', { name: 'Preview', exact: true })), 'closing the preview returns to its button')
    }
  }
  if (!narrow) {
    const box = (await page.getByRole('complementary', { name: 'Preview' }).boundingBox())!
    assert.ok(box.x > 640, `the preview sits beside the editor (x = ${box.x})`)
  }

  // The name: the preview shows it before it is saved, and the public page does not yet.
  await page.getByRole('textbox', { name: 'Display name' }).fill('Mara Lind Ceramics')
  await lookAtPreview(() => frame.getByRole('heading', { name: 'Mara Lind Ceramics' }).waitFor())
  assert.doesNotMatch(await (await fetch(`${t.url}/${login}`)).text(), /Mara Lind Ceramics/)
  await page.getByRole('button', { name: 'Save profile' }).click()
  await announced(page, /Profile saved/)

  // Every type, through the picker.
  await page.getByRole('button', { name: /^Add (the first )?block$/ }).click()
  await picker(page).waitFor()
  assert.equal(await picker(page).getByRole('button').count(), 10)
  if (!narrow) await audit(page, problems, 'picker')
  await picker(page).getByRole('link', { name: 'Cancel' }).click()
  await page.getByRole('button', { name: /^Add (the first )?block$/ }).waitFor()

  await addBlock(page, 'Button')
  await panel(page).getByRole('textbox', { name: 'Title', exact: true }).fill('Shop')
  await panel(page).getByRole('textbox', { name: /^Link/ }).fill('example.com/shop')
  // The new block is in the preview before it is saved.
  await lookAtPreview(() => frame.getByRole('link', { name: /Shop/ }).first().waitFor())
  await save(page, /Button block added/)

  await addBlock(page, 'Picture')
  await panel(page)
    .getByLabel(/^Image/)
    .setInputFiles({ name: 'vase.png', mimeType: 'image/png', buffer: await solid(300, 200, 'png', '#aa6633') })
  await panel(page)
    .getByRole('textbox', { name: /^Alternative text/ })
    .fill('A blue vase')
  await save(page, /Picture block added/)

  await addBlock(page, 'Gallery')
  await panel(page)
    .getByLabel(/^Image/)
    .first()
    .setInputFiles({ name: 'bowl.png', mimeType: 'image/png', buffer: await solid(300, 200, 'png', '#336699') })
  await panel(page)
    .getByRole('textbox', { name: /^Alternative text/ })
    .first()
    .fill('A bowl')
  await save(page, /Gallery block added/)

  await addBlock(page, 'Text')
  // A new block opens at the end of the list, where it will be on the page, its first field focused.
  const items = page.getByRole('list', { name: 'Blocks' }).getByRole('listitem')
  assert.equal(await items.last().getByRole('region', { name: 'Add a block: Text' }).count(), 1)
  assert.ok(await isFocused(panel(page).getByRole('textbox', { name: 'Title', exact: true })), 'the new block’s first field has focus')
  await panel(page).getByRole('textbox', { name: 'Title', exact: true }).fill('About the studio')
  await save(page, /Text block added/)

  await addBlock(page, 'YouTube video')
  await panel(page).getByRole('textbox', { name: /^Link/ }).fill('https://youtu.be/dQw4w9WgXcQ')
  await save(page, /YouTube video block added/)

  await addBlock(page, 'FAQ')
  await panel(page)
    .getByRole('group', { name: 'Item 1' })
    .getByRole('textbox', { name: /^Title/ })
    .fill('Do you ship?')
  await panel(page).getByRole('group', { name: 'Item 1' }).getByRole('textbox', { name: /^Text/ }).fill('Within Europe.')
  await panel(page)
    .getByRole('group', { name: 'Item 2' })
    .getByRole('textbox', { name: /^Title/ })
    .fill('Commissions?')
  await panel(page).getByRole('group', { name: 'Item 2' }).getByRole('textbox', { name: /^Text/ }).fill('Ask me.')
  await save(page, /FAQ block added/)

  await addBlock(page, 'Divider')
  await save(page, /Divider block added/)

  await addBlock(page, 'Event')
  await panel(page)
    .getByRole('textbox', { name: /^Event name/ })
    .fill('Kiln opening')
  await panel(page)
    .getByLabel(/^Starts/)
    .fill('2027-05-01T19:30')
  await save(page, /Event block added/)

  await addBlock(page, 'Music release')
  await panel(page).getByRole('textbox', { name: 'Album', exact: true }).fill('Clay Songs')
  await panel(page).getByRole('textbox', { name: 'Artist', exact: true }).fill('Mara')
  await panel(page)
    .getByRole('group', { name: /1$/ })
    .getByRole('textbox', { name: /^Link/ })
    .first()
    .fill('https://open.spotify.com/album/4m2880jivSbbyEGAKfITCa')
  await save(page, /Music release block added/)

  await addBlock(page, 'Form')
  await panel(page)
    .getByRole('textbox', { name: /^Form title/ })
    .fill('Write to me')
  await save(page, /Form block added/)

  // Edited in place: the panel opens inside the block's own row; the preview has the new title before Save.
  await block(page, 'Shop').getByRole('link', { name: /^Edit/ }).click()
  await block(page, 'Shop').getByRole('region', { name: 'Edit block: Button' }).waitFor()
  await panel(page).getByRole('textbox', { name: 'Title', exact: true }).fill('Shop online')
  await lookAtPreview(() => frame.getByRole('link', { name: /Shop online/ }).waitFor())
  await save(page, /Button block saved/)

  // Hidden: the switch on its card; the card says so.
  await block(page, 'About the studio')
    .getByRole('switch', { name: /^Show on page/ })
    .click()
  await announced(page, /Block hidden/)
  assert.equal(
    await block(page, 'About the studio')
      .getByRole('switch', { name: /^Show on page/ })
      .getAttribute('aria-checked'),
    'false',
  )
  await block(page, 'About the studio').getByText('Hidden', { exact: true }).waitFor()

  // Scheduled for tomorrow, in the owner's time zone.
  await block(page, 'Kiln opening')
    .getByRole('link', { name: /^Schedule/ })
    .click()
  const from = block(page, 'Kiln opening').getByLabel('Show from')
  await from.waitFor()
  if (!narrow) await audit(page, problems, 'schedule')
  await from.fill(tomorrowInLisbon())
  await block(page, 'Kiln opening').getByRole('button', { name: 'Save schedule' }).click()
  await announced(page, /Schedule saved/)
  await block(page, 'Kiln opening')
    .getByText(/^Shows from \d{1,2} \w{3}, 09:00$/)
    .waitFor()

  // A theme: the preview takes it as soon as it is picked, before it is applied.
  const token = await makeToken(t, user)
  const current = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data.themeId as number
  const theme = THEMES.find((x) => x.id !== current && pageStyle(x.id).theme.light.bg !== pageStyle(current).theme.light.bg)!
  await page.getByRole('radio', { name: theme.name, exact: true }).check()
  await lookAtPreview(() =>
    page.waitForFunction(
      (bg) =>
        (document.querySelector('iframe[name="ed-preview-frame"]') as HTMLIFrameElement).contentDocument
          ?.querySelector('meta[name="theme-color"]')
          ?.getAttribute('content') === bg,
      pageStyle(theme.id).theme.light.bg,
    ),
  )
  assert.equal((await t.request('GET', `/v1/profiles/${login}`, { token })).body.data.themeId, current, 'picking is not applying')
  await page.getByRole('button', { name: 'Use this theme' }).click()
  await announced(page, new RegExp(`now uses the ${theme.name} theme`))
  if (!narrow) await audit(page, problems, 'built', { screenshots: 'always' })
  if (narrow) {
    await page.getByRole('button', { name: 'Preview', exact: true }).click()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      assert.deepEqual(await seriousAxeFindings(page.locator(':root')), [], `the open preview at ${width} px, ${scheme}`)
      await page.screenshot({ path: new URL(`editor-preview-open-${width}-${scheme}.png`, ARTIFACTS).pathname })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('button', { name: 'Close preview' }).click()
  }

  // Pictures of the editor as a person sees it: a block open for editing beside (or under a button, over) the preview.
  await block(page, 'Shop online').getByRole('link', { name: /^Edit/ }).click()
  await panel(page).waitFor()
  await panel(page).getByRole('textbox', { name: 'Title', exact: true }).fill('Shop the new mugs')
  await lookAtPreview(() => frame.getByRole('link', { name: /Shop the new mugs/ }).waitFor())
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await panel(page).evaluate((el) => el.scrollIntoView({ block: 'start' }))
    await page.screenshot({ path: new URL(`editor-editing-${width}-${scheme}.png`, ARTIFACTS).pathname })
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await panel(page).getByRole('link', { name: 'Cancel' }).click()
  await panel(page).waitFor({ state: 'detached' })

  // The public page and the API agree: every block but the hidden and the scheduled one, in order.
  const slots = (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]
  assert.deepEqual(slots.map((s) => s.type).sort(), ['button', 'divider', 'event', 'faq', 'form', 'gallery', 'music', 'picture', 'text', 'youtube'])
  const hidden = slots.find((s) => s.type === 'text')
  const scheduled = slots.find((s) => s.type === 'event')
  assert.equal(hidden.visibility.hidden, true)
  assert.equal(scheduled.visibility.startsAt, tomorrowInLisbon())
  assert.equal(slots.find((s) => s.type === 'button').data.title, 'Shop online')
  const profile = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data
  assert.equal(profile.title, 'Mara Lind Ceramics')
  assert.equal(profile.themeId, theme.id)
  const visitor = await context.newPage()
  await visitor.goto(`${t.url}/${login}`)
  const ids = await visitor.$$eval('.blocks > .block', (els) => els.map((e) => Number(e.id.replace('slot-', ''))))
  assert.deepEqual(
    ids,
    slots.filter((s) => s !== hidden && s !== scheduled).map((s) => s.id),
  )
  await visitor.getByRole('heading', { name: 'Mara Lind Ceramics' }).waitFor()
  const text = (await visitor.textContent('body')) ?? ''
  assert.ok(!text.includes('About the studio') && !text.includes('Kiln opening'), 'the hidden and the scheduled block are not on the page')
  assert.equal(await visitor.locator('meta[name="theme-color"]').first().getAttribute('content'), pageStyle(theme.id).theme.light.bg)
  assert.deepEqual(problems, [])
  await context.close()
}
