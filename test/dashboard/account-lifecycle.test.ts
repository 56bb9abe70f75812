import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { unzipSync } from 'fflate'
import { sql } from 'kysely'
import { slotService } from '../../src/slots/slot-service.ts'
import { isPostgres } from '../../src/store/db.ts'
import { emailChangesRepository } from '../../src/store/email-changes.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { oauthRepository } from '../../src/store/oauth.ts'
import { type User, usersRepository } from '../../src/store/users.ts'
import { makeProfile, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, Visitor } from '../helpers/dashboard.ts'
import { solid } from '../media/images.ts'

/** An account with something in every table that can hold one of its rows. */
async function fullAccount(t: TestApp) {
  const { v, user } = await registeredVisitor(t)
  const token = await makeToken(t, user)
  const profile = await makeProfile(t, user)
  const form = await formsRepository.insert(t.ctx.db, {
    userId: user.id,
    title: 'Contact',
    description: '',
    fields: [{ name: 'name', label: 'Name', type: 'text', required: true }],
    submitLabel: 'Send',
  })
  const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
  await formSubmissionsRepository.insert(t.ctx.db, { formId: form.id, profileId: profile.id, slotId: slot.id, data: { name: 'A visitor' } })
  const image = await solid(300, 200, 'png')
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'me.png')
  const uploaded = await fetch(`${t.url}/v1/files`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } })
  assert.equal(uploaded.status, 201)
  const path = (await t.ctx.db.selectFrom('files').select('path').where('user_id', '=', user.id).where('variant_of', 'is', null).executeTakeFirstOrThrow()).path
  await t.request('PATCH', `/v1/profiles/${profile.login}`, { token, body: { avatar: path } })
  const clientId = `https://agent-${user.id}.example/meta.json`
  await oauthRepository.saveClient(t.ctx.db, { clientId, name: 'Agent', redirectUris: ['http://127.0.0.1:9/cb'] })
  await oauthRepository.upsertGrant(t.ctx.db, user.id, clientId, ['profile:read'])
  const intake = t.ctx.intake
  intake.view({ profileId: profile.id, ip: '10.9.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36', at: new Date() })
  await intake.flush()
  // A change of e-mail waiting for its link.
  await emailChangesRepository.insert(t.ctx.db, {
    userId: user.id,
    newEmail: `new.${user.email}`,
    tokenHash: `pending-${user.id}`,
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  })
  return { v, user, token, profile, path }
}

/** Every row of every table of the store, as JSON text, by table. */
async function everyRow(t: TestApp): Promise<Array<{ table: string; row: Record<string, unknown> }>> {
  const db = t.ctx.db
  const tables = isPostgres(db)
    ? (
        await sql<{
          name: string
        }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db)
      ).rows
    : (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(db)).rows
  const out: Array<{ table: string; row: Record<string, unknown> }> = []
  for (const { name } of tables) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db)).rows
    for (const row of rows) out.push({ table: name, row })
  }
  return out
}

describe(`account lifecycle in the dashboard (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('deletes nothing without the current password (typing the e-mail is not enough), and says so beside the field', async () => {
    const { v, user } = await registeredVisitor(t)
    const page = await v.get('/settings/delete')
    assert.match(page.text, /<input id="f-currentPassword" name="currentPassword" type="password" value="" autocomplete="current-password" required>/)
    for (const fields of [{ confirmEmail: user.email }, { currentPassword: 'not the password' }] as Array<Record<string, string>>) {
      const res = await v.submit('/settings/delete', fields)
      assert.equal(res.status, 422)
      assert.match(res.text, /id="f-currentPassword-error">This is not your current password\./)
    }
    assert.equal((await v.get('/settings')).status, 200)
    assert.ok(await usersRepository.findById(t.ctx.db, user.id))
  })

  it('deletes the account and everything of it in one go: no row names it afterwards, its files are gone, its browser is signed out', async () => {
    const other = await fullAccount(t)
    const { v, user, token, profile, path } = await fullAccount(t)
    const { storage } = t.ctx.media
    assert.ok(await storage.get(path))
    const second = await registeredVisitorSignedInAs(t, user)

    const res = await v.submit('/settings/delete', { currentPassword: 'correct horse battery' })
    assert.equal(res.status, 200)
    assert.match(res.text, /Your account is deleted/)

    const ids = new Set([profile.id])
    const offences = (await everyRow(t)).filter(({ table, row }) => {
      const text = JSON.stringify(row)
      return (
        row.user_id === user.id ||
        (table === 'users' && row.id === user.id) ||
        ids.has(row.profile_id as number) ||
        (table === 'profiles' && ids.has(row.id as number)) ||
        text.includes(user.email) ||
        text.includes(profile.login) ||
        text.includes(path)
      )
    })
    assert.deepEqual(offences, [])
    assert.equal(await storage.get(path), undefined)
    assert.equal((await fetch(`${t.url}/${profile.login}`)).status, 404)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 401)
    assert.equal((await v.get('/settings')).status, 303)
    assert.equal((await second.get('/settings')).status, 303)
    // The other account is whole.
    assert.equal((await other.v.get('/settings')).status, 200)
    assert.ok(await storage.get(other.path))
    assert.equal((await t.request('GET', '/v1/me', { token: other.token })).status, 200)
  })

  it('exports the account, its pages with their blocks, the submissions and the uploads as a zip', async () => {
    const { v, user, profile, path } = await fullAccount(t)
    const res = await fetch(`${t.url}/settings/export`, { headers: { cookie: [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ') } })
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'application/zip')
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="slotline-export-\d{4}-\d{2}-\d{2}\.zip"/)
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const read = (name: string) => JSON.parse(new TextDecoder().decode(files[name]))
    assert.equal(read('account.json').email, user.email)
    assert.ok(!JSON.stringify(read('account.json')).includes('argon2'), 'no password hash')
    const pages = read('pages.json')
    assert.equal(pages[0].login, profile.login)
    assert.equal(pages[0].slots[0].type, 'form')
    assert.deepEqual(read('submissions.json')[0].data, { name: 'A visitor' })
    assert.ok(!JSON.stringify(read('tokens.json')).includes('hash'))
    const stored = files[`uploads/${path}`]
    assert.ok(stored && stored.length > 0)
    // Uploads are stored as processed (EXIF stripped), so they are not the sent bytes; a PNG still.
    assert.deepEqual([...stored.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47])
  })
})

/** A second browser signed in to the same account. */
async function registeredVisitorSignedInAs(t: TestApp, user: User): Promise<Visitor> {
  const v = Visitor.of(t)
  const page = await v.get('/login')
  const res = await v.post('/login', { _csrf: csrfOf(page.text), email: user.email, password: 'correct horse battery' })
  assert.equal(res.status, 303)
  return v
}
