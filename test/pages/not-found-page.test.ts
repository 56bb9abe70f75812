import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { noticePage, notFoundPage } from '../../src/pages/not-found-page.ts'

describe('noticePage', () => {
  it('escapes everything it is given and allows only its own stylesheet', () => {
    const page = noticePage({ code: '<b>', title: '<script>alert(1)</script>', lines: ['a "quoted" <img src=x onerror=alert(1)>'], back: '/jane' })
    const html = page.body.toString()
    assert.doesNotMatch(html, /<script|<img|<b>/)
    assert.match(html, /<h1>&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/h1>/)
    assert.match(html, /<a href="\/jane">Back to the page<\/a>/)
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]
    const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`
    assert.equal(page.headers['content-security-policy'], `default-src 'none'; style-src ${hash}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
  })

  it('offers a way back only to a path on this site', () => {
    for (const back of ['https://evil.example/', '//evil.example/', 'javascript:alert(1)']) {
      assert.doesNotMatch(noticePage({ code: '!', title: 'x', lines: [], back }).body.toString(), /<a /, back)
    }
  })

  it('says the same for every missing address', () => {
    assert.match(notFoundPage.body.toString(), /<title>This page does not exist<\/title>/)
    assert.equal(notFoundPage.contentType, 'text/html; charset=utf-8')
  })
})
