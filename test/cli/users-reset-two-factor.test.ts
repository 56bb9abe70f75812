import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { closeContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import type { AppContext } from '../../src/context.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { STORE } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { type SeparateStore, separateStore } from '../helpers/separate-store.ts'
import { turnOnCodes } from '../helpers/two-factor.ts'

describe(`cli users reset-two-factor (${STORE})`, () => {
  let store: SeparateStore
  let ctx: AppContext
  before(async () => {
    store = await separateStore(STORE, 'slotline-cli-two-factor')
    ctx = await store.open()
  })
  after(async () => {
    await closeContext(ctx)
    await store.remove()
  })

  it('turns off the codes of a person who lost them, and ends their sessions', async () => {
    const user = await accounts.createUser(ctx.db, { email: 'lost.phone@example.test', password: 'the password' })
    await turnOnCodes(ctx, user, 'the password')
    assert.equal(await useCases.twoFactor.required(ctx, user.id), true)
    await new Promise<void>((resolve, reject) =>
      ctx.sessions.set('a-session-id', { userId: user.id, cookie: { expires: new Date(Date.now() + 60_000) } }, (e) => (e ? reject(e) : resolve())),
    )
    const res = await cli(['users', 'reset-two-factor', '--email', 'lost.phone@example.test'], store.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /Two-factor codes turned off for <lost.phone@example.test>; 1 signed-in session ended/)
    assert.equal(await useCases.twoFactor.required(ctx, user.id), false)
    assert.equal(await new Promise((resolve) => ctx.sessions.get('a-session-id', (_e, s) => resolve(s))), null)
  })

  it('says so when the account had no codes', async () => {
    await accounts.createUser(ctx.db, { email: 'no.codes@example.test', password: 'the password' })
    const res = await cli(['users', 'reset-two-factor', '--email', 'no.codes@example.test'], store.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /had no two-factor codes/)
  })
})
