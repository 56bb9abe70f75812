import { describe, it } from 'node:test'
import { STORE } from '../helpers/app.ts'
import { appWithMusicFakes, auditPanels, TYPES } from '../helpers/editor-views-audit.ts'
import assert from 'node:assert/strict'
import { announced, audit, newContext, openPage, signUpWithPage } from '../helpers/editor-browser.ts'

// The first half of the block types (the other half: editor-views-more), and a refused avatar upload.

const quiet = { screenshots: 'on-failure' } as const

describe(`every view of the editor's block panel passes axe: the first half of the types (${STORE})`, () => {
  const s = appWithMusicFakes()

  const types = TYPES.slice(0, Math.ceil(TYPES.length / 2))
  it(`audits the add and the edit panel of ${types.join(', ')} at 375 and 1280 px, light and dark`, () => auditPanels(s.t, s.browser, types))

  it('announces a refused avatar upload in an alert whose link leads to the file field', async () => {
    const context = await newContext(s.browser)
    const { page, problems } = await openPage(context)
    await signUpWithPage(s.t, page)
    const field = page.getByLabel('Avatar image', { exact: true })
    await field.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are words, not pixels') })
    await page.getByRole('button', { name: 'Upload avatar' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing was saved' })
    await alert.waitFor()
    const link = alert.getByRole('link')
    assert.equal(await link.count(), 1)
    assert.equal(await link.getAttribute('href'), `#${await field.getAttribute('id')}`)
    assert.equal(await field.getAttribute('aria-invalid'), 'true')
    // With the script the answer replaces the editor in place: its live region reads the summary out too.
    await announced(page, /One field needs attention\. Nothing was saved\./)
    // The summary's link says what the field's own description says.
    const description = await field.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    )
    const said = ((await link.textContent()) ?? '').trim()
    assert.ok(said && description.includes(said), `${said} in ${description}`)
    await audit(page, problems, 'refused-avatar', quiet)
    await context.close()
  })
})
