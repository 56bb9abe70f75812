import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import text from '../../src/slots/text.ts'
import { linesAsRichText, richTextAsLines } from '../../src/dashboard/editor/text-lines.ts'
import { richText } from '../../src/slots/shared/rich-text.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
  webLink,
} from '../helpers/slots.ts'

const richTag = fc.constantFrom('p', 'strong', 'em', 's', 'u', 'span', 'li')
const richHtml = fc
  .array(fc.tuple(richTag, plainWords(40, 1)), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([tag, words]) => (tag === 'li' ? `<ul><li>${words}</li></ul>` : `<${tag}>${words}</${tag}>`)).join(''))
const validText = fc
  .record(
    { title: plainWords(200), description: richHtml, textStyle: fc.constantFrom('border', 'plain'), link: fc.oneof(webLink, fc.constant('')) },
    { requiredKeys: [] },
  )
  .filter((d) => Boolean(d.title || d.description))
const withDefaults = (d: Record<string, unknown>) => ({ title: '', description: '', textStyle: 'border', link: '', ...d })
const r = renderContext()

describe(`text slots (${STORE})`, () => {
  const api = useSlotApi('text')
  const { create } = api

  it('keeps the paragraph breaks of text typed as lines: a blank line a paragraph, a single one a line break (issue 40)', async () => {
    const res = await create({ description: 'Stoneware, fired in Berlin.\r\n\r\nCommissions open:\nwrite to me.' })
    assert.equal(res.status, 201)
    assert.equal(res.body.data.data.description, '<p>Stoneware, fired in Berlin.</p><p>Commissions open:<br />write to me.</p>')
    const page = text.html({ id: 1, type: 'text', data: res.body.data.data, computed: {} } as never, r).html
    assert.equal(page.match(/<p>/g)?.length, 2)
    // The editor shows it as it was typed, and saving that again changes nothing.
    const lines = richTextAsLines(res.body.data.data.description)
    assert.equal(lines, 'Stoneware, fired in Berlin.\n\nCommissions open:\nwrite to me.')
    assert.equal(richText(linesAsRichText(lines)), res.body.data.data.description)
  })

  it('keeps p, ul, ol, li, strong, em, s, u, span and br, without attributes', async () => {
    const html =
      '<p class="a" style="color:red">One <strong>two</strong> <em>three</em> <s>four</s> <u>five</u> <span id="x">six</span><br>seven</p><ol><li>a</li></ol><ul><li>b</li></ul>'
    const res = await create({ description: html })
    assert.equal(res.status, 201)
    assert.equal(
      res.body.data.data.description,
      '<p>One <strong>two</strong> <em>three</em> <s>four</s> <u>five</u> <span>six</span><br />seven</p><ol><li>a</li></ol><ul><li>b</li></ul>',
    )
  })

  it('strips everything else on save: scripts with their bodies, links, images, handlers', () => {
    const data = accepted('text', {
      description:
        '<p onclick="steal()">Hi</p><script>alert(1)</script><a href="javascript:x">link</a><img src=x onerror=alert(1)><h1>Head</h1><iframe src="//x"></iframe>',
    })
    assert.equal(data.description, '<p>Hi</p>linkHead')
  })

  it('requires a title unless the description has text', () => {
    assert.deepEqual(refusedKeys('text', {}), ['data.title'])
    assert.deepEqual(refusedKeys('text', { description: '<p> </p><script>x</script>' }), ['data.title'])
    assert.equal(accepted('text', { description: '<p>Only text</p>' }).title, '')
    assert.equal(accepted('text', { title: 'Only a title' }).description, '')
  })

  it('bounds title and description, and takes border or plain as textStyle', () => {
    assert.deepEqual(refusedKeys('text', { title: 'x'.repeat(201) }), ['data.title'])
    assert.deepEqual(refusedKeys('text', { title: 'x', description: 'x'.repeat(20001) }), ['data.description'])
    assert.deepEqual(refusedKeys('text', { title: 'x', textStyle: 'card' }), ['data.textStyle'])
  })

  it('normalises the block link like a button link', () => {
    assert.equal(accepted('text', { title: 'x', link: 'example.com/a' }).link, 'https://example.com/a')
    assert.deepEqual(refusedKeys('text', { title: 'x', link: 'javascript:alert(1)' }), ['data.link'])
  })

  it('never lets stored markup through unsanitised when rendering', () => {
    const html = text.html(
      { id: 1, type: 'text', data: withDefaults({ title: '<script>t()</script>', description: '<p>ok</p><script>alert(1)</script>' }) as any, computed: {} },
      r,
    ).html
    assert.doesNotMatch(html, /<script/i)
    assert.match(html, /<h2>&lt;script&gt;t\(\)&lt;\/script&gt;<\/h2><div class="slot-text-body"><p>ok<\/p><\/div>/)
  })

  it('renders markdown with paragraphs, lists and emphasis', () => {
    const md = text.markdown({
      id: 1,
      type: 'text',
      data: withDefaults({ title: 'About', description: '<p>I <strong>shoot</strong> <em>film</em>.</p><ol><li>one</li><li>two</li></ol>' }) as any,
      computed: {},
    })
    assert.equal(md, '**About**\n\nI **shoot** _film_.\n\n1. one\n2. two')
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('text', validText, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('text', validText)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validText, withDefaults)
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validText)
  })
})
