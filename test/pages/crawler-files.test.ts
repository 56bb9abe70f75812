import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { customDomainsRepository } from '../../src/store/custom-domains.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const MAIN = 'http://slotline.test'
const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' })

/** The document parsed, once it is checked to be well-formed XML in the sitemap namespace. */
function readXml(text: string): any {
  assert.equal(XMLValidator.validate(text), true, text)
  assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/)
  assert.match(text, /xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9"/)
  return parser.parse(text)
}

describe(`robots.txt and sitemap.xml per host (${STORE})`, () => {
  let t: TestApp
  const published: string[] = []
  let user: Awaited<ReturnType<typeof makeAccount>>['user']
  before(async () => {
    // Three addresses per file, so a handful of pages already needs an index.
    t = await startApp({ PUBLIC_URL: MAIN }, { app: { sitemapUrlsPerFile: 3 } })
    user = (await makeAccount(t)).user
  })
  after(() => t.close())

  const on = (host: string, url: string) => t.app.inject({ method: 'GET', url, headers: { host } })
  const page = async (login: string) => {
    const profile = await makeProfile(t, user, login)
    published.push(`${MAIN}/${login}`)
    return profile
  }
  const hidden = async (login: string) => profilesRepository.update(t.ctx.db, (await makeProfile(t, user, login)).id, { status: false })
  const onDomain = async (login: string, name: string, state: 'active' | 'pending') => {
    const profile = await makeProfile(t, user, login)
    const d = await customDomainsRepository.create(t.ctx.db, { profileId: profile.id, name, token: 'x' })
    if (state === 'active') await customDomainsRepository.update(t.ctx.db, d.id, { state })
    return profile
  }

  /** Every address the main host's sitemap lists, following its index when it has one. */
  async function listed(): Promise<string[]> {
    const res = await on('slotline.test', '/sitemap.xml')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
    const doc = readXml(res.body)
    if ('urlset' in doc) return (doc.urlset.url ?? []).map((u: any) => u.loc)
    const all: string[] = []
    for (const { loc } of doc.sitemapindex.sitemap) {
      assert.match(loc, /^http:\/\/slotline\.test\/sitemap-\d+\.xml$/)
      const file = await on('slotline.test', new URL(loc).pathname)
      assert.equal(file.statusCode, 200)
      const urls = readXml(file.body).urlset.url ?? []
      assert.ok(urls.length >= 1 && urls.length <= 3, `${loc}: ${urls.length} addresses`)
      all.push(...urls.map((u: any) => u.loc))
    }
    return all
  }

  it('lists exactly the published pages of the main host in one file while they fit', async () => {
    assert.deepEqual(await listed(), [], 'no pages yet: an empty, well-formed urlset')
    // Ids 1 to 4 in a fresh store: the published two share the first id range, the others
    // leave the second empty.
    await page('anna.one')
    await page('bruno.two')
    await hidden('hidden.one')
    await onDomain('maralind', 'maralind.test', 'active')
    const doc = readXml((await on('slotline.test', '/sitemap.xml')).body)
    assert.ok('urlset' in doc && !('sitemapindex' in doc), 'one file, no index')
    assert.deepEqual((await listed()).sort(), [...published].sort())
  })

  it('becomes an index of files of at most the limit, still listing exactly the published pages', async () => {
    for (const login of ['carla.three', 'dario.four', 'emma.five', 'fritz.six']) await page(login)
    await hidden('hidden.two')
    await onDomain('pending.page', 'pending.test', 'pending')
    published.push(`${MAIN}/pending.page`)
    await page('gina.seven')
    const doc = readXml((await on('slotline.test', '/sitemap.xml')).body)
    assert.ok(doc.sitemapindex, 'an index')
    const all = await listed()
    assert.equal(new Set(all).size, all.length, 'each page once')
    assert.deepEqual(all.sort(), [...published].sort())
    assert.ok(!all.some((u) => /hidden|maralind/.test(u)), 'no unpublished page, none on its own domain')
    // A file past the last, or a name that is not one, is no sitemap.
    assert.equal((await on('slotline.test', '/sitemap-999.xml')).body.includes('<url>'), false)
    assert.equal((await on('slotline.test', '/sitemap-x.xml')).statusCode, 404)
  })

  it("gives a page's own domain a sitemap of its one page and robots.txt pointing there", async () => {
    const res = await on('maralind.test', '/sitemap.xml')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(
      readXml(res.body).urlset.url.map((u: any) => u.loc),
      ['https://maralind.test/'],
    )
    const robots = await on('maralind.test', '/robots.txt')
    assert.equal(robots.statusCode, 200)
    assert.match(robots.body, /^Sitemap: https:\/\/maralind\.test\/sitemap\.xml$/m)
    assert.match(robots.body, /^Allow: \/$/m)
    assert.doesNotMatch(robots.body, /Disallow: \/v1\//)
    // The main host's numbered files are not a domain's, nor are pending or unknown domains served.
    assert.equal((await on('maralind.test', '/sitemap-0.xml')).statusCode, 404)
    assert.equal((await on('pending.test', '/sitemap.xml')).statusCode, 404)
    assert.equal((await on('nobody.test', '/robots.txt')).statusCode, 404)
  })

  it("points the main host's robots.txt at its sitemap", async () => {
    const res = await on('slotline.test', '/robots.txt')
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /^Sitemap: http:\/\/slotline\.test\/sitemap\.xml$/m)
    assert.match(res.body, /^Disallow: \/v1\/$/m)
  })
})
