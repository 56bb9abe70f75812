import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { chromium } from 'playwright-core'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}

describe(`Security headers on every answer (${STORE})`, () => {
  let t: TestApp
  let token: string
  let login: string
  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    login = (await makeProfile(t, account.user)).login
  })
  after(() => t.close())

  it('sends nosniff and a policy that forbids framing on API, docs, dashboard, pages, operations and errors', async () => {
    const answers: Array<[string, Record<string, string>?]> = [
      ['/v1/me', { authorization: `Bearer ${token}` }],
      ['/v1/me'],
      ['/v1/no-such-thing'],
      ['/v1/'],
      ['/v1/docs'],
      ['/-/healthz'],
      ['/-/metrics'],
      ['/login'],
      [`/${login}`],
      [`/${login}`], // the second is a page-cache hit, answered before Fastify
      [`/${login}/qr.svg`],
      ['/no.such.page'],
      ['/-/go/1/1/0'],
      ['/robots.txt'],
    ]
    for (const [path, headers] of answers) {
      const res = await fetch(`${t.url}${path}`, { headers, redirect: 'manual' })
      await res.arrayBuffer()
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${path} → ${res.status}`)
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, `${path} → ${res.status}`)
    }
  })

  it('gives /v1/docs its own policy: no script at all, its one stylesheet by hash, nothing from elsewhere', async () => {
    const res = await fetch(`${t.url}/v1/docs`)
    const csp = res.headers.get('content-security-policy') ?? ''
    assert.match(csp, /default-src 'none'/)
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/)
    assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval|https:|\*/)
  })

  it('renders the reference under that policy without a single violation', async () => {
    const browser = await chromium.launch(LAUNCH)
    try {
      const page = await browser.newPage()
      await page.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
      const violations: string[] = []
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
      })
      page.on('pageerror', (e) => violations.push(e.message))
      await page.goto(`${t.url}/v1/docs`)
      await page.getByRole('heading', { name: 'Slotline API reference', level: 1 }).waitFor()
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('article')!).borderTopStyle), 'solid', 'the stylesheet applies')
      assert.deepEqual(violations, [])
    } finally {
      await browser.close()
    }
  })
})
