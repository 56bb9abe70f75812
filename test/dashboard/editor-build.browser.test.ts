import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { pageStyle } from '../../src/rendering/theme.ts'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { seriousAxeFindings } from '../helpers/browser.ts'
import { addBlock, announced, ARTIFACTS, audit, LAUNCH, newContext, openPage, panel, picker, save, signUpWithPage, tabTo } from '../helpers/editor-browser.ts'
import { solid } from '../media/images.ts'

// A page built the way a person builds it, with nothing but what the editor shows, found by role
// and name: every block type through the picker, one edited in place, one hidden, one scheduled
// for tomorrow, a theme picked, the preview ahead of every save; then the public page and the API
// tell the same story.

/** Tomorrow at 09:00 in Lisbon (the test browser's and so the account's zone), as a datetime-local value. */
function tomorrowInLisbon(): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now() + 86_400_000)
  return `${day}T09:00`
}

describe(`the editor builds a page the way a person would (${STORE})`, () => {
  let t: TestApp
  let browser: Browser

  before(async () => {
    t = await startApp()
    browser = await chromium.launch(LAUNCH)
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  const block = (page: Page, summary: string) =>
    page.getByRole('listitem').filter({ has: page.locator('.ed-summary', { hasText: new RegExp(`^${summary}$`) }) })
  const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement)

  for (const width of [1280, 375]) {
    it(`at ${width} px: all ten types through the picker, one edited in place, one hidden, one scheduled, a theme; the preview ahead of each save`, async () => {
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
    })
  }

  it('builds the same page with the keyboard alone, focus landing where it should after add, save, cancel, delete and move', async () => {
    const context = await newContext(browser, { locale: 'en-GB' })
    const { page, problems } = await openPage(context)
    const { login, user } = await signUpWithPage(t, page)
    const frame = page.frameLocator('iframe[title="Preview of your public page"]')
    const focused = (target: Locator, what: string) =>
      target
        .first()
        .evaluate((el) => el === document.activeElement)
        .then((yes) => assert.ok(yes, `focus is on ${what}`))
    const typeInto = async (target: Locator, text: string) => {
      await tabTo(page, target)
      await page.keyboard.press('Control+A')
      await page.keyboard.type(text)
    }
    const press = async (target: Locator, expect?: RegExp) => {
      await page.evaluate(() => {
        document.getElementById('ed-live')!.textContent = ''
      })
      await tabTo(page, target)
      await page.keyboard.press('Enter')
      if (expect) await announced(page, expect)
    }
    const chooseFile = async (target: Locator, name: string, colour: string) => {
      await tabTo(page, target)
      const chooser = page.waitForEvent('filechooser')
      await page.keyboard.press('Space')
      await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: await solid(300, 200, 'png', colour) })
    }
    const edit = (name: RegExp) => page.getByRole('link', { name })
    // Add: "Add block" → focus on the picker's first type → the type → focus on the new block's first field.
    const add = async (typeTitle: string, first: Locator) => {
      await press(page.getByRole('button', { name: /^Add (the first )?block$/ }))
      await picker(page).waitFor()
      await focused(picker(page).getByRole('button', { name: 'Button', exact: true }), 'the picker’s first type')
      await press(picker(page).getByRole('button', { name: typeTitle, exact: true }))
      await panel(page).waitFor()
      await focused(first, `the first field of the new ${typeTitle} block`)
    }
    // Save: focus returns to the block, on its Edit.
    const saveAndReturn = async (said: RegExp, editName: RegExp) => {
      await press(panel(page).getByRole('button', { name: 'Save', exact: true }), said)
      await focused(edit(editName), `${editName}`)
    }

    await typeInto(page.getByRole('textbox', { name: 'Display name' }), 'Kim Keys')
    await frame.getByRole('heading', { name: 'Kim Keys' }).waitFor()
    await press(page.getByRole('button', { name: 'Save profile' }), /Profile saved/)

    const title = () => panel(page).getByRole('textbox', { name: 'Title', exact: true })
    await add('Button', title())
    await page.keyboard.type('Shop')
    await typeInto(panel(page).getByRole('textbox', { name: /^Link/ }), 'example.com/shop')
    await saveAndReturn(/Button block added/, /^Edit\s?: Button, Shop/)

    await add('Picture', panel(page).getByLabel(/^Image/))
    await chooseFile(panel(page).getByLabel(/^Image/), 'vase.png', '#aa6633')
    await typeInto(panel(page).getByRole('textbox', { name: /^Alternative text/ }), 'A vase')
    await saveAndReturn(/Picture block added/, /^Edit\s?: Picture,/)

    await add('Gallery', title())
    await chooseFile(
      panel(page)
        .getByLabel(/^Image/)
        .first(),
      'bowl.png',
      '#336699',
    )
    await typeInto(
      panel(page)
        .getByRole('textbox', { name: /^Alternative text/ })
        .first(),
      'A bowl',
    )
    await saveAndReturn(/Gallery block added/, /^Edit\s?: Gallery,/)

    await add('Text', title())
    await page.keyboard.type('Hello')
    await saveAndReturn(/Text block added/, /^Edit\s?: Text, Hello/)

    await add('YouTube video', panel(page).getByRole('textbox', { name: /^Title/ }))
    await typeInto(panel(page).getByRole('textbox', { name: /^Link/ }), 'https://youtu.be/dQw4w9WgXcQ')
    await saveAndReturn(/YouTube video block added/, /^Edit\s?: YouTube video,/)

    await add('FAQ', title())
    await typeInto(
      panel(page)
        .getByRole('group', { name: 'Item 1' })
        .getByRole('textbox', { name: /^Title/ }),
      'Keyboard only?',
    )
    await typeInto(panel(page).getByRole('group', { name: 'Item 1' }).getByRole('textbox', { name: /^Text/ }), 'Yes.')
    await typeInto(
      panel(page)
        .getByRole('group', { name: 'Item 2' })
        .getByRole('textbox', { name: /^Title/ }),
      'Really?',
    )
    await typeInto(panel(page).getByRole('group', { name: 'Item 2' }).getByRole('textbox', { name: /^Text/ }), 'Really.')
    await saveAndReturn(/FAQ block added/, /^Edit\s?: FAQ,/)

    // Nothing to fill in: focus goes to Save.
    await add('Divider', panel(page).getByRole('button', { name: 'Save', exact: true }))
    await saveAndReturn(/Divider block added/, /^Edit\s?: Divider,/)

    await add('Event', panel(page).getByRole('textbox', { name: /^Event name/ }))
    await page.keyboard.type('Key party')
    await tabTo(page, panel(page).getByLabel(/^Starts/))
    await page.keyboard.type('01052027')
    await page.keyboard.press('Tab')
    await page.keyboard.type('1930')
    await saveAndReturn(/Event block added/, /^Edit\s?: Event, Key party/)

    await add('Music release', panel(page).getByRole('textbox', { name: /^Link, UPC/ }))
    await typeInto(panel(page).getByRole('textbox', { name: 'Album', exact: true }), 'Clay Songs')
    await typeInto(
      panel(page).getByRole('group', { name: /1$/ }).getByRole('textbox', { name: /^Link/ }).first(),
      'https://open.spotify.com/album/4m2880jivSbbyEGAKfITCa',
    )
    await saveAndReturn(/Music release block added/, /^Edit\s?: Music release,/)

    await add('Form', panel(page).getByRole('textbox', { name: /^Form title/ }))
    await page.keyboard.type('Ask me')
    await saveAndReturn(/Form block added/, /^Edit\s?: Form, Ask me/)

    // Cancel: the block opens in place with focus on its first field; Cancel returns to its Edit.
    await press(edit(/^Edit\s?: Button, Shop/))
    await panel(page).waitFor()
    await focused(title(), 'the first field of the block being edited')
    await press(panel(page).getByRole('link', { name: 'Cancel' }))
    await panel(page).waitFor({ state: 'detached' })
    await focused(edit(/^Edit\s?: Button, Shop/), 'the Edit of the block whose edit was cancelled')
    // Save an edit: the preview has the new title first; focus returns to the block.
    await press(edit(/^Edit\s?: Button, Shop/))
    await typeInto(title(), 'Shop online')
    await frame.getByRole('link', { name: /Shop online/ }).waitFor()
    await saveAndReturn(/Button block saved/, /^Edit\s?: Button, Shop online/)

    // Hide one: focus stays on its switch, now off.
    const hide = page.getByRole('switch', { name: /^Show on page\s?: Text, Hello/ })
    await press(hide, /Block hidden/)
    await focused(hide, 'the switch just pressed')
    assert.equal(await hide.getAttribute('aria-checked'), 'false')
    // Schedule one for tomorrow: focus on "Show from", then back on the block's schedule control.
    await press(page.getByRole('link', { name: /^Schedule\s?: Event, Key party/ }))
    const from = page.getByLabel('Show from')
    await from.waitFor()
    await focused(from, 'Show from')
    // Chromium orders a date field's parts by its own locale: a first pass tells day-first from month-first.
    const typeDate = async (digits: string, time: string) => {
      for (let i = 0; i < 8 && (await from.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab')
      await page.keyboard.press('Tab')
      await page.keyboard.type(digits)
      await page.keyboard.press('Tab')
      await page.keyboard.type(time)
    }
    await typeDate('01022030', '1900')
    const dayFirst = (await from.inputValue()).startsWith('2030-02-01')
    const tomorrow = `${tomorrowInLisbon().slice(0, 10)}T19:00`
    const [y, m, d] = tomorrow.slice(0, 10).split('-')
    await typeDate(dayFirst ? `${d}${m}${y}` : `${m}${d}${y}`, '1900')
    assert.equal(await from.inputValue(), tomorrow)
    await press(page.getByRole('button', { name: 'Save schedule' }), /Schedule saved/)
    await focused(page.getByRole('link', { name: /^Change schedule\s?: Event, Key party/ }), 'the block’s schedule control')

    // Delete one: focus on the Blocks heading, the list's start.
    await tabTo(page, page.getByRole('button', { name: /^Delete\s?: Divider,/ }))
    await page.keyboard.press('Enter')
    const question = page.getByRole('dialog', { name: 'Delete this block?' })
    await question.waitFor()
    await press(question.getByRole('button', { name: 'Delete block' }), /Block deleted/)
    await focused(page.getByRole('heading', { name: 'Blocks', exact: true }), 'the Blocks heading')
    // Move one: focus stays on the moved block's Move up.
    await press(page.getByRole('button', { name: /^Move up\s?: Form, Ask me/ }), /Moved “Ask me” up: now 8 of 9/)
    await focused(page.getByRole('button', { name: /^Move up\s?: Form, Ask me/ }), 'the moved block’s Move up')

    // A theme by keyboard: the preview takes it when it is picked.
    const token = await makeToken(t, user)
    const current = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data.themeId as number
    const theme = THEMES.find((x) => x.id !== current && pageStyle(x.id).theme.light.bg !== pageStyle(current).theme.light.bg)!
    await tabTo(page, page.getByRole('radio', { name: THEMES.find((x) => x.id === current)!.name, exact: true }))
    while (!(await page.getByRole('radio', { name: theme.name, exact: true }).isChecked())) await page.keyboard.press('ArrowRight')
    await page.waitForFunction(
      (bg) =>
        (document.querySelector('iframe[name="ed-preview-frame"]') as HTMLIFrameElement).contentDocument
          ?.querySelector('meta[name="theme-color"]')
          ?.getAttribute('content') === bg,
      pageStyle(theme.id).theme.light.bg,
    )
    await press(page.getByRole('button', { name: 'Use this theme' }), new RegExp(`now uses the ${theme.name} theme`))

    const slots = (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]
    assert.deepEqual(
      slots.map((s) => s.type),
      ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'event', 'form', 'music'],
    )
    assert.equal(slots[0].data.title, 'Shop online')
    assert.equal(slots[3].visibility.hidden, true)
    assert.equal(slots[6].visibility.startsAt, `${tomorrowInLisbon().slice(0, 10)}T19:00`)
    const publicPage = await (await fetch(`${t.url}/${login}`)).text()
    const ids = [...publicPage.matchAll(/id="slot-(\d+)"/g)].map((x) => Number(x[1]))
    assert.deepEqual(
      ids,
      slots.filter((s) => s.type !== 'text' && s.type !== 'event').map((s) => s.id),
    )
    assert.match(publicPage, /Kim Keys/)
    assert.doesNotMatch(publicPage, /Key party|>Hello</)
    assert.deepEqual(problems, [])
    await context.close()
  })
})
