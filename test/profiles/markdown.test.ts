import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { renderPageMarkdown } from '../../src/profiles/markdown.ts'
import type { ProfileResource } from '../../src/profiles/profile-schemas.ts'
import { toSlotResource } from '../../src/slots/slot-resource.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { eventsRepository } from '../../src/store/events.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { insertRawSlot, ownFile } from '../helpers/slots.ts'

const golden = (name: string) => new URL(`./golden/${name}`, import.meta.url)
/** Compares with a checked-in file; UPDATE_GOLDEN=1 rewrites it (then read the diff before committing). */
function assertGolden(name: string, actual: string) {
  if (process.env.UPDATE_GOLDEN) writeFileSync(golden(name), actual)
  assert.equal(actual, readFileSync(golden(name), 'utf8'))
}

const profile: ProfileResource = {
  id: 42,
  login: 'jane.doe',
  title: 'Jane Doe',
  description: 'Photographer in Lisbon.\nBookings open for spring.',
  avatar: 'u1/avatar.webp',
  bgImage: null,
  socials: [
    { link: 'https://instagram.com/jane.doe', order: 0 },
    { link: 'mailto:jane@example.com', order: 1 },
  ],
  themeId: 1,
  languageId: null,
  seoTitle: null,
  seoDescription: null,
  seoSubject: 'person',
  computed: {
    url: 'https://slotline.example/jane.doe',
    avatarUrl: 'https://slotline.example/static/u1/avatar.webp',
    bgImageUrl: null,
    socials: [{ icon: 'instagram' }, { icon: 'email' }],
    isMain: true,
    status: true,
  },
}

const c = { fileUrl: (path: string) => `https://slotline.example/static/${path}` }
const at = '2026-11-22T09:00:00.000Z'
const stored = [
  {
    type: 'button',
    data: { title: 'Book a session', subtitle: 'Free 15-minute call', link: 'https://cal.example.com/jane', style: 'primary', customize: null },
  },
  { type: 'picture', data: { path: 'u1/portrait.webp', link: '', size: 'large' } },
  {
    type: 'gallery',
    data: {
      title: 'Recent work',
      items: [
        { path: 'u1/lisbon.webp', text: 'Lisbon, at dawn', link: '' },
        { path: 'u1/porto.webp', text: '', link: 'https://example.com/porto' },
      ],
    },
  },
  {
    type: 'text',
    data: { title: 'About', description: '<p>I shoot <strong>film</strong>.</p><ul><li>Portraits</li><li>Weddings</li></ul>', textStyle: 'border', link: '' },
  },
  { type: 'youtube', data: { title: 'Showreel', description: 'Two minutes.', link: 'https://youtu.be/dQw4w9WgXcQ' } },
  { type: 'faq', data: { title: '', faqStyle: 'border-faq', items: [{ id: 'q1', title: 'Do you travel?', text: 'Yes.\nAnywhere in Europe.' }] } },
  { type: 'divider', data: {} },
  { type: 'event', data: { eventId: 7 } },
  {
    type: 'music',
    data: {
      mode: 'manual',
      style: 'tapter',
      album: 'Blue Hours',
      artist: 'Jane Doe',
      thumbnail: 'https://images.example.com/blue.jpg',
      showCover: true,
      links: [
        { link: 'https://music.apple.com/us/album/1', order: 1 },
        { link: 'https://open.spotify.com/album/1', order: 0 },
      ],
    },
  },
  { type: 'form', data: { formId: 3, view: 'button', framed: true, buttonText: 'Write to me', style: 'primary', customize: null } },
  { type: 'countdown', data: { endsAt: '2026-12-31T00:00:00Z' } },
]
const slots = stored.map((s, i) => toSlotResource({ id: 100 + i, position: i, createdAt: at, updatedAt: at, ...s }, c))
const records = new Map<number, unknown>([
  [
    107,
    {
      id: 7,
      title: 'Spring exhibition',
      description: 'Prints and talks.',
      startsAt: '2026-04-18T17:00:00.000Z',
      endsAt: '2026-04-18T21:00:00.000Z',
      timezone: 'Europe/Lisbon',
      location: 'Galeria Zé dos Bois, Lisbon',
      link: 'https://zdb.example.com/spring',
    },
  ],
  [
    109,
    {
      id: 3,
      title: 'Say hello',
      description: '',
      fields: [
        { name: 'name', label: 'Your name', type: 'text', required: true },
        { name: 'message', label: 'Message', type: 'textarea', required: false },
      ],
      submitLabel: 'Send',
    },
  ],
])

describe(`page markdown (${STORE})`, () => {
  it('renders a page holding one slot of every type, and a legacy one, as the golden file', () => {
    assert.deepEqual(new Set(stored.map((s) => s.type)), new Set([...Object.keys(slotTypes), 'countdown']))
    assertGolden('page-every-type.md', renderPageMarkdown(profile, slots, records))
  })

  it('shows an empty page as empty: no title, description, socials or slots', () => {
    const empty: ProfileResource = {
      ...profile,
      title: null,
      description: null,
      socials: [],
      computed: { ...profile.computed, socials: [] },
    }
    assertGolden('page-empty.md', renderPageMarkdown(empty, [], new Map()))
  })

  it('says when the record behind an event or form is gone', () => {
    const md = renderPageMarkdown(profile, [slots[7], slots[9]], new Map())
    assert.match(md, /event 7 is no longer available/)
    assert.match(md, /form 3 is no longer available/)
  })
})

describe(`GET /profiles/{profileKey}/markdown (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers 401 without a token and 404 for another account’s page', async () => {
    const owner = await makeUser(t)
    const p = await makeProfile(t, owner)
    assert.equal((await t.request('GET', `/v1/profiles/${p.id}/markdown`)).status, 401)
    const stranger = await makeToken(t, await makeUser(t))
    const res = await t.request('GET', `/v1/profiles/${p.id}/markdown`, { token: stranger })
    assert.equal(res.status, 404)
    assert.equal(res.body.code, 'not_found')
  })

  it('answers text/markdown: the whole page in real order, with its token count in x-markdown-tokens', async () => {
    const { user, token } = await makeAccount(t)
    const p = await makeProfile(t, user)
    await profilesRepository.update(t.ctx.db, p.id, { title: 'Jane', description: 'Hello.', socials: [{ link: 'https://github.com/jane', order: 0 }] })
    const path = await ownFile(t, user.id)
    const base = `/v1/profiles/${p.id}/slots`
    const batch = await t.request('POST', `${base}/batch`, {
      token,
      body: {
        slots: [
          { type: 'text', data: { title: 'Second', description: '<p>Body</p>' } },
          { type: 'picture', data: { path } },
          { type: 'button', data: { title: 'First', link: 'example.com' } },
        ],
      },
    })
    const [second, picture, first] = batch.body.data
    await t.request('PUT', `${base}/order`, { token, body: { order: [first.id, second.id, picture.id] } })
    const e = await eventsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Gig',
      description: '',
      startsAt: '2026-05-01T20:00:00.000Z',
      endsAt: null,
      timezone: 'UTC',
      location: 'Club',
      link: '',
    })
    const f = await formsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Contact',
      description: '',
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
      submitLabel: 'Send',
    })
    const [eventSlot, formSlot] = await slotService.appendManaged(t.ctx.db, p, [
      { type: 'event', data: { eventId: e.id } },
      { type: 'form', data: { formId: f.id } },
    ])
    const legacy = await insertRawSlot(t, p, 'countdown', {})

    const res = await t.request('GET', `/v1/profiles/${p.login}/markdown`, { token })
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /^text\/markdown/)
    assert.equal(Number(res.headers['x-markdown-tokens']), encode(res.text).length)
    assert.ok(res.text.startsWith('# Jane\n\nHello.\n'))
    assert.match(res.text, /- github: https:\/\/github\.com\/jane/)
    const headings = [...res.text.matchAll(/^### (\d+)\. (.+)$/gm)].map((m) => m[2])
    assert.deepEqual(headings, [
      `Button (slot ${first.id})`,
      `Text (slot ${second.id})`,
      `Picture (slot ${picture.id})`,
      `Event (slot ${eventSlot.id}, read-only)`,
      `Form (slot ${formSlot.id}, read-only)`,
      `countdown (slot ${legacy.id}, unsupported)`,
    ])
    assert.match(res.text, /\*\*Gig\*\*\nWhen: Fri, 1 May 2026, 20:00 UTC\nWhere: Club/)
    assert.match(res.text, new RegExp(`!\\[Picture\\]\\(${t.url}/static/${path}\\)`))

    // The same page through the JSON API renders to the same markdown.
    const json = (await t.request('GET', `/v1/profiles/${p.id}?include=slots`, { token })).body.data
    const loaded = await slotService.list(t.ctx.db, p.id)
    const { slots: list, ...resource } = json
    assert.equal(res.text, renderPageMarkdown(resource, list, await slotService.records(t.ctx.db, user.id, loaded)))
  })

  it('is described in the OpenAPI document as text/markdown', async () => {
    const { token } = await makeAccount(t)
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const op = doc.paths['/profiles/{profileKey}/markdown'].get
    assert.match(op.operationId, /markdown/i)
    assert.ok(op.responses['200'].content['text/markdown'])
  })
})
