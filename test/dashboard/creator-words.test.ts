import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { Parser } from 'htmlparser2'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { recordKey } from '../../src/dashboard/editor/schema-fields.ts'
import { dashboardPages } from '../../src/dashboard/install-dashboard.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import type { SlotType } from '../../src/slots/types.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, Visitor } from '../helpers/dashboard.ts'
import { solid } from '../media/images.ts'

// issue 40, item 6: no dashboard view shows a programmer's word. The deny list lives in
// docs/glossary.md beside the words to use instead; every view of the dashboard's real route
// table is rendered (signed in, signed out, every editor panel, every refused form) and read
// as a person reads it: text, labels, hints, messages, and the names controls are given.

const GLOSSARY = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8')
const DENIED = /```deny-list\n([\s\S]*?)```/
  .exec(GLOSSARY)![1]
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean)
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const DENY = DENIED.map((phrase) => ({ phrase, re: new RegExp(`(?<![\\p{L}\\p{N}_-])${literal(phrase)}(?![\\p{L}\\p{N}_-])`, 'iu') }))

/** Attributes whose words a person sees or hears (a screen reader reads the label, the hint, the name). */
const SPOKEN = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'data-what', 'data-said'])

/** The words of a page as a person meets them: text outside scripts and styles, plus the spoken attributes. */
export function visibleWords(html: string): string {
  const out: string[] = []
  let hidden = 0
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script' || name === 'style') hidden++
        for (const [k, v] of Object.entries(attrs)) if (SPOKEN.has(k)) out.push(v)
        if (name === 'input' && (attrs.type === 'submit' || attrs.type === 'button') && attrs.value) out.push(attrs.value)
      },
      ontext(text) {
        if (!hidden) out.push(text)
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style') hidden--
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  return out.join(' ').replace(/\s+/g, ' ')
}

/** Deny-listed phrases in a text; addresses a person sees (https://example.com/jane) are their words, not ours. */
export function programmerWords(text: string): string[] {
  const withoutAddresses = text.replace(/https?:\/\/[\p{L}\p{N}[][^\s]*/giu, ' ')
  return DENY.flatMap(({ phrase, re }) => {
    const m = re.exec(withoutAddresses)
    return m ? [`“${phrase}” in …${withoutAddresses.slice(Math.max(0, m.index - 60), m.index + phrase.length + 60)}…`] : []
  })
}

/** The quoted sentences of the dashboard's scripts (what they write into the page), as one text. */
function scriptSentences(file: string): string {
  const source = readFileSync(new URL(`../../src/dashboard/${file}`, import.meta.url), 'utf8')
  return [...source.matchAll(/(['`])((?:(?!\1)[^\\\n]|\\.)*?[A-Z][a-z]+ [^'`\n]*?)\1/g)].map((m) => m[2]).join(' | ')
}

describe('the deny list', () => {
  it('is kept in docs/glossary.md and catches a word added to a view', () => {
    assert.ok(DENIED.length >= 20, 'the glossary holds the deny list')
    assert.deepEqual(programmerWords(visibleWords('<p class="hint">A colour for the button.</p>')), [])
    assert.equal(programmerWords(visibleWords('<p class="hint">Required when style is custom; stored as null for every other style.</p>')).length, 2)
    assert.equal(programmerWords(visibleWords('<input aria-label="CSS colour">')).length, 1)
    assert.equal(programmerWords(visibleWords('<p>A missing scheme is completed to https://; see https://example.com/help</p>')).length, 2)
    // Words inside scripts are not shown; an address a person typed is theirs.
    assert.deepEqual(programmerWords(visibleWords('<script>JSON.parse(x)</script><a href="/x">https://example.com/slot</a>')), [])
  })
})

describe(`every dashboard view speaks a creator's words (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  // Each hit once, with the first view that showed it: one hint repeated on forty views is one line.
  const found = new Map<string, string>()
  const read = (where: string, html: string) => {
    for (const hit of programmerWords(visibleWords(html))) if (!found.has(hit)) found.set(hit, where)
  }

  /** GETs a view and reads it; a redirect's next page is read too, for its message. */
  async function view(v: Visitor, path: string) {
    const res = await v.get(path)
    const type = res.headers.get('content-type') ?? ''
    if (type.startsWith('text/html')) read(`GET ${path} (${res.status})`, res.text)
    else if (type.startsWith('text/csv')) read(`GET ${path}`, res.text.split('\n')[0])
    if (res.location?.startsWith('/')) {
      const next = await v.get(res.location)
      if ((next.headers.get('content-type') ?? '').startsWith('text/html')) read(`GET ${path} → ${res.location}`, next.text)
    }
    return res
  }

  /** Posts a form whose every field holds `~` (what no field takes) with a fresh CSRF token, and reads the answer. */
  async function refused(v: Visitor, page: string, action: string, names: string[], extra: Record<string, string> = {}) {
    const shown = await v.get(page)
    const body = new FormData()
    body.append('_csrf', csrfOf(shown.text))
    for (const name of names) if (name !== '_csrf' && !(name in extra)) body.append(name, '~')
    for (const [k, value] of Object.entries(extra)) body.append(k, value)
    const res = await fetch(new URL(action, t.url), {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; ') },
    })
    const html = await res.text()
    read(`POST ${action} (${res.status})`, html)
    const location = res.headers.get('location')
    if (location?.startsWith('/')) read(`POST ${action} → ${location}`, (await v.get(location)).text)
  }

  /** The names of a form's fields, by its action, as a page renders them. */
  const fieldsOf = (html: string, action: string) => {
    const at = html.indexOf(`action="${action}"`)
    if (at < 0) return []
    const form = html.slice(at, html.indexOf('</form>', at))
    return [...new Set([...form.matchAll(/<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1]))]
  }

  it('on every view of the route table, signed in and signed out, with every block type and every refused form', async () => {
    const { v, user } = await registeredVisitor(t)
    await v.submit('/my-links', { login: `mara_${Date.now().toString(36)}` })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const principal = ownerPrincipal(user)
    const ids: number[] = []
    for (const [i, type] of (Object.keys(slotTypes) as SlotType[]).entries()) ids.push((await blockOf(t, principal, profile.id, type, i)).id)
    const form = (await useCases.slots.list(t.ctx, principal, profile.id)).find((s) => s.type === 'form')!
    const { record: token } = await accounts.createToken(t.ctx.db, user.id, { name: 'Shop sync' })
    const params: Record<string, string> = {
      profileId: String(profile.id),
      slotId: String(form.id),
      tokenId: String(token.id),
      themeId: 'default',
      grantId: '1',
      submissionId: '1',
    }
    const pathOf = (url: string) => url.replace(/:(\w+)/g, (_, k) => params[k]).replace('*', 'nothing-here')

    const stranger = Visitor.of(t)
    for (const row of dashboardPages.filter((r) => r.method === 'GET')) {
      if (/\/preview(\/|$)/.test(row.url)) continue // the public page itself, in the page's own words
      if (!row.signedIn) await view(stranger, pathOf(row.url))
      await view(v, pathOf(row.url))
    }
    const editor = `/my-links/${profile.id}/editor`
    for (const type of Object.keys(slotTypes)) await view(v, `${editor}?add=${type}`)
    for (const id of ids) {
      await view(v, `${editor}?edit=${id}`)
      await view(v, `${editor}?schedule=${id}`)
      await view(v, `${editor}?delete=${id}`)
    }
    await view(v, `${editor}?pick=1`)

    // Every form of every view, refused: its messages are read where they are shown.
    for (const row of dashboardPages.filter((r) => r.method === 'POST' && r.signedIn)) {
      const action = pathOf(row.url)
      if (/\/(delete|logout)$|\/settings\/(email|password)$|\/settings$|\/import$|\/theme$/.test(action)) continue
      let page = action.startsWith(editor) ? editor : action
      let shown = await v.get(page)
      while (!/name="_csrf"/.test(shown.text) && page.lastIndexOf('/') > 0) {
        page = page.slice(0, page.lastIndexOf('/'))
        shown = await v.get(page)
      }
      await refused(v, page, action, fieldsOf(shown.text, action))
    }
    for (const type of Object.keys(slotTypes)) {
      const page = `${editor}?add=${type}`
      await refused(v, page, `${editor}/blocks`, fieldsOf((await v.get(page)).text, `${editor}/blocks`), { type })
    }
    await refused(v, editor, `${editor}/socials`, [], { op: 'add', link: 'ftp://files.example.com' })
    await refused(v, editor, `${editor}/socials`, [], { op: 'add', link: 'my page' })
    await refused(v, editor, `${editor}/music`, [], { query: 'https://music.example.com/album/1' })
    for (const id of ids)
      await refused(
        v,
        `${editor}?schedule=${id}`,
        `${editor}/blocks/${id}/visibility`,
        fieldsOf((await v.get(`${editor}?schedule=${id}`)).text, `${editor}/blocks/${id}/visibility`),
      )

    // The scripts' own sentences (announcements, the dialog, the live preview's notes).
    for (const file of ['dashboard.js', 'editor/editor.js']) read(file, `<p>${scriptSentences(file)}</p>`)

    assert.deepEqual(
      [...found].map(([hit, where]) => `${where}: ${hit}`),
      [],
    )
  })
})

/** A block of `type` from the type's own example, its images real uploads (an event and a form made the editor's way). */
async function blockOf(t: TestApp, principal: ReturnType<typeof ownerPrincipal>, profileId: number, type: SlotType, shade: number) {
  const def = slotTypes[type]
  const data = structuredClone(def.example) as Record<string, any>
  const key = recordKey(def)
  if (key) delete data[key]
  if (type === 'event')
    return useCases.editor.createEvent(t.ctx, principal, profileId, { event: { title: 'Opening night', startsAt: '2027-05-01T19:30', location: 'Lisbon' } })
  if (type === 'form')
    return useCases.editor.createForm(t.ctx, principal, profileId, {
      form: { title: 'Say hello', fields: [{ label: 'Your name', type: 'text', required: true }] },
      data,
    })
  for (const [i, ref] of (def.files?.(def.example as never) ?? []).entries()) {
    const bytes = await solid(120, 80, 'png', `#${(0x204060 + shade * 0x1000 + i * 0x30).toString(16)}`)
    const file = await useCases.files.upload(t.ctx, principal, { stream: Readable.from(bytes), length: bytes.length })
    const keys = ref.field.split('.')
    let node = data
    for (const k of keys.slice(0, -1)) node = node[k]
    node[keys[keys.length - 1]] = file!.path
  }
  return useCases.slots.create(t.ctx, principal, profileId, { type, data })
}
