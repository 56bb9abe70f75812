import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { checkSubmission, MIN_FILL_MS } from '../../src/slots/shared/form-submission.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'

const fields = [
  { name: 'name', label: 'Your name', type: 'text' as const, required: true },
  { name: 'email', label: 'E-mail', type: 'email' as const, required: true },
  { name: 'message', label: 'Message', type: 'textarea' as const, required: false },
  { name: 'consent', label: 'You may write back', type: 'checkbox' as const, required: true },
]

async function pageWithForm(t: TestApp, user: User) {
  const profile = await makeProfile(t, user)
  const form = await formsRepository.insert(t.ctx.db, { userId: user.id, title: 'Say hello', description: '', fields, submitLabel: 'Send' })
  const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
  const [text] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'text', data: { title: 'Not a form' } }])
  return { profile, form, slot, text }
}

/** Posts as a person would: the page script says the page was open for ten seconds. */
const post = (t: TestApp, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ _e: '10000', _hp: '', ...fields }).toString(),
  })

const formHtml = (html: string) => html.slice(html.indexOf('<form'), html.indexOf('</form>'))

const valid = { name: 'Ada', email: 'ada@example.test', message: 'Hello <b>there</b>', consent: 'yes', slotId: '1', extra: 'dropped' }

describe(`POST /-/forms/{slot} (${STORE})`, () => {
  let t: TestApp
  let user: User
  before(async () => {
    t = await startApp()
    user = await makeUser(t)
  })
  after(() => t.close())

  it('is where the page’s form posts', async () => {
    const { profile, slot } = await pageWithForm(t, user)
    const html = await (await fetch(`${t.url}/${profile.login}`)).text()
    assert.match(html, new RegExp(`<form[^>]* method="post" action="/-/forms/${slot.id}#slot-${slot.id}"`))
  })

  it('stores a valid submission and thanks the visitor with a link back', async () => {
    const { profile, form, slot } = await pageWithForm(t, user)
    const res = await post(t, `/-/forms/${slot.id}`, valid)
    assert.equal(res.status, 200)
    const html = await res.text()
    assert.match(html, /Thank you/)
    assert.match(html, new RegExp(`href="/${profile.login}"`))
    const [stored] = await formSubmissionsRepository.listOfUser(t.ctx.db, user.id, form.id)
    assert.deepEqual(stored.data, { name: 'Ada', email: 'ada@example.test', message: 'Hello <b>there</b>', consent: 'yes' })
    assert.equal(stored.slotId, slot.id)
  })

  it('shows the page again with each problem next to its field and the answers kept, storing nothing', async () => {
    const { form, slot } = await pageWithForm(t, user)
    const res = await post(t, `/-/forms/${slot.id}`, { name: '', email: 'not-an-address', message: 'Kept <b>as typed</b>' })
    assert.equal(res.status, 422)
    assert.equal(res.headers.get('cache-control'), 'no-store')
    const html = formHtml(await res.text())
    const id = `slot-${slot.id}`
    assert.match(html, /<p class="slot-form-summary" role="alert"><strong>Please check the form<\/strong><\/p>/)
    assert.match(
      html,
      new RegExp(
        `<input type="text" id="${id}-name" name="name" required aria-invalid="true" aria-describedby="${id}-name-error"><span class="slot-form-error" id="${id}-name-error">Fill in “Your name”.</span>`,
      ),
    )
    assert.match(
      html,
      new RegExp(
        `<input type="email" id="${id}-email" name="email" value="not-an-address" autocomplete="email" required aria-invalid="true" aria-describedby="${id}-email-error"><span class="slot-form-error" id="${id}-email-error">“E-mail” must be an e-mail address`,
      ),
    )
    assert.match(html, new RegExp(`<textarea id="${id}-message" name="message" rows="4">Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>`))
    assert.match(html, /Tick “You may write back”/)
    assert.equal((await formSubmissionsRepository.listOfUser(t.ctx.db, user.id, form.id)).length, 0)
  })

  it('speaks the page’s language in problems and thanks', async () => {
    const { profile, slot } = await pageWithForm(t, user)
    await profilesRepository.update(t.ctx.db, profile.id, { languageId: 2 })
    const refused = formHtml(await (await post(t, `/-/forms/${slot.id}`, { name: '' })).text())
    assert.match(refused, /Bitte „Your name“ ausfüllen\./)
    assert.match(refused, /\(Pflichtfeld\)/)
    const thanks = await (await post(t, `/-/forms/${slot.id}`, valid)).text()
    assert.match(thanks, /<html lang="de"/)
    assert.match(thanks, /„Say hello“ wurde gesendet\./)
  })

  it('gives the form back, answers kept, when the hidden trap field is filled, and stores nothing', async () => {
    const { form, slot } = await pageWithForm(t, user)
    const res = await post(t, `/-/forms/${slot.id}`, { ...valid, _hp: 'https://spam.example' })
    assert.equal(res.status, 422)
    const html = formHtml(await res.text())
    assert.match(html, /Wait a moment, then send the form again; your answers are still here\./)
    assert.match(html, /value="ada@example\.test"/)
    assert.doesNotMatch(html, /spam\.example/)
    assert.equal((await formSubmissionsRepository.listOfUser(t.ctx.db, user.id, form.id)).length, 0)
  })

  it('gives the form back with every answer kept and says plainly to wait and send again when it was sent within 2 s of page load', async () => {
    const { form, slot } = await pageWithForm(t, user)
    const res = await post(t, `/-/forms/${slot.id}`, { ...valid, _e: String(MIN_FILL_MS - 1) })
    assert.equal(res.status, 422)
    const html = formHtml(await res.text())
    const id = `slot-${slot.id}`
    // No vague "check the form" and no field marked: nothing the visitor typed was wrong.
    assert.match(
      html,
      /<p class="slot-form-summary" role="alert"><strong>Not sent yet: that was quicker than we expected\. Wait a moment, then send the form again; your answers are still here\.<\/strong><\/p>/,
    )
    assert.doesNotMatch(html, /Please check the form|aria-invalid/)
    assert.match(html, new RegExp(`id="${id}-name" name="name" value="Ada"`))
    assert.match(html, new RegExp(`id="${id}-email" name="email" value="ada@example\\.test"`))
    assert.match(html, new RegExp(`<textarea id="${id}-message" name="message" rows="4">Hello &lt;b&gt;there&lt;/b&gt;</textarea>`))
    assert.match(html, new RegExp(`<input type="checkbox" id="${id}-consent" name="consent" value="yes" checked`))
    assert.match(html, /<input type="hidden" name="_e" value="">/)
    assert.equal((await formSubmissionsRepository.listOfUser(t.ctx.db, user.id, form.id)).length, 0)
  })

  it('accepts a form sent without script (no elapsed time), losing nothing', async () => {
    const { form, slot } = await pageWithForm(t, user)
    const res = await post(t, `/-/forms/${slot.id}`, { ...valid, _e: '' })
    assert.equal(res.status, 200)
    assert.equal((await formSubmissionsRepository.listOfUser(t.ctx.db, user.id, form.id)).length, 1)
  })

  it('escapes what the visitor sent when echoing problems', async () => {
    const checked = checkSubmission([{ name: 'n', label: '<script>', type: 'text', required: true }], {})
    assert.equal(checked.ok, false)
    const { slot } = await pageWithForm(t, user)
    const html = await (await post(t, `/-/forms/${slot.id}`, { name: '<img src=x onerror=alert(1)>' })).text()
    assert.doesNotMatch(html, /<img src=x/)
  })

  it('answers 404 for an unknown slot, a slot that is not a form, and an unpublished page', async () => {
    const { profile, slot, text } = await pageWithForm(t, user)
    assert.equal((await post(t, '/-/forms/999999', valid)).status, 404)
    assert.equal((await post(t, `/-/forms/${text.id}`, valid)).status, 404)
    await profilesRepository.update(t.ctx.db, profile.id, { status: false })
    assert.equal((await post(t, `/-/forms/${slot.id}`, valid)).status, 404)
  })

  it('accepts only form encoding', async () => {
    const { slot } = await pageWithForm(t, user)
    const res = await fetch(`${t.url}/-/forms/${slot.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid) })
    assert.equal(res.status, 415)
  })

  it('limits one address to 10 submissions a minute', async () => {
    // A fresh app: the other tests of this file post from the same address.
    const fresh = await startApp({ RATE_LIMIT_ADDRESS_PER_MINUTE: '60' })
    try {
      const other = await makeUser(fresh)
      const page = await pageWithForm(fresh, other)
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) statuses.push((await post(fresh, `/-/forms/${page.slot.id}`, valid)).status)
      assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200))
      assert.equal(statuses[10], 429)
    } finally {
      await fresh.close()
    }
  })

  it('lets the owner read submissions with the CLI', { skip: STORE === 'postgres' ? 'the CLI opens the SQLite file of DATA_DIR' : false }, async () => {
    const { form, slot } = await pageWithForm(t, user)
    await post(t, `/-/forms/${slot.id}`, valid)
    const res = await cli(['forms', 'submissions', '--email', user.email, '--form', String(form.id)], { DATA_DIR: t.ctx.config.dataDir })
    assert.equal(res.code, 0, res.stderr)
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.equal(lines.length, 1)
    assert.equal(lines[0].data.email, 'ada@example.test')
  })
})
