import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { cardVersion } from '../../src/rendering/social-card-url.ts'
import { customDomainsRepository } from '../../src/store/custom-domains.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`pages on their own domains (${STORE})`, () => {
  let t: TestApp
  let token: string
  let login: string
  let profileId: number
  let other: string
  before(async () => {
    t = await startApp({ PUBLIC_URL: 'http://slotline.test' })
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user, 'maralind')
    login = profile.login
    profileId = profile.id
    await profilesRepository.update(t.ctx.db, profile.id, { title: 'Maralind', socials: [{ link: 'https://mastodon.social/@maralind', order: 0 }] })
    other = (await makeProfile(t, (await makeAccount(t)).user, 'somebody_else')).login
    const d = await customDomainsRepository.create(t.ctx.db, { profileId, name: 'maralind.test', token: 'x' })
    await customDomainsRepository.update(t.ctx.db, d.id, { state: 'active' })
    const pending = await customDomainsRepository.create(t.ctx.db, {
      profileId: (await makeProfile(t, (await makeAccount(t)).user)).id,
      name: 'pending.test',
      token: 'x',
    })
    assert.equal(pending.state, 'pending')
  })
  after(() => t.close())

  const on = (host: string, url: string, extra: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...extra } })

  it('serves the page at / of its active domain, with the domain as canonical and og:url', async () => {
    const res = await on('maralind.test', '/')
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /<link rel="canonical" href="https:\/\/maralind\.test\/">/)
    assert.match(res.body, /<meta property="og:url" content="https:\/\/maralind\.test\/">/)
    assert.match(res.body, /Maralind/)
    const markdown = await on('maralind.test', '/', { accept: 'text/markdown' })
    assert.equal(markdown.statusCode, 200)
    assert.match(String(markdown.headers['content-type']), /^text\/markdown/)
    // The same again, from the page cache.
    assert.equal((await on('MARALIND.test:443', '/')).statusCode, 200)
  })

  it('answers the old address with a permanent redirect to the domain, from the cache too', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${t.url}/${login}`, { redirect: 'manual' })
      assert.equal(res.status, 301)
      assert.equal(res.headers.get('location'), 'https://maralind.test/')
    }
  })

  it('draws the QR code of the domain, on the domain and at the old address', async () => {
    const onDomain = await on('maralind.test', '/qr.svg')
    assert.equal(onDomain.statusCode, 200)
    const old = await t.request('GET', `/${login}/qr.svg`)
    assert.equal(old.status, 200)
    assert.equal(old.text, onDomain.body, 'both encode https://maralind.test/')
    assert.equal(onDomain.headers['cache-control'], old.headers['cache-control'])
    assert.equal(onDomain.headers['surrogate-key'], old.headers['surrogate-key'])
    assert.ok(onDomain.headers['surrogate-key'])
  })

  it('draws the share card with the domain, under a URL that names it', async () => {
    const res = await on('maralind.test', '/')
    const image = /<meta property="og:image" content="([^"]+)">/.exec(res.body)?.[1]
    assert.ok(image, 'the page has a share card')
    const profile = (await profilesRepository.findById(t.ctx.db, profileId))!
    assert.equal(image, `http://slotline.test/-/card/${profileId}/${cardVersion(profile, 'https://maralind.test/')}.png`)
    assert.notEqual(cardVersion(profile, 'https://maralind.test/'), cardVersion(profile, `http://slotline.test/${login}`))
    const card = await on('maralind.test', new URL(image).pathname)
    assert.equal(card.statusCode, 200)
    assert.equal(card.headers['content-type'], 'image/png')
  })

  it('sends /<its login> on the domain to /, and lets its clicks, cards and files through', async () => {
    const res = await on('maralind.test', `/${login}`)
    assert.equal(res.statusCode, 301)
    assert.equal(res.headers.location, '/')
    const click = await on('maralind.test', `/-/go/${profileId}/s0`)
    assert.equal(click.statusCode, 302)
    assert.equal(click.headers.location, 'https://mastodon.social/@maralind')
    assert.equal((await on('maralind.test', '/favicon.ico')).statusCode, 200)
  })

  it('never exposes another page, the dashboard, the API, OAuth or MCP on a custom domain', async () => {
    for (const path of [
      `/${other}`,
      '/login',
      '/register',
      '/settings',
      '/v1/me',
      '/v1/openapi.json',
      '/mcp',
      '/oauth/authorize',
      '/.well-known/oauth-authorization-server',
      '/my-links',
      `/-/go/${profileId + 1}/s0`,
    ]) {
      const res = await on('maralind.test', path, { authorization: `Bearer ${token}` })
      assert.equal(res.statusCode, 404, path)
      assert.match(String(res.headers['content-type']), /^text\/html/, path)
      assert.doesNotMatch(res.body, /somebody_else|Maralind/, path)
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { host: 'maralind.test', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{}',
    })
    assert.equal(post.statusCode, 404)
  })

  it('answers a plain 404 page to unknown and pending hosts, never a page', async () => {
    for (const host of ['unknown.test', 'pending.test', 'www.maralind.test']) {
      for (const path of ['/', `/${login}`, '/v1/me', '/login']) {
        const res = await on(host, path)
        assert.equal(res.statusCode, 404, `${host}${path}`)
        assert.doesNotMatch(res.body, /Maralind/)
      }
    }
  })

  it('keeps serving the page on the service’s own host names', async () => {
    const own = await t.app.inject({ method: 'GET', url: `/${other}`, headers: { host: 'slotline.test' } })
    assert.equal(own.statusCode, 200)
    assert.equal((await fetch(`${t.url}/${other}`)).status, 200)
  })
})
