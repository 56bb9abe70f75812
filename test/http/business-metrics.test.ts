import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import { accounts } from '../../src/auth/accounts.ts'
import { buildApp, closeContext, createContext } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { readableRoute } from '../../src/http/metrics-route.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { DISCOVERY_UPC } from '../music/fakes/fixtures.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'

/** The value of one sample in a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `))
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.request('GET', '/-/metrics')
  assert.equal(res.status, 200)
  return res.text
}

describe('readableRoute', () => {
  it('drops the regular expressions of parameters', () => {
    assert.equal(readableRoute('/:login(^[a-zA-Z0-9._]{4,60}$)'), '/:login')
    assert.equal(readableRoute('/:login(^[a-z]{4,60}$)/qr.svg'), '/:login/qr.svg')
    assert.equal(readableRoute('/v1/profiles/:profileKey/slots'), '/v1/profiles/:profileKey/slots')
    assert.equal(readableRoute(undefined), 'unmatched')
  })
})

describe(`Business counters on /-/metrics (${STORE})`, () => {
  let t: TestApp
  let fakes: FakeUpstreams
  let token: string
  let profileId: number
  const login = 'counted.page'
  const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }

  before(async () => {
    fakes = await startFakeUpstreams()
    t = await startApp({ ...fakes.env })
    const account = await makeAccount(t)
    token = account.token
    profileId = (await makeProfile(t, account.user, login)).id
  })
  after(async () => {
    await t.close()
    await fakes.close()
  })

  it('counts page views, cache misses and hits, fast-path answers included, under a readable route', async () => {
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    const before = await scrape(t)
    const first = await fetch(`${t.url}/${login}`, { headers: browser })
    assert.ok(first.headers.get('x-request-id'), 'rendered through Fastify')
    await first.arrayBuffer()
    for (let i = 0; i < 3; i++) {
      const hit = await fetch(`${t.url}/${login}`, { headers: browser })
      assert.equal(hit.headers.get('x-request-id'), null, 'answered before Fastify')
      await hit.arrayBuffer()
    }
    const bot = await fetch(`${t.url}/${login}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })
    await bot.arrayBuffer()
    const now = await scrape(t)
    const delta = (name: string, labels = '') => sample(now, name, labels) - sample(before, name, labels)
    assert.equal(delta('slotline_page_cache_misses_total'), 1)
    assert.equal(delta('slotline_page_cache_hits_total'), 4)
    assert.equal(delta('slotline_page_views_total'), 4, 'people, not the bot')
    assert.equal(delta('slotline_http_requests_total', 'method="GET",route="/:login",status="200"'), 5)
    assert.doesNotMatch(now, /route="[^"]*\(/, 'no regular expression in a route label')
    // A second scrape adds nothing that did not happen.
    const again = await scrape(t)
    assert.equal(
      sample(again, 'slotline_http_requests_total', 'method="GET",route="/:login",status="200"'),
      sample(now, 'slotline_http_requests_total', 'method="GET",route="/:login",status="200"'),
    )
    assert.equal(sample(again, 'slotline_page_cache_hits_total'), sample(now, 'slotline_page_cache_hits_total'))
  })

  it('counts clicks through the redirect', async () => {
    const slot = await t.request('POST', `/v1/profiles/${profileId}/slots`, {
      token,
      body: { type: 'button', data: { title: 'Shop', link: 'https://shop.example' } },
    })
    assert.equal(slot.status, 201, slot.text)
    const before = sample(await scrape(t), 'slotline_clicks_total')
    const res = await t.request('GET', `/-/go/${profileId}/${slot.body.data.id}/0`, { headers: browser })
    assert.equal(res.status, 302)
    await t.ctx.intake.flush()
    assert.equal(sample(await scrape(t), 'slotline_clicks_total') - before, 1)
  })

  it('counts slot writes, not their dry runs, and idempotent replays apart', async () => {
    const route = `method="POST",route="/v1/profiles/:profileKey/slots"`
    const before = await scrape(t)
    const body = { type: 'divider', data: {} }
    const dry = await t.request('POST', `/v1/profiles/${profileId}/slots`, { token, body, headers: { precognition: 'true' } })
    assert.equal(dry.status, 204)
    const headers = { 'idempotency-key': `metrics-${Date.now()}` }
    const created = await t.request('POST', `/v1/profiles/${profileId}/slots`, { token, body, headers })
    assert.equal(created.status, 201, created.text)
    const replayed = await t.request('POST', `/v1/profiles/${profileId}/slots`, { token, body, headers })
    assert.equal(replayed.headers['idempotent-replayed'], 'true')
    const now = await scrape(t)
    assert.equal(sample(now, 'slotline_slot_writes_total', route) - sample(before, 'slotline_slot_writes_total', route), 1)
    assert.equal(sample(now, 'slotline_idempotent_replays_total') - sample(before, 'slotline_idempotent_replays_total'), 1)
  })

  it('counts upstream failures by provider', async () => {
    fakes.reset()
    fakes.deezer.mode = 'down'
    fakes.itunes.mode = 'down'
    fakes.odesli.mode = 'down'
    const before = await scrape(t)
    const res = await t.request('GET', `/v1/music/lookup?query=${DISCOVERY_UPC}`, { token })
    assert.equal(res.status, 503, res.text)
    const now = await scrape(t)
    assert.ok(sample(now, 'slotline_upstream_failures_total', 'provider="deezer"') > sample(before, 'slotline_upstream_failures_total', 'provider="deezer"'))
    fakes.reset()
  })
})

describe(`Rate-limit refusals on /-/metrics (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '1' })
  })
  after(() => t.close())

  it('counts 429s by route', async () => {
    const { token } = await makeAccount(t)
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/v1/me', { token })).status)
    assert.ok(statuses.includes(429), statuses.join())
    const text = await scrape(t)
    assert.equal(sample(text, 'slotline_rate_limit_refusals_total', 'route="/v1/me"'), statuses.filter((s) => s === 429).length)
  })
})

describe('Logs of expected upstream failures', () => {
  it('are one warning naming what failed, without a stack', async () => {
    const fakes = await startFakeUpstreams()
    const lines: Array<Record<string, unknown>> = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l))
        done()
      },
    })
    // Its own SQLite app: the assertion is about the log, which startApp keeps silent.
    const dataDir = mkdtempSync(join(tmpdir(), 'slotline-log-'))
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_MUSIC_PER_MINUTE: '0',
      RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
      ...fakes.env,
    })
    const ctx = await createContext(config, { logger: pino({ level: 'info' }, sink), sqliteFile: ':memory:' })
    const app = await buildApp(ctx)
    try {
      await app.ready()
      const user = await accounts.createUser(ctx.db, { email: 'log@example.test', password: 'long enough pw', name: 'Log' })
      const { token } = await accounts.createToken(ctx.db, user.id, { name: 'log' })
      fakes.deezer.mode = 'down'
      fakes.itunes.mode = 'down'
      fakes.odesli.mode = 'down'
      const res = await app.inject({ method: 'GET', url: `/v1/music/lookup?query=${DISCOVERY_UPC}`, headers: { authorization: `Bearer ${token}` } })
      assert.equal(res.statusCode, 503)
      const logged = lines.find((l) => l.code === 'upstream_unavailable')
      assert.ok(logged, JSON.stringify(lines))
      assert.equal(logged.level, 40)
      assert.match(String(logged.cause), /deezer/)
      assert.equal(JSON.stringify(logged).includes('    at '), false, 'no stack trace')
      assert.equal(lines.filter((l) => Number(l.level) >= 50).length, 0, 'nothing at error level')
    } finally {
      await app.close()
      await closeContext(ctx)
      await fakes.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
