import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { slotService } from '../../src/slots/slot-service.ts'
import { csv, neutralise } from '../../src/dashboard/csv.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { type User, usersRepository } from '../../src/store/users.ts'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, registeredVisitor, Visitor } from '../helpers/dashboard.ts'

const fields = [
  { name: 'name', label: 'Your name', type: 'text' as const, required: true },
  { name: 'message', label: 'Message', type: 'textarea' as const, required: false },
]

async function pageWithLeads(t: TestApp, user: User, answers: Array<Record<string, string>>) {
  const profile = await makeProfile(t, user)
  const form = await formsRepository.insert(t.ctx.db, { userId: user.id, title: 'Contact', description: '', fields, submitLabel: 'Send' })
  const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
  const ids: number[] = []
  for (const data of answers) ids.push((await formSubmissionsRepository.insert(t.ctx.db, { formId: form.id, profileId: profile.id, slotId: slot.id, data })).id)
  return { profile, slot, ids }
}

describe('CSV cells', () => {
  it('neutralises every cell that a spreadsheet would read as a formula, and nothing else', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) assert.equal(neutralise(cell), `'${cell}`)
    for (const cell of ['Ada', '1-1', 'a=b', '', ' =1']) assert.equal(neutralise(cell), cell)
  })

  it('writes RFC 4180: BOM, CRLF rows, quoted fields with doubled quotes; numbers as they are', () => {
    assert.equal(
      csv([
        ['a', 'b,c'],
        ['say "hi"', 'two\nlines'],
        [-3, 4],
      ]),
      '\uFEFFa,"b,c"\r\n"say ""hi""","two\nlines"\r\n-3,4\r\n',
    )
  })
})

describe(`dashboard: form submissions (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('lists the form blocks of a page and each one’s submissions newest first, 25 a page, with a link to the older ones', async () => {
    const { v, user } = await registeredVisitor(t)
    const answers = Array.from({ length: 27 }, (_, i) => ({ name: `Visitor ${i}`, message: `note ${i}` }))
    const { profile, slot } = await pageWithLeads(t, user, answers)
    const forms = await v.get(`/my-links/${profile.id}/leads`)
    assert.equal(forms.status, 200)
    assert.match(forms.text, new RegExp(`<a href="/my-links/${profile.id}/leads/${slot.id}">Contact</a>`))
    const first = await v.get(`/my-links/${profile.id}/leads/${slot.id}`)
    assert.equal(first.status, 200)
    assert.ok(first.text.indexOf('Visitor 26') < first.text.indexOf('Visitor 25'))
    assert.doesNotMatch(first.text, /Visitor 1</)
    const older = /href="([^"]+\?cursor=[^"]+)">Older submissions</.exec(first.text)?.[1]
    assert.ok(older)
    const second = await v.get(older.replaceAll('&amp;', '&'))
    assert.match(second.text, /Visitor 1</)
    assert.match(second.text, /Visitor 0</)
    assert.doesNotMatch(second.text, />Older submissions<\/a>/)
  })

  it('deletes one submission after a CSRF-checked post, and refuses another account’s', async () => {
    const { v, user } = await registeredVisitor(t)
    const { profile, slot, ids } = await pageWithLeads(t, user, [{ name: 'Keep me' }, { name: 'Spam spam' }])
    const inbox = `/my-links/${profile.id}/leads/${slot.id}`
    const shown = await v.get(inbox)
    assert.equal((await v.post(`${inbox}/${ids[1]}/delete`, { _csrf: 'wrong' })).status, 403)
    const done = await v.post(`${inbox}/${ids[1]}/delete`, { _csrf: csrfOf(shown.text) })
    assert.equal(done.status, 303)
    const after = await v.get(inbox)
    assert.match(after.text, /The submission is deleted\./)
    assert.match(after.text, /Keep me/)
    assert.doesNotMatch(after.text, /Spam spam/)

    const stranger = await registeredVisitor(t)
    const page = await stranger.v.get('/settings')
    assert.equal((await stranger.v.get(inbox)).status, 404)
    assert.equal((await stranger.v.post(`${inbox}/${ids[0]}/delete`, { _csrf: csrfOf(page.text) })).status, 404)
    assert.equal((await v.get(inbox)).text.includes('Keep me'), true)
  })

  it('exports every submission as CSV (BOM, CRLF) where a =HYPERLINK( answer stays text, its times in the owner’s zone with the offset', async () => {
    const v = Visitor.of(t)
    const email = freshEmail()
    await v.register({ email, timezone: 'Europe/Berlin' })
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const evil = '=HYPERLINK("http://127.0.0.1:9/x","click me")'
    const { profile, slot } = await pageWithLeads(t, user, [
      { name: 'Ada, Countess', message: 'said "hello"\nthen left' },
      { name: evil, message: '+44 20 7946 0000' },
      { name: 'Old field only', gone: 'kept anyway' },
    ])
    const res = await v.get(`/my-links/${profile.id}/leads/${slot.id}/submissions.csv`)
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/)
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename=".+\.csv"/)
    const bytes = Buffer.from(
      await (
        await fetch(`${t.url}/my-links/${profile.id}/leads/${slot.id}/submissions.csv`, {
          headers: { cookie: [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ') },
        })
      ).arrayBuffer(),
    )
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf])
    const lines = res.text.replace(/^\uFEFF/, '').split('\r\n')
    assert.equal(lines[0], 'Received (Europe/Berlin),Your name,Message,gone')
    assert.match(lines[1], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0[12]:00,Old field only,,kept anyway$/)
    // The wall time and offset name the instant that was stored.
    const stamp = lines[1].split(',')[0]
    const [, day, time, offset] = /^(\S+) (\S+) (\S+)$/.exec(stamp)!
    const stored = (await useCases.formSubmissions.list(t.ctx, ownerPrincipal(user), profile.id, slot.id, {})).submissions[0].createdAt
    assert.equal(new Date(`${day}T${time}${offset}`).toISOString().slice(0, 19), stored.slice(0, 19))
    assert.match(lines[2], /^[^,]+,"'=HYPERLINK\(""http:\/\/127\.0\.0\.1:9\/x"",""click me""\)",'\+44 20 7946 0000,$/)
    assert.match(res.text, /"Ada, Countess","said ""hello""\nthen left",\r\n$/)
  })
})
