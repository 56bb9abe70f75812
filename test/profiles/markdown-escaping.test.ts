import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import MarkdownIt from 'markdown-it'
import { renderPageMarkdown } from '../../src/profiles/markdown.ts'
import type { ProfileResource } from '../../src/profiles/profile-schemas.ts'
import { mdInline, mdText } from '../../src/slots/shared/markdown-text.ts'
import { toSlotResource } from '../../src/slots/slot-resource.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

// A CommonMark reader with GFM's link literals and raw HTML on: the most a client may turn on.
// fuzzyLink (bare `example.com`) is off because no markdown flavour links those.
const reader = new MarkdownIt({ html: true, linkify: true })
reader.linkify.set({ fuzzyLink: false })

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const textOf = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e])
const squash = (s: string) => s.replace(/\s+/g, ' ').trim()
const tagsOf = (html: string) => [...html.matchAll(/<([a-z0-9]+)/g)].map((m) => m[1])
const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])

// Strings made of what markdown is made of, so the runs hit constructs rather than plain letters.
const pieces = fc.constantFrom(
  ...'ab _*[]()<>!#`~|&;:/.@-+=1\\\n\r\t\'"'.split(''),
  '[link](https://evil.example)',
  '![x](https://evil.example/p.png)',
  'https://evil.example',
  'www.evil.example',
  'jane@evil.example',
  '<https://evil.example>',
  '<b>bold</b>',
  '&amp;',
  '&#35;',
  '    ',
  '1.',
  '1)',
  '***',
  '---',
  '===',
  '[x]: /u',
  '```',
  'é_é',
)
const markdownish = fc.array(pieces, { maxLength: 40 }).map((a) => a.join(''))

const golden = (name: string) => new URL(`./golden/${name}`, import.meta.url)
function assertGolden(name: string, actual: string) {
  if (process.env.UPDATE_GOLDEN) writeFileSync(golden(name), actual)
  assert.equal(actual, readFileSync(golden(name), 'utf8'))
}

describe('mdText and mdInline: user text read back by a markdown parser', () => {
  it('reads back as the same text (whitespace aside) and makes no element but paragraphs and breaks', () => {
    fc.assert(
      fc.property(fc.oneof(markdownish, fc.string({ unit: 'binary', maxLength: 60 })), (s) => {
        const html = reader.render(mdText(s))
        assert.deepEqual(
          tagsOf(html).filter((t) => t !== 'p' && t !== 'br'),
          [],
          html,
        )
        // CommonMark replaces NUL with U+FFFD for safety; that is the parser, not markup.
        assert.equal(squash(textOf(html)), squash(s.replace(/\0/g, '\uFFFD')))
      }),
      { numRuns: 3000 },
    )
  })

  it('keeps a run inside a line inline, whether or not it starts the line', () => {
    fc.assert(
      fc.property(markdownish, fc.boolean(), (s, atLineStart) => {
        const html = reader.renderInline(`${atLineStart ? '' : 'x '}${mdInline(s, atLineStart)}`)
        assert.deepEqual(tagsOf(html), [], html)
        assert.equal(squash(textOf(html)), squash(`${atLineStart ? '' : 'x '}${s}`))
      }),
      { numRuns: 2000 },
    )
  })

  it('leaves ordinary words as they are', () => {
    for (const s of ['Photographer in Lisbon.', 'jane_doe', '@jane.doe', 'Free 15-minute call', 'Rock & roll!', 'a -> b']) {
      assert.equal(mdText(s), s)
    }
  })
})

const LINK = (n: number) => `[link ${n}](https://evil.example/${n})`
const profile: ProfileResource = {
  id: 42,
  login: 'jane.doe',
  title: `# ${LINK(1)} **Jane** #`,
  description: `${LINK(2)}\n# not a heading\n> not a quote\n- not a list\n1. not a list\n<script>alert(1)</script>\nhttps://evil.example/bare www.evil.example jane@evil.example`,
  avatar: null,
  bgImage: null,
  socials: [{ link: 'https://instagram.com/jane.doe', order: 0 }],
  themeId: 1,
  languageId: null,
  seoTitle: null,
  seoDescription: null,
  seoSubject: 'person',
  computed: { url: 'https://slotline.example/jane.doe', avatarUrl: null, bgImageUrl: null, socials: [{ icon: 'instagram' }], isMain: true, status: true },
}
const c = { fileUrl: (path: string) => `https://slotline.example/static/${path}` }
const at = '2026-11-22T09:00:00.000Z'
const stored = [
  { type: 'button', data: { title: LINK(3), subtitle: `_${LINK(4)}_`, link: 'https://cal.example.com/jane', style: 'primary', customize: null } },
  { type: 'gallery', data: { title: LINK(5), items: [{ path: 'u1/a.webp', text: `![img](https://evil.example/i.png) ${LINK(6)}`, link: '' }] } },
  {
    type: 'text',
    data: {
      title: LINK(7),
      description: `<p>${LINK(8)} <strong>${LINK(9)}</strong></p><ul><li>1. ${LINK(10)}</li><li># h</li></ul>`,
      textStyle: 'border',
      link: '',
    },
  },
  { type: 'youtube', data: { title: LINK(11), description: `${LINK(12)}\n===`, link: 'https://youtu.be/dQw4w9WgXcQ' } },
  { type: 'faq', data: { title: LINK(13), faqStyle: 'border-faq', items: [{ id: 'q1', title: LINK(14), text: `ok\n${LINK(15)}\n---` }] } },
  { type: 'event', data: { eventId: 7 } },
  { type: 'music', data: { mode: 'manual', style: 'tapter', album: LINK(16), artist: LINK(17), thumbnail: '', showCover: false, links: [] } },
  { type: 'form', data: { formId: 3, view: 'button', framed: true, buttonText: LINK(18), style: 'primary', customize: null } },
]
const slots = stored.map((s, i) => toSlotResource({ id: 100 + i, position: i, createdAt: at, updatedAt: at, ...s }, c))
const records = new Map<number, unknown>([
  [
    105,
    {
      id: 7,
      title: LINK(19),
      description: LINK(20),
      startsAt: '2026-04-18T17:00:00.000Z',
      endsAt: null,
      timezone: 'UTC',
      location: LINK(21),
      link: 'https://zdb.example.com/spring',
    },
  ],
  [
    107,
    {
      id: 3,
      title: LINK(22),
      description: LINK(23),
      fields: [{ name: 'name', label: LINK(24), type: 'text', required: true }],
      submitLabel: LINK(25),
    },
  ],
])

describe('page markdown with markdown in every plain-text field', () => {
  const md = renderPageMarkdown(profile, slots, records)
  const html = reader.render(md)

  it('renders as the golden file', () => {
    assertGolden('page-hostile-text.md', md)
  })

  it('links only to what link fields hold: no stored [text](url) became a live link or image', () => {
    assert.deepEqual(
      hrefsOf(html).filter((h) => h.includes('evil.example')),
      [],
    )
    assert.ok(!/<img[^>]+evil\.example/.test(html))
    assert.ok(hrefsOf(html).includes('https://cal.example.com/jane'))
    assert.ok(hrefsOf(html).includes('https://zdb.example.com/spring'))
  })

  it('shows every piece of the text as written', () => {
    const text = textOf(html)
    for (let n = 1; n <= 25; n++) assert.ok(text.includes(LINK(n)), LINK(n))
    for (const s of ['<script>alert(1)</script>', '# not a heading', '> not a quote', '- not a list', '1. not a list', 'jane@evil.example']) {
      assert.ok(text.includes(s), s)
    }
    // The page's own structure is still markup: one h1, the section headings, the slot headings.
    assert.equal(tagsOf(html).filter((t) => t === 'h1').length, 1)
    assert.ok(!tagsOf(html).includes('script'))
    assert.ok(!tagsOf(html).includes('blockquote'))
  })
})

describe(`GET /profiles/{profileKey}/markdown with markdown in user text (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers a stored [link](https://evil.example) in a plain-text field as text, not a link', async () => {
    const { user, token } = await makeAccount(t)
    const p = await makeProfile(t, user)
    const patch = await t.request('PATCH', `/v1/profiles/${p.id}`, {
      token,
      body: { title: '[link](https://evil.example)', description: '**[link](https://evil.example)**' },
    })
    assert.equal(patch.status, 200)
    await t.request('POST', `/v1/profiles/${p.id}/slots`, {
      token,
      body: { type: 'button', data: { title: '[link](https://evil.example)', link: 'https://cal.example.com/x' } },
    })
    const res = await t.request('GET', `/v1/profiles/${p.id}/markdown`, { token })
    assert.equal(res.status, 200)
    const rendered = reader.render(res.text)
    assert.deepEqual(
      hrefsOf(rendered).filter((h) => h.includes('evil.example')),
      [],
    )
    assert.equal(textOf(rendered).split('[link](https://evil.example)').length - 1, 3)
  })
})
