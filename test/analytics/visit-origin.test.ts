import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { countryOf } from '../../src/analytics/country.ts'
import { agentFacts, sourceOf, utmSourceOf } from '../../src/analytics/visit-origin.ts'

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const INSTAGRAM = `${IPHONE_SAFARI.replace(' Safari/604.1', '')} Instagram 350.0.0.23.106 (iPhone15,3; iOS 18_1; en_GB; en-GB; scale=3.00; 1290x2796; 652411553)`
const TIKTOK =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 musical_ly_2023708030 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/37.8.3 ByteLocale/en'
const FACEBOOK = `${IPHONE_SAFARI.replace(' Safari/604.1', '')} [FBAN/FBIOS;FBAV/490.0.0.40.108;FBBV/653067171;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/18.1;FBSS/3;FBID/phone;FBLC/en_GB;FBOP/5]`
const X_APP =
  'Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 TwitterAndroid'
const LINKEDIN = `${IPHONE_SAFARI.replace(' Safari/604.1', '')} [LinkedInApp]/9.30.1544`
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const WINDOWS_EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.2849.68'
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0'

describe('agentFacts', () => {
  it('recognises the in-app browsers of Instagram, TikTok, Facebook, X and LinkedIn', () => {
    assert.deepEqual(
      [INSTAGRAM, TIKTOK, FACEBOOK, X_APP, LINKEDIN].map((ua) => agentFacts(ua).app),
      ['instagram.com', 'tiktok.com', 'facebook.com', 'x.com', 'linkedin.com'],
    )
    assert.equal(agentFacts(INSTAGRAM).browser, 'instagram.com app')
    assert.equal(agentFacts(IPHONE_SAFARI).app, undefined)
  })

  it('tells mobile, tablet and desktop apart, and names the browser family', () => {
    const facts = (ua: string) => [agentFacts(ua).device, agentFacts(ua).browser]
    assert.deepEqual(facts(IPHONE_SAFARI), ['mobile', 'Safari'])
    assert.deepEqual(facts(TIKTOK), ['mobile', 'tiktok.com app'])
    assert.deepEqual(facts(IPAD), ['tablet', 'Safari'])
    assert.deepEqual(facts(ANDROID_TABLET), ['tablet', 'Chrome'])
    assert.deepEqual(facts(WINDOWS_EDGE), ['desktop', 'Edge'])
    assert.deepEqual(facts(MAC_FIREFOX), ['desktop', 'Firefox'])
    assert.deepEqual(facts(''), ['desktop', 'other'])
  })
})

describe('sourceOf', () => {
  const own = 'links.example'
  const source = (referer: string | undefined, extra: { utm?: string; app?: string } = {}) =>
    sourceOf({ referer, utmSource: extra.utm, app: extra.app, ownHost: own })

  it('reduces a Referer to its registrable domain, folding short domains into their site', () => {
    assert.equal(source('https://l.instagram.com/?u=https%3A%2F%2Flinks.example%2Fjane'), 'instagram.com')
    assert.equal(source('https://www.google.co.uk/'), 'google.co.uk')
    assert.equal(source('https://t.co/abc'), 'x.com')
    assert.equal(source('https://lm.facebook.com/l.php'), 'facebook.com')
    assert.equal(source('https://news.ycombinator.com/item?id=1'), 'ycombinator.com')
  })

  it('answers direct for no Referer, an unreadable one, another scheme, or this service itself', () => {
    for (const r of [undefined, 'not a url', 'android-app://com.google.android.gm/', `https://${own}/jane`]) assert.equal(source(r), 'direct', String(r))
  })

  it('lets utm_source win over the app and the Referer, and the app over the Referer', () => {
    assert.equal(source('https://www.google.com/', { utm: 'newsletter', app: 'instagram.com' }), 'newsletter')
    assert.equal(source('https://www.google.com/', { app: 'instagram.com' }), 'instagram.com')
  })

  it('reads utm_source from the query as a short label', () => {
    assert.equal(utmSourceOf('/jane?utm_source=Newsletter%20Nov&utm_medium=email'), 'newsletter-nov')
    assert.equal(utmSourceOf('/jane?utm_source=twitter.com'), 'x.com')
    assert.equal(utmSourceOf('/jane?ref=x'), undefined)
    assert.equal(utmSourceOf('/jane?utm_source=%E2%9C%A8'), undefined)
    assert.equal(utmSourceOf('/jane'), undefined)
  })
})

describe('countryOf', () => {
  it('finds the country of IPv4 and IPv6 addresses offline, and unknown for private or malformed ones', () => {
    assert.equal(countryOf('8.8.8.8'), 'US')
    assert.equal(countryOf('::ffff:8.8.8.8'), 'US')
    assert.equal(countryOf('81.2.69.160'), 'GB')
    assert.equal(countryOf('133.11.0.1'), 'JP')
    assert.equal(countryOf('2001:4860:4860::8888'), 'US')
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '::1', 'fe80::1', '1.2.3', '256.1.1.1', 'nonsense', ''])
      assert.equal(countryOf(ip), 'unknown', ip)
  })

  it('leaves documentation, reserved and oddly written addresses unknown, though the registry files list some', () => {
    for (const ip of ['203.0.113.9', '198.51.100.1', '2001:db8::1', '::ffff:192.168.0.1', '2002:808:808::1', '08.8.8.8', '0x8.8.8.8', '8.8.8.8/32']) {
      assert.equal(countryOf(ip), 'unknown', ip)
    }
    assert.equal(countryOf('2a00:1450:4001:80e::200e'), 'IE')
  })
})
