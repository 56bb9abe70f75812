import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Locator } from 'playwright-core'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { pageStyle } from '../../src/rendering/theme.ts'
import { makeToken, STORE } from '../helpers/app.ts'
import { appAndBrowser } from '../helpers/browser.ts'
import { announced, newContext, openPage, panel, picker, signUpWithPage, tabTo } from '../helpers/editor-browser.ts'
import { tomorrowInLisbon } from '../helpers/editor-build-journey.ts'
import { solid } from '../media/images.ts'

// The page built with the keyboard alone: a visible focus at every stop (tabTo checks it), and
// focus landing where it should after add, save, cancel, delete and move.

describe(`the editor with the keyboard alone (${STORE})`, () => {
  const started = appAndBrowser()

  it('builds the same page with the keyboard alone, focus landing where it should after add, save, cancel, delete and move', async () => {
    const context = await newContext(started.browser, { locale: 'en-GB' })
    const { page, problems } = await openPage(context)
    const { login, user } = await signUpWithPage(started.t, page)
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
    await typeInto(page.getByRole('textbox', { name: 'Bio' }), 'Made without a mouse.')
    await press(page.getByRole('button', { name: 'Save profile' }), /Profile saved/)
    // The avatar's file picker opens from the keyboard too; social links are added with it.
    await chooseFile(page.getByLabel('Avatar image', { exact: true }), 'me.png', '#116644')
    await press(page.getByRole('button', { name: 'Upload avatar' }), /new avatar/)
    for (const link of ['instagram.com/kim', 'tel:+351210000000']) {
      await typeInto(page.getByRole('textbox', { name: 'Social link' }), link)
      await press(page.getByRole('button', { name: 'Add social link' }), /Social link added/)
    }

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
    // A row of the unsaved form moves by keyboard too, announced.
    await press(panel(page).getByRole('button', { name: /^Move up\s?: item 2/ }), /Moved up: now 1 of 2/)
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
    // The dialog's focus starts on Keep it; Escape keeps the block and returns to its Delete.
    await focused(question.getByRole('button', { name: 'Keep it' }), 'Keep it')
    await page.keyboard.press('Escape')
    await question.waitFor({ state: 'hidden' })
    await focused(page.getByRole('button', { name: /^Delete\s?: Divider,/ }), 'the Delete of the block kept')
    await page.keyboard.press('Enter')
    await question.waitFor()
    await press(question.getByRole('button', { name: 'Delete block' }), /Block deleted/)
    await focused(page.getByRole('heading', { name: 'Blocks', exact: true }), 'the Blocks heading')
    // Move one: focus stays on the moved block's Move up.
    await press(page.getByRole('button', { name: /^Move up\s?: Form, Ask me/ }), /Moved “Ask me” up: now 8 of 9/)
    await focused(page.getByRole('button', { name: /^Move up\s?: Form, Ask me/ }), 'the moved block’s Move up')

    // A theme by keyboard: the preview takes it when it is picked.
    const token = await makeToken(started.t, user)
    const current = (await started.t.request('GET', `/v1/profiles/${login}`, { token })).body.data.themeId as number
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

    const slots = (await started.t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]
    assert.deepEqual(
      slots.map((s) => s.type),
      ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'event', 'form', 'music'],
    )
    assert.equal(slots[0].data.title, 'Shop online')
    assert.deepEqual(
      slots[5].data.items.map((i: any) => i.title),
      ['Really?', 'Keyboard only?'],
    )
    const profile = (await started.t.request('GET', `/v1/profiles/${login}`, { token })).body.data
    assert.equal(profile.description, 'Made without a mouse.')
    assert.ok(profile.avatar)
    assert.deepEqual(
      profile.computed.socials.map((x: any) => x.icon),
      ['instagram', 'phone'],
    )
    assert.equal(slots[3].visibility.hidden, true)
    assert.equal(slots[6].visibility.startsAt, `${tomorrowInLisbon().slice(0, 10)}T19:00`)
    const publicPage = await (await fetch(`${started.t.url}/${login}`)).text()
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
