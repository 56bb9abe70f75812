import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'
import { httpClient, startFleet } from './fleet.ts'

// issue 31: "the public page cache turns over exactly at the next boundary on every instance".
// Both instances hold the page in memory (answered by the fast path, no request id) when a
// block's endsAt passes; no write happens, no message is sent, and the next answer of each
// leaves the block out. On PostgreSQL: the fleet (two instances, one database and Redis); on
// SQLite: two instances on one database file.

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }

interface Two {
  a: TestApp
  b: { request: TestApp['request'] }[]
  close: () => Promise<void>
}

async function twoInstances(): Promise<Two> {
  if (STORE === 'postgres') {
    const fleet = await startFleet()
    return { a: fleet.instances[0], b: fleet.instances.map((i) => ({ request: httpClient(i.url) })), close: () => fleet.close() }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-two-'))
  const first = await startApp({ DATA_DIR: dataDir })
  const second = await startApp({ DATA_DIR: dataDir })
  return {
    a: first,
    b: [first, second].map((i) => ({ request: httpClient(i.url) })),
    close: async () => {
      await second.close()
      await first.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

describe(`a block's endsAt reached while its page is cached on two instances (${STORE})`, () => {
  let two: Two
  before(async () => {
    two = await twoInstances()
  })
  after(() => two?.close())

  it('leaves the block out on both instances from that moment, with no write in between', async () => {
    const { user, token } = await makeAccount(two.a)
    const profile = await makeProfile(two.a, user)
    const base = `/v1/profiles/${profile.id}/slots`
    const stays = await two.a.request('POST', base, { token, body: { type: 'button', data: { title: 'Stays', link: 'https://example.com/stays' } } })
    // Far enough ahead for both instances to render and cache the page first.
    const endsAt = new Date(Date.now() + 3000).toISOString()
    const brief = await two.a.request('POST', base, {
      token,
      body: { type: 'button', data: { title: 'Brief', link: 'https://example.com/brief' }, visibility: { endsAt } },
    })
    assert.equal(brief.status, 201, brief.text)
    const has = (text: string, id: number) => text.includes(`id="slot-${id}"`)

    for (const [i, instance] of two.b.entries()) {
      await instance.request('GET', `/${profile.login}`, { headers: browser })
      const cached = await instance.request('GET', `/${profile.login}`, { headers: browser })
      assert.equal(cached.headers['x-request-id'], undefined, `instance ${i} answered from its cache`)
      assert.ok(has(cached.text, brief.body.data.id), `instance ${i} shows the block before endsAt`)
    }
    assert.ok(Date.now() < Date.parse(endsAt), 'the page was cached on both before endsAt (raise the margin on a slow machine)')

    await sleep(Date.parse(endsAt) - Date.now() + 5)
    for (const [i, instance] of two.b.entries()) {
      const after = await instance.request('GET', `/${profile.login}`, { headers: browser })
      assert.equal(after.status, 200)
      assert.ok(!has(after.text, brief.body.data.id), `instance ${i} leaves the ended block out`)
      assert.ok(has(after.text, stays.body.data.id), `instance ${i} still shows the other block`)
      const click = await instance.request('GET', `/-/go/${profile.id}/${brief.body.data.id}/0`, { headers: browser })
      assert.equal(click.status, 404, `instance ${i}: the ended block's click address`)
    }
  })
})
