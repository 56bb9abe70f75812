import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { etagMatches, prefersMarkdown } from '../../src/http/negotiation.ts'

describe('prefersMarkdown', () => {
  it('chooses markdown when the client names it first or alone', () => {
    assert.equal(prefersMarkdown('text/markdown'), true)
    assert.equal(prefersMarkdown('text/markdown, text/html;q=0.9'), true)
    assert.equal(prefersMarkdown('text/html;q=0.5, text/markdown'), true)
    assert.equal(prefersMarkdown('TEXT/Markdown; charset=utf-8'), true)
  })

  it('keeps HTML for browsers, wildcards and markdown ranked lower', () => {
    assert.equal(prefersMarkdown(undefined), false)
    assert.equal(prefersMarkdown('*/*'), false)
    assert.equal(prefersMarkdown('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), false)
    assert.equal(prefersMarkdown('text/markdown;q=0.5, text/html'), false)
    assert.equal(prefersMarkdown('text/markdown;q=0'), false)
    assert.equal(prefersMarkdown('text/*, text/markdown;q=0.2'), false)
  })
})

describe('etagMatches', () => {
  const etag = '"abc"'
  it('matches the same tag, in a list, weak or not, and *', () => {
    assert.equal(etagMatches('"abc"', etag), true)
    assert.equal(etagMatches('"x", "abc"', etag), true)
    assert.equal(etagMatches('W/"abc"', etag), true)
    assert.equal(etagMatches('*', etag), true)
  })
  it('does not match another tag or no header', () => {
    assert.equal(etagMatches(undefined, etag), false)
    assert.equal(etagMatches('"abcd"', etag), false)
    assert.equal(etagMatches('abc', etag), false)
  })
})
