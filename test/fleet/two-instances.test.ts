import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import sharp from 'sharp'
import { schedulePeriodic } from '../../src/jobs/periodic-job.ts'
import { analyticsRepository } from '../../src/store/analytics.ts'
import { makeAccount, makeProfile, STORE } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'
import { type Fleet, startFleet } from './fleet.ts'

const onlyOnPostgres = {
  skip: STORE !== 'postgres' && 'needs TEST_DATABASE_URL and TEST_REDIS_URL: a fleet shares one PostgreSQL database and one Redis',
}
const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }
const button = (title: string) => ({ type: 'button', data: { title, link: 'https://example.com/fleet' } })

type Instance = Fleet['instances'][number]
/** GET /<login> from one instance as a browser, again every 20 ms (up to `tries` more times) until `done` holds. */
async function pageUntil(instance: Instance, login: string, tries: number, done: (r: Awaited<ReturnType<Instance['request']>>) => boolean) {
  let res = await instance.request('GET', `/${login}`, { headers: browser })
  for (let i = 0; i < tries && !done(res); i++) {
    await sleep(20)
    res = await instance.request('GET', `/${login}`, { headers: browser })
  }
  return res
}

describe('two instances behind a round-robin proxy (PostgreSQL + Redis + S3), rate limited', onlyOnPostgres, () => {
  const perMinute = 10
  let fleet: Fleet
  before(async () => {
    fleet = await startFleet({ RATE_LIMIT_PER_MINUTE: String(perMinute), RATE_LIMIT_PER_SECOND: '0' })
  })
  after(() => fleet?.close())

  it('allows one token exactly RATE_LIMIT_PER_MINUTE requests across both instances, then answers 429 with Retry-After', async () => {
    const { token } = await makeAccount(fleet.instances[0])
    // One at a time, so the proxy alternates: half the requests reach each instance.
    for (let i = 0; i < perMinute; i++) assert.equal((await fleet.request('GET', '/v1/me', { token })).status, 200, `request ${i + 1}`)
    const refused = await fleet.request('GET', '/v1/me', { token })
    assert.equal(refused.status, 429)
    assert.equal(refused.body.code, 'rate_limited')
    assert.ok(Number(refused.headers['retry-after']) >= 1, `Retry-After: ${refused.headers['retry-after']}`)
    // perMinute + 1 requests, taken in turn, starting with A.
    assert.deepEqual(fleet.proxy.served, [Math.ceil((perMinute + 1) / 2), Math.floor((perMinute + 1) / 2)])
  })
})

describe('two instances behind a round-robin proxy (PostgreSQL + Redis + S3)', onlyOnPostgres, () => {
  let fleet: Fleet
  before(async () => {
    fleet = await startFleet()
  })
  after(() => fleet?.close())

  it('stores one slot for 50 parallel creates with one Idempotency-Key and gives every caller that slot', async () => {
    const [a] = fleet.instances
    const { user, token } = await makeAccount(a)
    const profile = await makeProfile(a, user)
    const servedBefore = [...fleet.proxy.served]
    const headers = { 'idempotency-key': 'fleet-create-once' }
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fleet.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: button('Once'), headers })),
    )
    assert.deepEqual(
      fleet.proxy.served.map((n, i) => n - servedBefore[i]),
      [25, 25],
    )
    // A repeat waits for the first to finish (src/http/idempotency.ts); 409 only past its 10 s wait.
    const created = answers.filter((r) => r.status === 201)
    const inProgress = answers.filter((r) => r.status === 409)
    assert.equal(created.length + inProgress.length, 50, `statuses: ${answers.map((r) => r.status)}`)
    for (const r of inProgress) assert.equal(r.body.code, 'idempotency_in_progress')
    assert.equal(created.filter((r) => r.headers['idempotent-replayed'] !== 'true').length, 1)
    const ids = new Set(created.map((r) => r.body.data.id))
    assert.equal(ids.size, 1)
    const stored = (await fleet.request('GET', `/v1/profiles/${profile.id}/slots`, { token })).body.data
    assert.deepEqual(
      stored.map((slot: { id: number }) => slot.id),
      [...ids],
    )
  })

  it("refreshes the other instance's cached public page after a write through one", async () => {
    const [a, b] = fleet.instances
    const { user, token } = await makeAccount(a)
    const profile = await makeProfile(a, user)
    assert.equal((await a.request('PATCH', `/v1/profiles/${profile.id}`, { token, body: { title: 'Before' } })).status, 200)
    // Warm B's cache until a GET is a hit, answered before Fastify (so without x-request-id). The
    // messages for A's create and PATCH reach B over Redis after A has answered, so one of them
    // may land after B's first render and drop it: that is B being careful, not stale.
    const warm = await pageUntil(b, profile.login, 50, (r) => r.headers['x-request-id'] === undefined)
    assert.match(warm.text, /<title>Before<\/title>/)
    assert.equal(warm.headers['x-request-id'], undefined, 'served from the page cache')

    assert.equal((await a.request('PATCH', `/v1/profiles/${profile.id}`, { token, body: { title: 'After' } })).status, 200)
    // The change reaches B over Redis publish/subscribe, which the PATCH answer does not wait
    // for (src/pages/page-invalidation.ts): B may serve its copy until the message lands.
    const fresh = await pageUntil(b, profile.login, 250, (r) => r.text.includes('<title>After</title>'))
    assert.equal(fresh.status, 200)
    assert.match(fresh.text, /<title>After<\/title>/)
  })

  it('serves a file uploaded through one instance from the other (one S3 bucket)', async () => {
    const [a, b] = fleet.instances
    assert.ok(a.ctx.config.s3 && b.ctx.config.s3, 'both instances store files in S3')
    assert.notEqual(a.ctx.config.dataDir, b.ctx.config.dataDir)
    const { token } = await makeAccount(a)
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'small.png')
    const uploaded = await fetch(`${a.url}/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
    assert.equal(uploaded.status, 201)
    const { src } = ((await uploaded.json()) as { data: { src: string } }).data
    assert.ok(src.startsWith(`${fleet.proxy.url}/static/`), `src ${src} is under PUBLIC_URL`)
    const fromA = await fetch(new URL(new URL(src).pathname, a.url))
    const fromB = await fetch(new URL(new URL(src).pathname, b.url))
    assert.equal(fromB.status, 200)
    assert.equal(fromB.headers.get('content-type'), 'image/png')
    assert.deepEqual(Buffer.from(await fromB.arrayBuffer()), Buffer.from(await fromA.arrayBuffer()))
  })

  it('keeps a dashboard session signed in on A signed in on B', async () => {
    const [a, b] = fleet.instances
    const { user } = await makeAccount(a)
    const profile = await makeProfile(a, user)
    const onA = new Visitor(a.url)
    await onA.signIn(user.email)
    const onB = new Visitor(b.url)
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value)
    const page = await onB.get('/my-links')
    assert.equal(page.status, 200)
    assert.ok(page.text.includes(profile.login), 'the signed-in dashboard lists the account page')
    assert.equal((await new Visitor(b.url).get('/my-links')).status, 303, 'without the cookie B sends the visitor to sign in')
  })

  it('runs a periodic job once per period in the whole fleet, however often both instances tick', async () => {
    const runs: string[] = []
    // A long period, so every tick below falls inside one (timers take at most 2^31 - 1 ms, ~24.8 days).
    const everyMs = 20 * 86_400_000
    const ticks = fleet.instances.map((instance, i) =>
      schedulePeriodic(instance.ctx, {
        name: 'fleet-test',
        everyMs,
        run: async () => {
          runs.push('AB'[i])
          return undefined
        },
      }),
    )
    for (let round = 0; round < 5; round++) await Promise.all(ticks.map((tick) => tick.runNow()))
    assert.equal(runs.length, 1, `runs: ${runs}`)
    const leases = await fleet.instances[0].ctx.redis!.exists(`slotline:job:fleet-test:${Math.floor(Date.now() / everyMs)}`)
    assert.equal(leases, 1, 'the period is leased in the shared Redis')
  })

  // Last: it closes instance A.
  it('loses and double-counts no view or click when an instance closes as on SIGTERM', async () => {
    const [a, b] = fleet.instances
    const { user, token } = await makeAccount(a)
    const profile = await makeProfile(a, user)
    const slot = (await fleet.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: button('Go') })).body.data
    const views = 40
    const clicks = 30
    const servedBefore = [...fleet.proxy.served]
    for (let i = 0; i < views; i++) assert.equal((await fleet.request('GET', `/${profile.login}`, { headers: browser })).status, 200)
    for (let i = 0; i < clicks; i++) {
      assert.equal((await fleet.request('GET', `/-/go/${profile.id}/${slot.id}/0`, { headers: browser })).status, 302)
    }
    assert.deepEqual(
      fleet.proxy.served.map((n, i) => n - servedBefore[i]),
      [(views + clicks) / 2, (views + clicks) / 2],
    )

    await a.close()
    await b.ctx.intake.flush()
    const days = await analyticsRepository.readDailyCounts(b.ctx.db, [profile.id], '2000-01-01', '2100-01-01')
    assert.equal(
      days.reduce((n, d) => n + d.views, 0),
      views,
    )
    assert.equal(
      days.reduce((n, d) => n + d.clicks, 0),
      clicks,
    )
  })
})
