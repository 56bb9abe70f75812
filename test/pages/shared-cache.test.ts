import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { registeredVisitor } from '../helpers/dashboard.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { TestEdge } from '../helpers/shared-cache.ts'
import { BROWSER_UA } from './page-fixtures.ts'

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }
const FRESH = 40
const STALE = 20

async function views(t: TestApp, token: string, profileId: number): Promise<number> {
  await t.ctx.intake.flush()
  const res = await t.request('GET', `/v1/profiles/${profileId}/analytics?period=today&compare=false`, { token })
  assert.equal(res.status, 200, res.text)
  return res.body.data.totals.views
}

describe(`public answers behind a CDN, PUBLIC_CACHE_SECONDS=60 (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  const login = `cdn_${Date.now().toString(36)}`

  before(async () => {
    t = await startApp({ PUBLIC_CACHE_SECONDS: String(FRESH + STALE) })
    const account = await makeAccount(t)
    token = account.token
    profileId = (await makeProfile(t, account.user, login)).id
    const res = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'First title' } })
    assert.equal(res.status, 200, res.text)
  })
  after(() => t.close())

  it('gives the page, its markdown view and its images s-maxage, stale-while-revalidate, a strong ETag and the page as purge keys', async () => {
    const keys = `page-${profileId} login-${login}`
    for (const accept of ['text/html', 'text/markdown']) {
      const res = await fetch(`${t.url}/${login}`, { headers: { ...browser, accept } })
      assert.equal(res.status, 200)
      assert.equal(res.headers.get('cache-control'), `public, max-age=0, s-maxage=${FRESH}, stale-while-revalidate=${STALE}`, accept)
      assert.match(res.headers.get('etag') ?? '', /^"[\w-]{27}(-gzip|-br)?"$/, accept)
      assert.equal(res.headers.get('surrogate-key'), keys, accept)
      assert.equal(res.headers.get('cache-tag'), keys.replace(' ', ','), accept)
      const again = await fetch(`${t.url}/${login}`, { headers: { ...browser, accept, 'if-none-match': res.headers.get('etag')! } })
      assert.equal(again.status, 304, accept)
      assert.equal(again.headers.get('surrogate-key'), keys, accept)
    }
    const qr = await fetch(`${t.url}/${login}/qr.svg`)
    assert.equal(qr.status, 200)
    assert.equal(qr.headers.get('cache-control'), `public, max-age=${FRESH}, s-maxage=${FRESH}, stale-while-revalidate=${STALE}`)
    assert.equal(qr.headers.get('surrogate-key'), keys)
    assert.match(qr.headers.get('etag') ?? '', /^"[\w-]+"$/)
  })

  it('shows a change through the CDN within s-maxage + stale-while-revalidate, and at once after a purge', async () => {
    const edge = new TestEdge(t.url, browser)
    const title = (body: string) => /<title>([^<]*)<\/title>/.exec(body)?.[1]
    assert.deepEqual([(await edge.get(`/${login}`)).via, title((await edge.get(`/${login}`)).body)], ['MISS', 'First title'])

    assert.equal((await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Second title' } })).status, 200)
    edge.now = FRESH
    const fresh = await edge.get(`/${login}`)
    assert.deepEqual([fresh.via, title(fresh.body)], ['HIT', 'First title'], 'a CDN keeps the page for s-maxage')

    edge.now = FRESH + 1
    const stale = await edge.get(`/${login}`)
    assert.deepEqual([stale.via, title(stale.body)], ['STALE', 'First title'])
    await edge.settled()
    const next = await edge.get(`/${login}`)
    assert.deepEqual([next.via, title(next.body)], ['HIT', 'Second title'], 'revalidated behind the stale answer')

    // A page nobody asked for in a while: past both windows the CDN must ask first.
    assert.equal((await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Third title' } })).status, 200)
    edge.now += FRESH + STALE + 1
    const late = await edge.get(`/${login}`)
    assert.deepEqual([late.via, title(late.body)], ['MISS', 'Third title'])

    assert.equal((await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Fourth title' } })).status, 200)
    assert.equal(edge.purge(`page-${profileId}`), 1)
    assert.equal(title((await edge.get(`/${login}`)).body), 'Fourth title')
  })

  it('counts views by the page counting request, which no cache keeps, not by CDN-cacheable page GETs', async () => {
    const edge = new TestEdge(t.url, browser)
    const before = await views(t, token, profileId)
    const page = await edge.get(`/${login}`)
    const pixel = /<img src="(\/-\/seen\/\d+\.gif)"/.exec(page.body)?.[1]
    assert.equal(pixel, `/-/seen/${profileId}.gif`)
    await edge.get(`/${login}`)
    assert.equal(await views(t, token, profileId), before, 'the page GETs themselves count nothing')

    for (let i = 0; i < 3; i++) {
      const seen = await edge.get(pixel!)
      assert.deepEqual(
        [seen.status, seen.via, seen.headers.get('cache-control'), seen.headers.get('content-type')],
        [200, 'MISS', 'private, no-store', 'image/gif'],
      )
    }
    assert.equal(await views(t, token, profileId), before + 3)
    assert.equal((await fetch(`${t.url}/-/seen/999999999.gif`, { headers: browser })).status, 404)
  })

  it('never lets a shared cache keep an unpublished page, an API answer or a dashboard page', async () => {
    const hidden = await makeProfile(t, (await makeAccount(t)).user)
    await profilesRepository.update(t.ctx.db, hidden.id, { status: false })
    const gone = await fetch(`${t.url}/${hidden.login}`, { headers: browser })
    assert.equal(gone.status, 404)
    assert.match(gone.headers.get('cache-control') ?? '', /no-store/)
    assert.equal((await fetch(`${t.url}/-/seen/${hidden.id}.gif`, { headers: browser })).status, 404)

    for (const path of ['/v1/me', `/v1/profiles/${profileId}`, `/v1/profiles/${profileId}/slots`]) {
      const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
      assert.equal(res.status, 200, path)
      assert.equal(res.headers.get('cache-control'), 'private, no-store', path)
    }
    const refused = await fetch(`${t.url}/v1/me`)
    assert.equal(refused.headers.get('cache-control'), 'private, no-store')

    const { v } = await registeredVisitor(t)
    for (const path of ['/', '/settings']) {
      const res = await v.get(path)
      // A page is `private, no-store`; a redirect (the dashboard's home) at least `no-store`.
      assert.ok(res.status === 200 || res.status === 303, `${path}: ${res.status}`)
      assert.match(res.headers.get('cache-control') ?? '', res.status === 200 ? /^private, no-store$/ : /^(private, )?no-store$/, path)
    }
  })
})

describe(`public pages without a CDN, the default (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('lets no shared cache keep pages (every GET is a view), still names the page for purging and adds no counting request', async () => {
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user)
    const res = await fetch(`${t.url}/${profile.login}`, { headers: browser })
    assert.equal(res.headers.get('cache-control'), 'no-cache')
    assert.equal(res.headers.get('surrogate-key'), `page-${profile.id} login-${profile.login.toLowerCase()}`)
    assert.doesNotMatch(await res.text(), /\/-\/seen\//)
    assert.equal((await fetch(`${t.url}/-/seen/${profile.id}.gif`, { headers: browser })).status, 404)
  })
})
