import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

// issue 31: views and clicks sent over real HTTP with known Referers, user agents and
// forwarded addresses (behind TRUST_PROXY=loopback) come back as exact counts per source,
// country, device and browser; a visit carrying the dashboard's session cookie is not counted.

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const INSTAGRAM =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 350.0.0.23.106 (iPhone15,3; iOS 18_1; en_GB)'
const TIKTOK =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 musical_ly_2023708030 AppName/musical_ly'
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

const US = '8.8.8.8'
const GB = '81.2.69.160'
const JP = '133.11.0.1'

interface Visit {
  ua: string
  ip: string
  referer?: string
  query?: string
  cookie?: string
}

describe(`where visitors come from, counted per source, country and device (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  let login: string
  let slotId: number

  before(async () => {
    t = await startApp({ TRUST_PROXY: 'loopback' })
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user)
    profileId = profile.id
    login = profile.login
    const slot = await t.request('POST', `/v1/profiles/${profileId}/slots`, {
      token,
      body: { type: 'button', data: { title: 'Shop', link: 'https://example.com/shop' } },
    })
    slotId = slot.body.data.id
  })
  after(() => t?.close())

  const headersOf = (v: Visit) => ({
    'user-agent': v.ua,
    accept: 'text/html',
    'x-forwarded-for': v.ip,
    ...(v.referer ? { referer: v.referer } : {}),
    ...(v.cookie ? { cookie: v.cookie } : {}),
  })
  // Real HTTP: the first view renders through Fastify, the rest are answered by the fast path.
  const view = async (v: Visit) => {
    const res = await fetch(`${t.url}/${login}${v.query ?? ''}`, { headers: headersOf(v) })
    assert.equal(res.status, 200)
    await res.arrayBuffer()
  }
  const click = async (v: Visit) => {
    const res = await fetch(`${t.url}/-/go/${profileId}/${slotId}/0`, { headers: headersOf(v), redirect: 'manual' })
    assert.equal(res.status, 302)
  }

  const byKey = (rows: Array<Record<string, string | number>>, key: string) => Object.fromEntries(rows.map((r) => [r[key], [r.views, r.clicks]]))

  it('answers exact views and clicks per source, country, device and browser, leaving out bots and the owner', async () => {
    const visits: Visit[] = [
      { ua: INSTAGRAM, ip: US, referer: 'https://l.instagram.com/' },
      { ua: INSTAGRAM, ip: US },
      { ua: INSTAGRAM, ip: GB },
      { ua: TIKTOK, ip: JP },
      { ua: IPHONE, ip: GB, referer: 'https://www.google.co.uk/' },
      { ua: IPAD, ip: GB, referer: 'https://www.google.co.uk/search?q=x' },
      { ua: DESKTOP, ip: US, referer: 'https://news.ycombinator.com/item?id=1', query: '?utm_source=Newsletter' },
      { ua: DESKTOP, ip: '10.0.0.7' },
    ]
    for (const v of visits) await view(v)
    await click({ ua: INSTAGRAM, ip: US })
    await click({ ua: DESKTOP, ip: US, referer: 'https://t.co/abc' })
    // Not counted: a bot, and the owner (a dashboard session cookie), viewing and clicking.
    await view({ ua: BOT, ip: US })
    await view({ ua: DESKTOP, ip: GB, cookie: 'theme=dark; slotline_session=abc.def' })
    await click({ ua: DESKTOP, ip: GB, cookie: 'slotline_session=abc.def' })

    await t.ctx.intake.flush()
    const res = await t.request('GET', `/v1/profiles/${profileId}/analytics?period=today&compare=false`, { token })
    assert.equal(res.status, 200, res.text)
    const data = res.body.data
    assert.deepEqual([data.totals.views, data.totals.clicks], [8, 2])
    assert.deepEqual(byKey(data.sources, 'source'), {
      'instagram.com': [3, 1],
      'tiktok.com': [1, 0],
      'google.co.uk': [2, 0],
      newsletter: [1, 0],
      direct: [1, 0],
      'x.com': [0, 1],
    })
    assert.deepEqual(byKey(data.countries, 'country'), { US: [3, 2], GB: [3, 0], JP: [1, 0], unknown: [1, 0] })
    assert.deepEqual(byKey(data.devices, 'device'), { mobile: [5, 1], tablet: [1, 0], desktop: [2, 1] })
    assert.deepEqual(byKey(data.browsers, 'browser'), { 'instagram.com app': [3, 1], 'tiktok.com app': [1, 0], Safari: [2, 0], Chrome: [2, 1] })
    // Sorted by views, then clicks.
    assert.deepEqual(
      data.countries.map((c: { country: string }) => c.country),
      ['US', 'GB', 'JP', 'unknown'],
    )

    const account = await t.request('GET', '/v1/analytics?period=today&compare=false', { token })
    assert.equal(account.status, 200, account.text)
    assert.deepEqual(byKey(account.body.data.countries, 'country'), { US: [3, 2], GB: [3, 0], JP: [1, 0], unknown: [1, 0] })
  })

  it('lists the top 10 sources and sums the rest as other', async () => {
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user)
    for (let i = 0; i < 12; i++) {
      // Source i gets 12 - i views, so the ten with the most are s0…s9.
      for (let n = 0; n < 12 - i; n++) {
        const res = await fetch(`${t.url}/${profile.login}?utm_source=s${i}`, {
          headers: { 'user-agent': DESKTOP, accept: 'text/html', 'x-forwarded-for': US },
        })
        await res.arrayBuffer()
      }
    }
    await t.ctx.intake.flush()
    const res = await t.request('GET', `/v1/profiles/${profile.id}/analytics?period=today&compare=false`, { token: account.token })
    const sources = res.body.data.sources as Array<{ source: string; views: number }>
    assert.deepEqual(
      sources.map((s) => [s.source, s.views]),
      [...Array.from({ length: 10 }, (_, i) => [`s${i}`, 12 - i]), ['other', 2 + 1]],
    )
  })
})
