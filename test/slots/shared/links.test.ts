import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { normaliseLink } from '../../../src/slots/shared/links.ts'

const url = (raw: string) => {
  const r = normaliseLink(raw)
  assert.ok(r.ok, `refused ${raw}: ${!r.ok && r.message}`)
  return r.url
}
const refusal = (raw: string) => {
  const r = normaliseLink(raw)
  assert.ok(!r.ok, `accepted ${raw}`)
  return r.message
}

describe('normaliseLink', () => {
  it('completes a missing scheme to https://', () => {
    assert.equal(url('example.com/shop'), 'https://example.com/shop')
    assert.equal(url('  instagram.com/jane  '), 'https://instagram.com/jane')
    assert.equal(url('//example.com/x'), 'https://example.com/x')
  })

  it('completes an e-mail address to mailto: and a phone number to tel:, never to a web address (issue 40)', () => {
    assert.equal(url('mara@lind-ceramics.de'), 'mailto:mara@lind-ceramics.de')
    assert.equal(url('+49 30 1234 5678'), 'tel:+493012345678')
    assert.equal(url('0049 (30) 1234-5678'), 'tel:0049(30)1234-5678')
    assert.equal(url('030 1234567'), 'tel:0301234567')
    // A barcode or an address with a port is not a phone number.
    refusal('724384960650')
    assert.equal(url('192.168.1.10:8080'), 'https://192.168.1.10:8080')
    // Written out, a web address with a user part stays what was typed.
    assert.equal(url('https://mara@lind-ceramics.de/'), 'https://mara@lind-ceramics.de/')
  })

  it('reads host:port as a host, not a scheme', () => {
    assert.equal(url('example.com:8080/x'), 'https://example.com:8080/x')
    assert.equal(url('localhost:3000'), 'https://localhost:3000')
  })

  it('keeps http, https, mailto, tel and whatsapp links', () => {
    assert.equal(url('http://example.com'), 'http://example.com')
    assert.equal(url('HTTPS://example.com/A'), 'https://example.com/A')
    assert.equal(url('mailto:jane@example.com'), 'mailto:jane@example.com')
    assert.equal(url('whatsapp://send?phone=15551234567'), 'whatsapp://send?phone=15551234567')
  })

  it('drops the spaces people write in phone numbers', () => {
    assert.equal(url('tel:+1 555 123 4567'), 'tel:+15551234567')
  })

  it('refuses every other scheme, naming the allowed ones', () => {
    for (const raw of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com', 'file:///etc/passwd', 'sms:123']) {
      assert.match(refusal(raw), /http, https, mailto, tel, whatsapp/)
    }
  })

  it('refuses empty links, bare words, spaces and malformed addresses', () => {
    refusal('')
    refusal('   ')
    refusal('instagram')
    refusal('example .com')
    refusal('mailto:nobody')
    refusal('tel:ab')
    refusal('http:example.com')
  })

  it('refuses a link that grows past 2048 characters', () => {
    assert.equal(url(`example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`).length, 2048)
    refusal(`example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`)
  })

  it('never throws, and what it accepts has an allowed scheme and accepts itself unchanged', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.domain()), (raw) => {
        const r = normaliseLink(raw)
        if (!r.ok) return
        assert.match(r.url, /^(https?|mailto|tel|whatsapp):/)
        assert.deepEqual(normaliseLink(r.url), r)
      }),
    )
  })
})
