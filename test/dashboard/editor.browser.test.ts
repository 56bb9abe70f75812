import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { makeToken, STORE } from '../helpers/app.ts'
import { appAndBrowser } from '../helpers/browser.ts'
import { ARTIFACTS, addBlock, announced, audit, dropFile, newContext, openPage, panel, save, signUpWithPage } from '../helpers/editor-browser.ts'
import { solid } from '../media/images.ts'

/** The editor's own first load, compressed: HTML with its inlined CSS and script (the budget). */
const BUDGET_BYTES = 60 * 1024
/** Pictures of the in-between views only when one fails; the empty and the full editor are always kept. */
const quiet = { screenshots: 'on-failure' } as const

// The add and edit panels of every type are audited in editor-views; here the views only this
// journey reaches: the empty and the full editor, a refused save, moved FAQ rows, the delete question.
describe(`page editor in a real browser (${STORE})`, () => {
  const started = appAndBrowser()

  const block = (page: Page, summary: string) =>
    page.getByRole('listitem').filter({ has: page.locator('.ed-summary', { hasText: new RegExp(`^${summary}$`) }) })

  it('builds a whole page through the editor: profile, socials, blocks of eight types, edit, delete, drag and keyboard reorder', async () => {
    const { t, browser } = started
    const context = await newContext(browser)
    const { page, problems } = await openPage(context)
    let firstLoad = 0
    page.on('response', async (res) => {
      if (/\/editor$/.test(new URL(res.url()).pathname) && res.request().resourceType() === 'document') firstLoad = gzipSync(await res.body()).length
    })
    const { login, user } = await signUpWithPage(t, page)
    await page.getByText('Your page has no blocks yet.').waitFor()
    await audit(page, problems, 'empty')

    // The new, empty public page looks intentional at 1280 px: its card centred, the footer under it.
    const empty = await context.newPage()
    await empty.goto(`${t.url}/${login}`)
    const card = (await empty.locator('.profile').boundingBox())!
    const footer = (await empty.locator('.footer').boundingBox())!
    assert.ok(footer.y >= card.y + card.height, 'the footer sits under the profile card')
    assert.ok(Math.abs(card.x + card.width / 2 - 640) < 16, `the card is centred (${card.x}, ${card.width})`)
    await empty.screenshot({ path: new URL('editor-public-empty-1280.png', ARTIFACTS).pathname })
    await empty.close()

    // Profile header.
    await page.getByLabel('Display name').fill('Jane Doe')
    await page.getByLabel('Bio').fill('Photographer in Lisbon.')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await announced(page, /Profile saved/)
    // The avatar by drag and drop: a real PNG dropped on the zone, whose handler alone puts it in the field and sends it.
    const zone = page.getByRole('group', { name: 'Drop the avatar image here' })
    assert.equal(await zone.getByLabel('Avatar image').evaluate((el: HTMLInputElement) => el.files?.length ?? 0), 0)
    await dropFile(page, zone, 'me.png', await solid(400, 400, 'png', '#aa3355'))
    await announced(page, /new avatar/)
    await page.getByRole('img', { name: 'Your current avatar' }).waitFor()
    for (const link of ['instagram.com/jane', 'github.com/jane', 'mailto:jane@example.com']) {
      // The same words each time: the live region is emptied first, so each addition is awaited.
      await page.evaluate(() => {
        document.getElementById('ed-live')!.textContent = ''
      })
      await page.getByRole('textbox', { name: 'Social link' }).fill(link)
      await page.getByRole('button', { name: 'Add social link' }).click()
      await announced(page, /Social link added/)
    }

    // Blocks: button, button, text, faq, youtube, picture, divider, event, form.
    await addBlock(page, 'Button')
    await panel(page).getByLabel('Title', { exact: true }).fill('Shop')
    await panel(page).getByLabel(/^Link/).fill('example.com/shop')
    // Custom colours: the picker beside the colour's text field sets it; a colour typed sets the picker.
    await panel(page).getByLabel('Style').selectOption('custom')
    await panel(page).getByRole('textbox', { name: 'Text color', exact: true }).fill('white')
    assert.equal(await panel(page).getByLabel('Text color: pick a colour').inputValue(), '#ffffff')
    await panel(page).getByLabel('Background color: pick a colour').fill('#0b3d2e')
    assert.equal(await panel(page).getByRole('textbox', { name: 'Background color', exact: true }).inputValue(), '#0b3d2e')
    await save(page, /Button block added/)
    await addBlock(page, 'Button')
    await panel(page).getByLabel('Title', { exact: true }).fill('Newsletter')
    // A refused save: the core's message beside the field, what was typed kept.
    await panel(page).getByLabel(/^Link/).fill('javascript:alert(1)')
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('alert').first().waitFor()
    assert.equal(await panel(page).getByLabel('Title', { exact: true }).inputValue(), 'Newsletter')
    assert.equal(await panel(page).getByLabel(/^Link/).getAttribute('aria-invalid'), 'true')
    await audit(page, problems, 'refused', quiet)
    await panel(page).getByLabel(/^Link/).fill('example.com/news')
    await save(page, /Button block added/)

    await addBlock(page, 'Text')
    await panel(page).getByLabel('Title', { exact: true }).fill('About me')
    await panel(page)
      .getByLabel(/^Description/)
      .fill('I take pictures of doors.')
    await save(page, /Text block added/)

    await addBlock(page, 'FAQ')
    await panel(page).getByLabel('Title', { exact: true }).first().fill('Questions')
    await panel(page)
      .getByRole('group', { name: 'Item 1' })
      .getByLabel(/^Title/)
      .fill('Do you travel?')
    await panel(page).getByRole('group', { name: 'Item 1' }).getByLabel(/^Text/).fill('Yes, all over Europe.')
    // A second question (the empty form offers two rows), a third added, the second moved above the first
    // before saving; the move is announced and keeps the focus on that row.
    await panel(page)
      .getByRole('group', { name: 'Item 2' })
      .getByLabel(/^Title/)
      .fill('What do you charge?')
    await panel(page).getByRole('group', { name: 'Item 2' }).getByLabel(/^Text/).fill('Ask me.')
    await panel(page).getByRole('button', { name: 'Add another item' }).click()
    await panel(page)
      .getByRole('group', { name: 'Item 3' })
      .getByLabel(/^Title/)
      .fill('A question to remove')
    await panel(page).getByRole('group', { name: 'Item 3' }).getByLabel(/^Text/).fill('Gone.')
    assert.equal(
      await panel(page)
        .getByRole('group', { name: 'Item 2' })
        .getByLabel(/^Title/)
        .inputValue(),
      'What do you charge?',
    )
    await panel(page)
      .getByRole('button', { name: /^Move up\s?: item 2/ })
      .click()
    await announced(page, /Moved up: now 1 of 3/)
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Move down: item 1')
    assert.equal(
      await panel(page)
        .getByRole('group', { name: 'Item 1' })
        .getByLabel(/^Title/)
        .inputValue(),
      'What do you charge?',
    )
    await audit(page, problems, 'faq-rows', quiet)
    await panel(page).getByRole('checkbox', { name: 'Remove item 3' }).check()
    await save(page, /FAQ block added/)

    await addBlock(page, 'YouTube video')
    await panel(page).getByLabel(/^Link/).fill('https://youtu.be/dQw4w9WgXcQ')
    await save(page, /YouTube video block added/)

    await addBlock(page, 'Picture')
    // A block's image field takes a dropped file too; the form is sent with Save.
    await dropFile(page, panel(page).getByRole('group', { name: 'Drop an image here' }), 'door.png', await solid(300, 200, 'png', '#225588'))
    await announced(page, /door\.png chosen/)
    await panel(page).getByLabel('Alternative text').fill('A blue door')
    await save(page, /Picture block added/)

    await addBlock(page, 'Divider')
    await save(page, /Divider block added/)

    await addBlock(page, 'Event')
    await panel(page)
      .getByLabel(/^Event name/)
      .fill('Opening night')
    await panel(page)
      .getByLabel(/^Starts/)
      .fill('2027-05-01T19:30')
    await panel(page)
      .getByLabel(/^Place/)
      .fill('Galeria, Lisbon')
    await save(page, /Event block added/)

    await addBlock(page, 'Form')
    await panel(page)
      .getByLabel(/^Form title/)
      .fill('Say hello')
    await panel(page).getByLabel('View').selectOption('button')
    await panel(page)
      .getByLabel(/^Button text/)
      .fill('Write to me')
    await save(page, /Form block added/)

    // Edit one: the first button gets a new title.
    await block(page, 'Shop').getByRole('link', { name: /^Edit/ }).click()
    await panel(page).waitFor()
    await panel(page).getByLabel('Title', { exact: true }).fill('My shop')
    await save(page, /Button block saved/)

    // Delete one: a dialog asks first. Keeping it changes nothing and returns to its Delete.
    await block(page, 'Newsletter')
      .getByRole('button', { name: /^Delete/ })
      .click()
    const question = page.getByRole('dialog', { name: 'Delete this block?' })
    await question.waitFor()
    assert.match((await question.textContent()) ?? '', /Button: “Newsletter”\. Deleting it cannot be undone\./)
    await audit(page, problems, 'delete-dialog', quiet)
    await question.getByRole('button', { name: 'Keep it' }).click()
    await question.waitFor({ state: 'hidden' })
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /^Delete: Button, Newsletter/)
    await block(page, 'Newsletter')
      .getByRole('button', { name: /^Delete/ })
      .click()
    await question.getByRole('button', { name: 'Delete block' }).click()
    await announced(page, /Block deleted/)
    assert.equal(await block(page, 'Newsletter').count(), 0)
    // The same question as a step of its own (what a browser without the script gets): asked, kept.
    const editorUrl = page.url().replace(/[?#].*$/, '')
    const shopId = (await block(page, 'My shop').getAttribute('id'))!.replace('block-', '')
    await page.goto(`${editorUrl}?delete=${shopId}#confirm-delete`)
    await page.getByRole('region', { name: 'Delete this block?' }).getByText('Button: “My shop”. Deleting it cannot be undone.').waitFor()
    await audit(page, problems, 'delete-step', quiet)
    await page.getByRole('link', { name: 'Keep it' }).click()
    await page.getByRole('region', { name: 'Delete this block?' }).waitFor({ state: 'detached' })
    await page.goto(editorUrl)

    // Reorder by keyboard: focus "Move up" of the divider and press Enter; the result is announced.
    await block(page, 'Divider')
      .getByRole('button', { name: /^Move up/ })
      .focus()
    await page.keyboard.press('Enter')
    await announced(page, /Moved “Divider” up: now 5 of 8/)
    // Focus stays on the moved block's control, so a second press moves it again.
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /^Move up/)

    // Reorder by drag: the form to the top. A viewport tall enough for the whole list, so no
    // scroll between pressing and dropping moves another card under the pointer.
    await page.setViewportSize({ width: 1280, height: 3200 })
    await block(page, 'Say hello').dragTo(block(page, 'My shop'), { targetPosition: { x: 20, y: 5 } })
    await announced(page, /Block moved: now 1 of 8/)
    await page.setViewportSize({ width: 1280, height: 900 })
    await audit(page, problems, 'full')

    const expected = [
      ['form', 'Say hello'],
      ['button', 'My shop'],
      ['text', 'About me'],
      ['faq', 'Questions'],
      ['youtube', ''],
      ['divider', ''],
      ['picture', ''],
      ['event', 'Opening night'],
    ]
    // The API returns the same slots, in that order.
    const token = await makeToken(t, user)
    const slots = (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]
    assert.deepEqual(
      slots.map((s) => s.type),
      expected.map(([type]) => type),
    )
    assert.equal(slots[1].data.title, 'My shop')
    assert.equal(slots[1].data.link, 'https://example.com/shop')
    assert.deepEqual([slots[1].data.style, slots[1].data.customize.backgroundColor, slots[1].data.customize.textColor], ['custom', '#0b3d2e', 'white'])
    assert.deepEqual(
      slots[3].data.items.map((i: any) => i.title),
      ['What do you charge?', 'Do you travel?'],
    )
    assert.equal(slots[6].data.alt, 'A blue door')
    const profile = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data
    assert.equal(profile.title, 'Jane Doe')
    assert.equal(profile.description, 'Photographer in Lisbon.')
    assert.ok(profile.avatar)
    assert.deepEqual(
      profile.computed.socials.map((s: any) => s.icon),
      ['instagram', 'github', 'email'],
    )

    // The public page shows exactly that content in that order.
    const visitor = await context.newPage()
    await visitor.goto(`${t.url}/${login}`)
    const ids = await visitor.$$eval('.blocks > .block', (els) => els.map((e) => Number(e.id.replace('slot-', ''))))
    assert.deepEqual(
      ids,
      slots.map((s) => s.id),
    )
    const text = await visitor.textContent('body')
    for (const words of [
      'Jane Doe',
      'Photographer in Lisbon.',
      'Write to me',
      'My shop',
      'About me',
      'I take pictures of doors.',
      'Do you travel?',
      'Opening night',
      'Galeria, Lisbon',
    ]) {
      assert.ok(text?.includes(words), words)
    }
    assert.ok(!text?.includes('Newsletter'))
    assert.ok(!text?.includes('A question to remove'))
    assert.ok(text!.indexOf('What do you charge?') < text!.indexOf('Do you travel?'), 'the FAQ rows in the order chosen')
    // The dropped avatar is on the public page, as one of its square crops, loaded.
    const avatar = visitor.getByRole('img', { name: 'Jane Doe' })
    const stem = profile.computed.avatarUrl.replace(/\.\w+$/, '')
    const src = (await avatar.getAttribute('src')) ?? ''
    assert.ok(src.startsWith(`${stem}.s`) && src.endsWith('.webp'), `${src} is a square crop of ${profile.computed.avatarUrl}`)
    assert.ok((await avatar.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))) > 0, 'the avatar image loads')
    assert.equal(await visitor.getByRole('img', { name: 'A blue door' }).count(), 1)
    // The event shows 19:30 in Lisbon, the owner's zone (the account was registered from a Lisbon browser).
    assert.match(text ?? '', /7:30\sPM|19:30/)

    // The editor's own first load (HTML with inlined CSS and script) stays within budget.
    await page.reload()
    await page.waitForLoadState('load')
    assert.ok(firstLoad > 0 && firstLoad <= BUDGET_BYTES, `editor first load ${firstLoad} bytes compressed`)
    assert.deepEqual(problems, [])
    await context.close()
  })
})
