import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import button from '../../src/slots/button.ts'
import { BUTTON_STYLES } from '../../src/slots/shared/style.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  customizeOnlyWhenCustom,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
  webLink,
} from '../helpers/slots.ts'

const CUSTOMIZE_DEFAULTS = { backgroundColor: '#424248', textColor: '#FFFFFF', subtitleColor: '#E0E7FF', borderRadius: 12 }
const colour = fc.constantFrom('#123456', '#abc', 'rgb(10, 20, 30)', 'teal', '#11223344')

const validButton = fc
  .record(
    {
      title: plainWords(120, 1),
      subtitle: plainWords(120),
      link: fc.oneof(webLink, fc.constantFrom('mailto:jane@example.com', 'tel:+15551234567', 'whatsapp://send?phone=15551234567')),
      style: fc.constantFrom(...BUTTON_STYLES),
      customize: fc.record(
        { backgroundColor: colour, textColor: colour, subtitleColor: colour, borderRadius: fc.integer({ min: 0, max: 50 }) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['link', 'title'] },
  )
  .map(customizeOnlyWhenCustom)

const withDefaults = (d: Record<string, unknown>) => ({
  subtitle: '',
  style: 'primary',
  ...d,
  customize: d.style === 'custom' ? { ...CUSTOMIZE_DEFAULTS, ...(d.customize as object) } : null,
})

const r = renderContext()

describe(`button slots (${STORE})`, () => {
  const api = useSlotApi('button')
  const { create } = api

  it('completes a link without a scheme to https:// and reports it as computed.url', async () => {
    const res = await create({ title: 'Shop', link: 'example.com/shop' })
    assert.equal(res.status, 201)
    assert.equal(res.body.data.data.link, 'https://example.com/shop')
    assert.equal(res.body.data.computed.url, 'https://example.com/shop')
  })

  it('reads host:port without a scheme as a host, not a scheme', () => {
    assert.equal(accepted('button', { title: 'x', link: 'example.com:8080/a' }).link, 'https://example.com:8080/a')
  })

  it('accepts http, https, tel, mailto and whatsapp links', () => {
    for (const link of ['http://example.com', 'https://example.com', 'tel:+15551234567', 'mailto:jane@example.com', 'whatsapp://send?phone=1555']) {
      assert.equal(accepted('button', { title: 'x', link }).link, link)
    }
  })

  it('refuses javascript:, data: and every other scheme with 422 naming data.link', async () => {
    for (const link of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'ftp://example.com/a', 'file:///etc/passwd']) {
      const res = await create({ title: 'x', link })
      assert.equal(res.status, 422, link)
      assert.deepEqual(Object.keys(res.body.errors), ['data.link'], link)
    }
  })

  it('requires a title unless a subtitle is set', async () => {
    const res = await create({ link: 'example.com' })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['data.title'])
    assert.deepEqual(refusedKeys('button', { title: '   ', link: 'example.com' }), ['data.title'])
    assert.equal(accepted('button', { subtitle: 'Only a subtitle', link: 'example.com' }).title, '')
  })

  it('requires a link', () => {
    assert.deepEqual(refusedKeys('button', { title: 'x' }), ['data.link'])
    assert.deepEqual(refusedKeys('button', { title: 'x', link: '' }), ['data.link'])
  })

  it('requires customize for style custom and fills its defaults', async () => {
    assert.deepEqual(refusedKeys('button', { title: 'x', link: 'example.com', style: 'custom' }), ['data.customize'])
    assert.deepEqual(refusedKeys('button', { title: 'x', link: 'example.com', style: 'custom', customize: null }), ['data.customize'])
    const res = await create({ title: 'x', link: 'example.com', style: 'custom', customize: { borderRadius: 0 } })
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.data.data.customize, { ...CUSTOMIZE_DEFAULTS, borderRadius: 0 })
  })

  it('stores customize as null for every style but custom', () => {
    for (const style of BUTTON_STYLES.filter((s) => s !== 'custom')) {
      assert.equal(accepted('button', { title: 'x', link: 'example.com', style, customize: { borderRadius: 3 } }).customize, null)
    }
  })

  it('bounds customize: radius 0 to 50, colours that are CSS colours', () => {
    const custom = (customize: object) => refusedKeys('button', { title: 'x', link: 'example.com', style: 'custom', customize })
    assert.deepEqual(custom({ borderRadius: 51 }), ['data.customize.borderRadius'])
    assert.deepEqual(custom({ borderRadius: -1 }), ['data.customize.borderRadius'])
    assert.deepEqual(custom({ backgroundColor: 'red;background:url(x)' }), ['data.customize.backgroundColor'])
    assert.deepEqual(custom({ textColor: 'x'.repeat(33) }), ['data.customize.textColor'])
    assert.deepEqual(custom({ shadow: '1px' }), ['data.customize.shadow'])
  })

  it('refuses an unknown style naming data.style', () => {
    assert.deepEqual(refusedKeys('button', { title: 'x', link: 'example.com', style: 'neon' }), ['data.style'])
  })

  it('refuses computed.url sent inside data, saying it is computed', async () => {
    const res = await create({ title: 'x', link: 'example.com', url: 'https://example.com/' })
    assert.equal(res.status, 422)
    assert.match(res.body.errors['data.url'][0], /computed/)
  })

  it('renders one anchor through the click redirect, carrying data-slot-id', () => {
    const html = button.html(
      {
        id: 7,
        type: 'button',
        data: accepted('button', { title: 'Shop', subtitle: 'Now', link: 'example.com' }) as any,
        computed: { url: 'https://example.com/' },
      },
      r,
    ).html
    assert.match(html, /^<a class="slot slot-button style-primary" href="\/go\/7\/0" data-slot-id="7"/)
    assert.match(html, /Shop<\/span><span class="slot-button-subtitle">Now/)
    assert.deepEqual(button.links!(accepted('button', { title: 'x', link: 'example.com' }) as any, { url: 'https://example.com/' }), ['https://example.com/'])
  })

  it('renders a custom style as CSS custom properties', () => {
    const data = accepted('button', { title: 'x', link: 'example.com', style: 'custom', customize: {} }) as any
    const html = button.html({ id: 1, type: 'button', data, computed: { url: 'https://example.com/' } }, r).html
    assert.match(html, /style="--slot-bg:#424248;--slot-fg:#FFFFFF;--slot-sub:#E0E7FF;--slot-radius:12px"/)
  })

  it('renders markdown as a link with its subtitle', () => {
    const data = accepted('button', { title: 'Shop', subtitle: 'Open daily', link: 'example.com' }) as any
    assert.equal(button.markdown({ id: 1, type: 'button', data, computed: { url: 'https://example.com/' } }), '[Shop](https://example.com/) — Open daily')
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('button', validButton, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('button', validButton)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validButton, withDefaults, { samples: 4 })
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validButton)
  })
})
