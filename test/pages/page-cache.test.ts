import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { strongEtag } from '../../src/kernel/etag.ts'
import { type CachedPage, PageCache } from '../../src/pages/page-cache.ts'

const page = (profileId: number, login: string, text = login, expiresAt = Number.POSITIVE_INFINITY): CachedPage => {
  const body = Buffer.from(text)
  return { profileId, login, body, etag: strongEtag(body), headers: { 'content-type': 'text/html; charset=utf-8' }, notModified: {}, expiresAt }
}

describe('PageCache', () => {
  it("answers a copy until its expiry and not from that moment on (issue 31: a block's window opens or closes)", () => {
    const cache = new PageCache(1000)
    cache.set('html:a', page(1, 'a', 'a', 5_000), cache.ticket())
    assert.ok(cache.get('html:a', 4_999))
    assert.equal(cache.get('html:a', 5_000), undefined)
    assert.equal(cache.size, 0)
    assert.equal(cache.sizeInBytes, 0)
  })

  it('keeps the most recently used pages within its byte budget', () => {
    const cache = new PageCache(20)
    cache.set('html:a', page(1, 'a', 'x'.repeat(10)), cache.ticket())
    cache.set('html:b', page(2, 'b', 'x'.repeat(10)), cache.ticket())
    assert.ok(cache.get('html:a'))
    cache.set('html:c', page(3, 'c', 'x'.repeat(10)), cache.ticket())
    assert.equal(cache.get('html:b'), undefined)
    assert.ok(cache.get('html:a'))
    assert.ok(cache.get('html:c'))
    assert.equal(cache.sizeInBytes, 20)
    cache.set('html:a', page(1, 'a', 'x'.repeat(5)), cache.ticket())
    assert.equal(cache.sizeInBytes, 15)
    cache.set('html:huge', page(4, 'huge', 'x'.repeat(21)), cache.ticket())
    assert.equal(cache.get('html:huge'), undefined)
    assert.equal(cache.size, 2)
  })

  it('drops every representation of a changed profile and every login it names', () => {
    const cache = new PageCache(10)
    cache.set('html:jane', page(1, 'jane'), cache.ticket())
    cache.set('markdown:jane', page(1, 'jane'), cache.ticket())
    cache.set('html:other', page(2, 'other'), cache.ticket())
    cache.set('html:taken', page(3, 'taken'), cache.ticket())
    cache.invalidate(1, ['Jane', 'Taken'])
    assert.equal(cache.get('html:jane'), undefined)
    assert.equal(cache.get('markdown:jane'), undefined)
    assert.equal(cache.get('html:taken'), undefined)
    assert.ok(cache.get('html:other'))
    assert.equal(cache.sizeInBytes, 'other'.length)
  })

  it('refuses a render that began before an invalidation', () => {
    const cache = new PageCache(10)
    const ticket = cache.ticket()
    cache.invalidate(1, ['jane'])
    cache.set('html:jane', page(1, 'jane', 'stale'), ticket)
    assert.equal(cache.get('html:jane'), undefined)
  })

  it('gives equal bodies equal strong validators and different bodies different ones', () => {
    assert.equal(strongEtag(Buffer.from('x')), strongEtag(Buffer.from('x')))
    assert.notEqual(strongEtag(Buffer.from('x')), strongEtag(Buffer.from('y')))
    assert.match(strongEtag(Buffer.from('x')), /^"[\w-]+"$/)
  })
})
