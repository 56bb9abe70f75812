import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { agentFacts } from '../../src/analytics/visit-origin.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

// Real user agents, copied as they were captured: in-app browsers from the test data of
// ua-parser-js (test/data/ua/**) and matomo-org/device-detector (Tests/fixtures/*.yml, which
// also gives each its device type), Pinterest's iPad agent from a list of logged agents; the
// ordinary browsers in Chrome's reduced format (chromium.org/updates/ua-reduction) or as the
// browsers send them today. Each row: agent, device class, and the app (its source) or the
// browser family the analytics report.
type Row = [ua: string, device: 'mobile' | 'tablet' | 'desktop', appOrBrowser: string]

const IN_APP: Row[] = [
  // Instagram
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/20G75 Instagram 296.0.0.18.107 (iPhone14,8; iOS 16_6; en_US; en; scale=3.00; 1284x2778; 505423516)',
    'mobile',
    'instagram.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S921N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 Instagram 324.0.0.27.50 Android (34/14; 420dpi; 1080x2127; samsung; SM-S921N; e1s; s5e9945; ko_KR; 581020724)',
    'mobile',
    'instagram.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Pro Build/TQ3A.230605.012; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/115.0.5790.53 Mobile Safari/537.36 Instagram 290.0.0.0.36 Android (33/13; 420dpi; 1080x2169; Google/google; Pixel 7 Pro; cheetah; cheetah; de_DE; 488474735)',
    'mobile',
    'instagram.com',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 13_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 148.0.0.26.120 (iPad7,3; iOS 13_5_1; en_US; en-US; scale=2.00; 750x1334; 226453516)',
    'tablet',
    'instagram.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 11; M10_3G Build/V5_20211215; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/101.0.4951.61 Safari/537.36 Instagram 233.0.0.13.112 Android (30/11; 160dpi; 800x1232; Multilaser; M10_3G; ML_JI0H_M10_3G; sp7731e_1h10; pt_BR; 367202474)',
    'tablet',
    'instagram.com',
  ],
  // TikTok
  [
    'Mozilla/5.0 (Linux; Android 15; Pixel 7 Pro Build/AP4A.250205.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/133.0.6943.121 Mobile Safari/537.36 musical_ly_2023808030 BytedanceWebview/d8a21c6',
    'mobile',
    'tiktok.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; moto g(7) Build/QP6_S30.52-23-13-4; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/108.0.5359.128 Mobile Safari/537.36 musical_ly_2022704050 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/27.4.5 ByteLocale/en',
    'mobile',
    'tiktok.com',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1 trill_43.0.0 BytedanceWebview/d8a21c6',
    'mobile',
    'tiktok.com',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 BytedanceWebview/d8a21c6 trill_34.9.0 JsSdk/2.0 NetType/4G Channel/App Store ByteLocale/en Region/MY FalconTag/31CFA6E0-CAE5-4ECF-A13A-ADFCAFC2428F',
    'mobile',
    'tiktok.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; TMRV5GTB Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.179 Safari/537.36 musical_ly_2024009030 AppName/musical_ly ByteLocale/en',
    'tablet',
    'tiktok.com',
  ],
  // Facebook and Messenger
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21A350 [FBAN/FBIOS;FBDV/iPhone15,4;FBMD/iPhone;FBSN/iOS;FBSV/17.0.2;FBSS/3;FBID/phone;FBLC/it_IT;FBOP/5]',
    'mobile',
    'facebook.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 9 Pro Build/AD1A.240530.047; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/134.0.6998.170 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/506.1.0.74.27;IABMV/1;]',
    'mobile',
    'facebook.com',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21F90 [FBAN/FBIOS;FBAV/468.0.0.39.104;FBBV/609862394;FBDV/iPad14,8;FBMD/iPad;FBSN/iPadOS;FBSV/17.5.1;FBSS/2;FBID/tablet;FBLC/it_IT;FBOP/5;FBRV/0]',
    'tablet',
    'facebook.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 12; Lenovo TB-X6C6F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.83 Safari/537.36 [FB_IAB/FB4A;FBAV/488.0.0.78.79;IABMV/1;] FBNV/5',
    'tablet',
    'facebook.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; TB350FU Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.46 Safari/537.36 [FB_IAB/FB4A;FBAV/490.0.0.63.82;IABMV/1;]',
    'tablet',
    'facebook.com',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_3 like Mac OS X) AppleWebKit/603.3.8 (KHTML, like Gecko) Mobile/14G60 [FBAN/MessengerForiOS;FBAV/132.0.0.41.90;FBBV/69171754;FBDV/iPhone8,4;FBMD/iPhone;FBSN/iOS;FBSV/10.3.3;FBSS/2;FBCR/Koodo;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]',
    'mobile',
    'messenger.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 7.1.2; Nexus 5X Build/N2G47F; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/57.0.2987.132 Mobile Safari/537.36 [FB_IAB/MESSENGER;FBAV/114.0.0.21.71;]',
    'mobile',
    'messenger.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 12; moto g 5G (2022) Build/S1SAS32.47-77-9; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 [FB_IAB/Orca-Android;FBAV/402.0.0.11.101;]',
    'mobile',
    'messenger.com',
  ],
  // X (Twitter)
  [
    'Mozilla/5.0 (Linux; Android 13; CPH2531 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.120 Mobile Safari/537.36 TwitterAndroid',
    'mobile',
    'x.com',
  ],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 11_0 like Mac OS X) AppleWebKit/604.2.10 (KHTML, like Gecko) Mobile/15A372 Twitter for iPhone/7.52', 'mobile', 'x.com'],
  ['Mozilla/5.0 (iPad; CPU OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/19H12 Twitter for iPhone/10.34', 'tablet', 'x.com'],
  [
    'Mozilla/5.0 (Linux; Android 13; iPlay 50 Pro Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Safari/537.36 TwitterAndroid',
    'tablet',
    'x.com',
  ],
  // LinkedIn
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.24.1488',
    'mobile',
    'linkedin.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 15; SM-A146P Build/AP3A.240905.015.A2; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/140.0.7339.207 Mobile Safari/537.36 [LinkedInApp]/2.200.63',
    'mobile',
    'linkedin.com',
  ],
  // Snapchat (on Android its name follows the Safari token without a space)
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Snapchat/12.33.0.36 (like Safari/8614.1.25.0.31, panda)',
    'mobile',
    'snapchat.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 12; Pixel 6 Pro Build/SQ3A.220605.009.A1; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/102.0.5005.125 Mobile Safari/537.36Snapchat11.83.0.31 (Pixel 6 Pro; Android 12#8643238#32; gzip; )',
    'mobile',
    'snapchat.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; M2006C3LG Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/96.0.4664.104 Mobile Safari/537.36Snapchat11.59.0.35 (M2006C3LG; Android 10#V12.0.17.0.QCDMIXM#29; gzip)',
    'mobile',
    'snapchat.com',
  ],
  // Pinterest (the MON-W19 is a Huawei MediaPad whose WebView still says "Mobile")
  [
    'Mozilla/5.0 (Linux; Android 7.0; BL5000 Build/NRD90M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/63.0.3239.111 Mobile Safari/537.36 [Pinterest/Android]',
    'mobile',
    'pinterest.com',
  ],
  [
    'Mozilla/5.0 (Linux; Android 7.0; MON-W19 Build/HUAWEIMON-W19; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/63.0.3239.111 Mobile Safari/537.36 [Pinterest/Android]',
    'tablet',
    'pinterest.com',
  ],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]', 'mobile', 'pinterest.com'],
  ['Mozilla/5.0 (iPad; CPU OS 8_4_1 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Mobile/12H321 [Pinterest/iOS]', 'tablet', 'pinterest.com'],
]

const BROWSERS: Row[] = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'desktop', 'Chrome'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'desktop', 'Chrome'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'desktop', 'Safari'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'desktop', 'Firefox'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'desktop', 'Edge'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Mobile Safari/537.36', 'mobile', 'Chrome'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36', 'tablet', 'Chrome'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'mobile',
    'Safari',
  ],
  ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'tablet', 'Safari'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    'mobile',
    'Chrome',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
    'mobile',
    'Firefox',
  ],
  ['Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0', 'mobile', 'Firefox'],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S721B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
    'mobile',
    'Samsung Internet',
  ],
  [
    'Mozilla/5.0 (Linux; Android 15; SM-X526B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Safari/537.36',
    'tablet',
    'Samsung Internet',
  ],
]

describe('agentFacts on real user agents', () => {
  it('places each in-app browser on its device class and names its app as the source', () => {
    const got = IN_APP.map(([ua]) => [agentFacts(ua).device, agentFacts(ua).app, agentFacts(ua).browser])
    assert.deepEqual(
      got,
      IN_APP.map(([, device, app]) => [device, app, `${app} app`]),
    )
  })

  it('places ordinary browsers on their device class and names their family', () => {
    const got = BROWSERS.map(([ua]) => [agentFacts(ua).device, agentFacts(ua).browser, agentFacts(ua).app])
    assert.deepEqual(
      got,
      BROWSERS.map(([, device, browser]) => [device, browser, undefined]),
    )
  })
})

// Instagram's Android app says "Mobile Safari" and then, later, "Android (34/14; …)": that
// second "Android" without a "Mobile" after it once made every such visit a tablet.
const INSTAGRAM_ANDROID = IN_APP[1][0]

describe(`a visit from Instagram's Android app, through HTTP to the analytics API (${STORE})`, () => {
  let t: TestApp

  before(async () => {
    t = await startApp({ TRUST_PROXY: 'loopback' })
  })
  after(() => t?.close())

  it('is counted as a mobile visit from instagram.com', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const res = await fetch(`${t.url}/${profile.login}`, { headers: { 'user-agent': INSTAGRAM_ANDROID, accept: 'text/html', 'x-forwarded-for': '8.8.8.8' } })
    assert.equal(res.status, 200)
    await res.arrayBuffer()
    await t.ctx.intake.flush()

    const analytics = await t.request('GET', `/v1/profiles/${profile.id}/analytics?period=today&compare=false`, { token })
    assert.equal(analytics.status, 200, analytics.text)
    const { devices, browsers, sources } = analytics.body.data
    assert.deepEqual(devices, [{ device: 'mobile', views: 1, clicks: 0 }])
    assert.deepEqual(browsers, [{ browser: 'instagram.com app', views: 1, clicks: 0 }])
    assert.deepEqual(sources, [{ source: 'instagram.com', views: 1, clicks: 0 }])
  })
})
