import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { closeContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import type { AppContext } from '../../src/context.ts'
import { STORE } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { type SeparateStore, separateStore } from '../helpers/separate-store.ts'

describe(`cli users set-password (${STORE})`, () => {
  let store: SeparateStore
  let ctx: AppContext
  before(async () => {
    store = await separateStore(STORE, 'slotline-cli-password')
    ctx = await store.open()
  })
  after(async () => {
    await closeContext(ctx)
    await store.remove()
  })

  it('sets the given password and ends the sessions of the user', async () => {
    const user = await accounts.createUser(ctx.db, { email: 'reset@example.test', password: 'the old password' })
    const sessions = ctx.sessions
    // Sessions of the CLI's store (SQL here: the CLI process has no Redis in this test).
    await new Promise<void>((resolve, reject) =>
      sessions.set('a-session-id', { userId: user.id, cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) } } as any, (e) =>
        e ? reject(e) : resolve(),
      ),
    )
    const res = await cli(['users', 'set-password', '--email', 'reset@example.test', '--password', 'the new password'], store.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /Password changed for <reset@example.test>; 1 signed-in session ended/)
    assert.ok(await accounts.signIn(ctx.db, 'reset@example.test', 'the new password'))
    assert.equal(await accounts.signIn(ctx.db, 'reset@example.test', 'the old password'), undefined)
    const left = await new Promise((resolve) => sessions.get('a-session-id', (_e, s) => resolve(s)))
    assert.equal(left, null)
  })

  it('prints a generated password when none is given', async () => {
    await accounts.createUser(ctx.db, { email: 'generated@example.test', password: 'the old password' })
    const res = await cli(['users', 'set-password', '--email', 'generated@example.test'], store.env)
    assert.equal(res.code, 0, res.stderr)
    const password = res.stdout.trim().split('\n').at(-1)!
    assert.ok(await accounts.signIn(ctx.db, 'generated@example.test', password))
  })

  it('fails with a message for an unknown e-mail', async () => {
    const res = await cli(['users', 'set-password', '--email', 'nobody@example.test', '--password', 'whatever pass'], store.env)
    assert.notEqual(res.code, 0)
    assert.match(res.stderr, /No user with e-mail nobody@example.test/)
  })
})
