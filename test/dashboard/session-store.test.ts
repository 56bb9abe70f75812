import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Session } from '../../src/auth/dashboard-sessions.ts'
import { sha256 } from '../../src/auth/secrets.ts'
import type { DashboardSessionStore } from '../../src/auth/dashboard-sessions.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

const DAY = 86_400_000
const session = (fields: Record<string, unknown>, expiresInMs = 14 * DAY) =>
  ({
    cookie: { originalMaxAge: expiresInMs, expires: new Date(Date.now() + expiresInMs).toISOString(), httpOnly: true, path: '/' },
    ...fields,
  }) as unknown as Session

const call = <T>(fn: (cb: (err?: unknown, value?: T) => void) => void) =>
  new Promise<T | undefined>((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))))

describe(`dashboard session store (${STORE === 'postgres' ? 'Redis' : 'SQL'})`, () => {
  let t: TestApp
  let store: DashboardSessionStore
  before(async () => {
    t = await startApp()
    store = t.ctx.sessions
  })
  after(() => t.close())

  /** Milliseconds the stored record has left. */
  async function ttlOf(id: string): Promise<number> {
    if (t.ctx.redis) return t.ctx.redis.pttl(`session:${sha256(id)}`)
    const row = await t.ctx.db.selectFrom('sessions').select('expires_at').where('id_hash', '=', sha256(id)).executeTakeFirstOrThrow()
    return Date.parse(row.expires_at) - Date.now()
  }

  it('stores by digest: the raw id appears nowhere in the store', async () => {
    await call((cb) => store.set('raw-session-id-1', session({ _csrf: 'secret' }), cb))
    const got = await call<Session | null>((cb) => store.get('raw-session-id-1', cb))
    assert.equal((got as any)._csrf, 'secret')
    if (t.ctx.redis) assert.deepEqual(await t.ctx.redis.keys('*raw-session-id-1*'), [])
    else assert.equal((await t.ctx.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', 'raw-session-id-1').execute()).length, 0)
  })

  it('keeps a visitor’s record two hours and a signed-in one as long as its cookie', async () => {
    const user = await makeUser(t)
    await call((cb) => store.set('visitor-1', session({ _csrf: 's' }), cb))
    await call((cb) => store.set('member-1', session({ userId: user.id }), cb))
    assert.ok((await ttlOf('visitor-1')) <= 2 * 3600_000)
    assert.ok((await ttlOf('member-1')) > 13 * DAY)
  })

  it('ends every session of a user but the one kept, and no one else’s', async () => {
    const [user, other] = [await makeUser(t), await makeUser(t)]
    for (const id of ['u-a', 'u-b', 'u-c']) await call((cb) => store.set(id, session({ userId: user.id }), cb))
    await call((cb) => store.set('o-a', session({ userId: other.id }), cb))
    assert.equal(await store.endAllFor(user.id, 'u-b'), 2)
    const left = async (id: string) => (await call<Session | null>((cb) => store.get(id, cb))) ?? null
    assert.equal(await left('u-a'), null)
    assert.notEqual(await left('u-b'), null)
    assert.equal(await left('u-c'), null)
    assert.notEqual(await left('o-a'), null)
    await call((cb) => store.destroy('u-b', cb))
    assert.equal(await left('u-b'), null)
  })
})
