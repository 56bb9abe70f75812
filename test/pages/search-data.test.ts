import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Parser } from 'htmlparser2'
import { customDomainsRepository } from '../../src/store/custom-domains.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

interface Head {
  title: string
  metas: Map<string, string>
  links: Array<{ rel: string; href: string }>
  jsonLd: string[]
  socialRels: string[]
}

/** What a crawler reads of a page: parsed as HTML, the way a browser or a search engine would. */
function readProfile(html: string): Head {
  const head: Head = { title: '', metas: new Map(), links: [], jsonLd: [], socialRels: [] }
  let inTitle = false
  let inJson = false
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === 'title') inTitle = true
        if (name === 'meta') head.metas.set(a.name ?? a.property ?? '', a.content ?? '')
        if (name === 'link') head.links.push({ rel: a.rel ?? '', href: a.href ?? '' })
        if (name === 'script' && a.type === 'application/ld+json') {
          inJson = true
          head.jsonLd.push('')
        }
        if (name === 'a' && a.class === 'social') head.socialRels.push(a.rel ?? '')
      },
      ontext(text) {
        if (inTitle) head.title += text
        if (inJson) head.jsonLd[head.jsonLd.length - 1] += text
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        if (name === 'script') inJson = false
      },
    },
    { decodeEntities: true },
  )
  parser.end(html)
  return head
}

/**
 * schema.org's ProfilePage as search engines read it: a WebPage whose mainEntity is the Person or
 * Organization the page is about, with a name, and sameAs a list of URLs.
 */
function assertProfilePage(data: any, subject: 'Person' | 'Organization') {
  assert.equal(data['@context'], 'https://schema.org')
  assert.equal(data['@type'], 'ProfilePage')
  for (const key of ['url', 'name', 'description', 'inLanguage', 'dateCreated', 'dateModified']) assert.equal(typeof data[key], 'string', key)
  for (const key of ['dateCreated', 'dateModified']) assert.ok(!Number.isNaN(Date.parse(data[key])), key)
  const entity = data.mainEntity
  assert.equal(typeof entity, 'object')
  assert.equal(entity['@type'], subject)
  assert.equal(typeof entity.name, 'string')
  assert.ok(entity.name.length > 0)
  assert.equal(entity.url, data.url)
  if (entity.sameAs !== undefined) {
    assert.ok(Array.isArray(entity.sameAs))
    for (const url of entity.sameAs) assert.match(url, /^https?:\/\//)
  }
  const allowed = new Set(['@context', '@type', 'url', 'name', 'description', 'inLanguage', 'dateCreated', 'dateModified', 'mainEntity'])
  for (const key of Object.keys(data)) assert.ok(allowed.has(key), `ProfilePage.${key}`)
}

describe(`search titles, structured data and rel=me on public pages (${STORE})`, () => {
  let t: TestApp
  let token: string
  let login: string
  let profileId: number
  before(async () => {
    t = await startApp({ PUBLIC_URL: 'http://slotline.test' })
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user, 'maralind')
    login = profile.login
    profileId = profile.id
  })
  after(() => t.close())

  const patch = (body: unknown) => t.request('PATCH', `/v1/profiles/${login}`, { token, body })
  const pageHtml = async (host = 'slotline.test', url = `/${login}`) => (await t.app.inject({ method: 'GET', url, headers: { host } })).body

  it('falls back to the page name and bio, and uses the owner’s search title and description once set', async () => {
    assert.equal((await patch({ title: 'Mara Lind', description: 'Ceramics from Riga.' })).status, 200)
    let head = readProfile(await pageHtml())
    assert.equal(head.title, 'Mara Lind')
    assert.equal(head.metas.get('description'), 'Ceramics from Riga.')
    assert.equal(head.metas.get('og:title'), 'Mara Lind')
    assert.equal(head.metas.get('og:description'), 'Ceramics from Riga.')
    const set = await patch({ seoTitle: '  Mara Lind  ceramics ', seoDescription: 'Hand-thrown <b>cups</b>\nand bowls.', seoSubject: 'organization' })
    assert.equal(set.status, 200)
    assert.equal(set.body.data.seoTitle, 'Mara Lind ceramics')
    assert.equal(set.body.data.seoDescription, 'Hand-thrown cups and bowls.')
    assert.equal(set.body.data.seoSubject, 'organization')
    head = readProfile(await pageHtml())
    assert.equal(head.title, 'Mara Lind ceramics')
    assert.equal(head.metas.get('description'), 'Hand-thrown cups and bowls.')
    assert.equal(head.metas.get('og:title'), 'Mara Lind ceramics')
    assert.equal(head.metas.get('og:description'), 'Hand-thrown cups and bowls.')
    assert.match(await pageHtml(), /<h1>Mara Lind<\/h1>/, 'the page itself keeps its name')
    const cleared = await patch({ seoTitle: null, seoDescription: '', seoSubject: 'person' })
    assert.equal(cleared.body.data.seoTitle, null)
    assert.equal(cleared.body.data.seoDescription, null)
    assert.equal(readProfile(await pageHtml()).title, 'Mara Lind')
  })

  it('refuses a search title or description past its limit, naming each field', async () => {
    const res = await patch({ seoTitle: 'x'.repeat(71), seoDescription: 'y'.repeat(201), seoSubject: 'robot' })
    assert.equal(res.status, 422)
    for (const field of ['seoTitle', 'seoDescription', 'seoSubject']) assert.ok(res.body.errors[field], `${field}: ${JSON.stringify(res.body.errors)}`)
    assert.equal((await patch({ seoTitle: 'x'.repeat(70), seoDescription: 'y'.repeat(200) })).status, 200)
  })

  it('describes the page as a ProfilePage whose Person or Organization has the socials as sameAs', async () => {
    await patch({
      seoTitle: null,
      seoDescription: null,
      socials: [{ link: 'https://mastodon.social/@maralind' }, { link: 'instagram.com/maralind' }, { link: 'mailto:mara@example.test' }],
    })
    let head = readProfile(await pageHtml())
    assert.equal(head.jsonLd.length, 1)
    let data = JSON.parse(head.jsonLd[0])
    assertProfilePage(data, 'Person')
    assert.equal(data.url, `http://slotline.test/${login}`)
    assert.equal(data.mainEntity.name, 'Mara Lind')
    assert.equal(data.mainEntity.alternateName, `@${login}`)
    assert.deepEqual(data.mainEntity.sameAs, ['https://mastodon.social/@maralind', 'https://instagram.com/maralind'])
    await patch({ seoSubject: 'organization' })
    head = readProfile(await pageHtml())
    data = JSON.parse(head.jsonLd[0])
    assertProfilePage(data, 'Organization')
  })

  it('keeps every value inside its JSON-LD script: no </script> or comment breaks out', async () => {
    const hostile = '</script><script>alert(1)</script><!-- \u2028 & "quoted"'
    assert.equal((await patch({ title: hostile, description: `bio ${hostile}`, seoTitle: hostile.slice(0, 60) })).status, 200)
    const html = await pageHtml()
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    assert.doesNotMatch(block, /[<>]/)
    const data = JSON.parse(block)
    assert.equal(data.mainEntity.name, hostile, 'the JSON reads back the same')
    const head = readProfile(html)
    assert.equal(head.jsonLd.length, 1)
    assert.equal(JSON.parse(head.jsonLd[0]).mainEntity.name, hostile)
    assert.equal(html.match(/<script/g)?.length, 2, 'the JSON-LD block and the page script, nothing more')
    await patch({ title: 'Mara Lind', description: 'Ceramics from Riga.', seoTitle: null })
  })

  it('marks social links rel="me" beside noopener, and names their real addresses for fediverse checks', async () => {
    const head = readProfile(await pageHtml())
    assert.equal(head.socialRels.length, 3)
    for (const rel of head.socialRels) assert.deepEqual(rel.split(' ').sort(), ['me', 'noopener'])
    const me = head.links.filter((l) => l.rel === 'me').map((l) => l.href)
    assert.deepEqual(me, ['https://mastodon.social/@maralind', 'https://instagram.com/maralind'])
  })

  it('names the domain as canonical, og:url and the structured data’s url while it is active', async () => {
    let head = readProfile(await pageHtml())
    assert.deepEqual(
      head.links.filter((l) => l.rel === 'canonical'),
      [{ rel: 'canonical', href: `http://slotline.test/${login}` }],
    )
    const d = await customDomainsRepository.create(t.ctx.db, { profileId, name: 'maralind.test', token: 'x' })
    await customDomainsRepository.update(t.ctx.db, d.id, { state: 'active' })
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    head = readProfile(await pageHtml('maralind.test', '/'))
    assert.deepEqual(
      head.links.filter((l) => l.rel === 'canonical'),
      [{ rel: 'canonical', href: 'https://maralind.test/' }],
    )
    assert.equal(head.metas.get('og:url'), 'https://maralind.test/')
    assert.equal(JSON.parse(head.jsonLd[0]).url, 'https://maralind.test/')
  })
})
