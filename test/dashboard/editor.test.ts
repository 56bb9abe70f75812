import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, type Visitor } from '../helpers/dashboard.ts'
import { solid } from '../media/images.ts'
import { DISCOVERY_UPC } from '../music/fakes/fixtures.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'

describe(`dashboard page editor (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  let n = 0
  const unique = () => `ed_${Date.now().toString(36)}${n++}`

  /** A signed-in person with one empty page, its editor's path and the API token to check with. */
  async function withPage() {
    const { v, user } = await registeredVisitor(t)
    const login = unique()
    const created = await v.submit('/my-links', { login })
    assert.equal(created.status, 303)
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const token = await makeToken(t, user)
    return { v, user, login, profile, editor: `/my-links/${profile.id}/editor`, token }
  }

  /** Posts a multipart form (the editor's block forms) with the page's CSRF token, files included. */
  async function postMultipart(v: Visitor, page: string, action: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
    const shown = await v.get(page)
    const body = new FormData()
    body.append('_csrf', csrfOf(shown.text))
    for (const [k, value] of Object.entries(fields)) body.append(k, value)
    for (const [k, bytes] of Object.entries(files)) body.append(k, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'image.png')
    const res = await fetch(new URL(action, t.url), {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; ') },
    })
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }

  /** The field problems a refused page shows, for assertion messages. */
  const shownProblems = (html: string) =>
    [...html.matchAll(/<p class="error" id="([^"]+)">([^<]*)<\/p>|<li><a href="#([^"]+)">([^<]*)<\/a>/g)]
      .map((m) => `${m[1] ?? m[3]}: ${m[2] ?? m[4]}`)
      .join('\n')

  const slotsOf = async (token: string, login: string) => (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]

  it('sends a signed-out visitor to sign in, and shows another account’s editor as not found', async () => {
    const { editor } = await withPage()
    const other = await registeredVisitor(t)
    assert.equal((await other.v.get(editor)).status, 404)
    assert.equal((await other.v.get(`${editor}/preview`)).status, 404)
  })

  it('shows an empty page’s editor with the first block offered, and the preview of the real page', async () => {
    const { v, editor, login } = await withPage()
    const page = await v.get(editor)
    assert.equal(page.status, 200)
    assert.match(page.text, /Your page has no blocks yet/)
    assert.match(page.text, />Add the first block</)
    const preview = await v.get(`${editor}/preview`)
    assert.equal(preview.status, 200)
    assert.match(preview.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/)
    assert.match(preview.text, new RegExp(`@${login}|${login}`))
  })

  it('shows a text block with lists in its text box as lines, never as tags, and saving them keeps the lists', async () => {
    const { v, editor, token, login } = await withPage()
    const made = await t.request('POST', `/v1/profiles/${login}/slots`, {
      token,
      body: { type: 'text', data: { title: 'About', description: '<p>Potter in <strong>Berlin</strong>.</p><ul><li>Bowls</li><li>Vases</li></ul>' } },
    })
    assert.equal(made.status, 201, JSON.stringify(made.body))
    const id = made.body.data.id
    const form = await v.get(`${editor}?edit=${id}`)
    const box = /<textarea id="f-data-description"[^>]*>([^<]*)<\/textarea>/.exec(form.text)
    assert.ok(box, 'the text box is shown')
    assert.equal(box[1], 'Potter in **Berlin**.\n\n- Bowls\n- Vases')
    const saved = await postMultipart(v, `${editor}?edit=${id}`, `${editor}/blocks/${id}`, {
      type: 'text',
      'data.title': 'About',
      'data.description': `${box[1]}\n- Plates`,
      'data.textStyle': 'border',
      'data.link': '',
    })
    assert.equal(saved.status, 303, shownProblems(saved.text))
    const [slot] = await slotsOf(token, login)
    assert.equal(slot.data.description, '<p>Potter in <strong>Berlin</strong>.</p><ul><li>Bowls</li><li>Vases</li><li>Plates</li></ul>')
  })

  it('adds a button block from the generated form, and keeps what was typed beside the core’s message when a save is refused', async () => {
    const { v, editor, token, login } = await withPage()
    const form = await v.get(`${editor}?add=button`)
    // Fields come from the type's schema: its enum labels and limits.
    assert.match(form.text, /<option value="classic-dark">Classic dark<\/option>/)
    assert.match(form.text, /name="data.title"[^>]*maxlength="120"/)
    const refused = await postMultipart(v, `${editor}?add=button`, `${editor}/blocks`, {
      type: 'button',
      'data.title': 'My shop',
      'data.link': 'javascript:alert(1)',
      'data.style': 'primary',
    })
    assert.equal(refused.status, 422)
    assert.match(refused.text, /id="f-data-link-error"/)
    assert.match(refused.text, /value="My shop"/)
    assert.equal((await slotsOf(token, login)).length, 0)
    const saved = await postMultipart(v, `${editor}?add=button`, `${editor}/blocks`, {
      type: 'button',
      'data.title': 'My shop',
      'data.link': 'example.com/shop',
      'data.style': 'primary',
    })
    assert.equal(saved.status, 303)
    const [slot] = await slotsOf(token, login)
    assert.equal(slot.type, 'button')
    assert.equal(slot.data.title, 'My shop')
    assert.equal(slot.data.link, 'https://example.com/shop')
    assert.equal(saved.location, `${editor}#block-${slot.id}`)
  })

  it('makes event and form blocks, which the API cannot, and edits the event in the owner’s time zone', async () => {
    const { v, editor, token, login, user } = await withPage()
    const event = await postMultipart(v, `${editor}?add=event`, `${editor}/blocks`, {
      type: 'event',
      'event.title': 'Launch party',
      'event.startsAt': '2027-05-01T19:30',
      'event.endsAt': '2027-05-01T23:00',
      'event.location': 'Lisbon',
    })
    assert.equal(event.status, 303, shownProblems(event.text))
    const form = await postMultipart(v, `${editor}?add=form`, `${editor}/blocks`, {
      type: 'form',
      'form.title': 'Say hello',
      'form.fields.0.label': 'Your name',
      'form.fields.0.type': 'text',
      'form.fields.0.required': 'true',
      'form.fields.1.label': '',
      'form.fields.1.type': 'text',
      'data.view': 'button',
      'data.buttonText': 'Write to me',
      'data.style': 'primary',
      'data.framed': 'false',
    })
    assert.equal(form.status, 303, shownProblems(form.text))
    const slots = await slotsOf(token, login)
    assert.deepEqual(
      slots.map((s) => s.type),
      ['event', 'form'],
    )
    assert.equal(slots[1].data.view, 'button')
    assert.equal(slots[1].data.buttonText, 'Write to me')
    const publicPage = await (await fetch(`${t.url}/${login}`)).text()
    assert.match(publicPage, /Launch party/)
    assert.match(publicPage, /Write to me/)
    // Registered in UTC: 19:30 is 19:30Z; the editor shows it back as typed.
    assert.equal(user.timezone, 'UTC')
    const edit = await v.get(`${editor}?edit=${slots[0].id}`)
    assert.match(edit.text, /value="2027-05-01T19:30"/)
    const refused = await postMultipart(v, `${editor}?edit=${slots[0].id}`, `${editor}/blocks/${slots[0].id}`, {
      'event.title': '',
      'event.startsAt': '2027-05-01T19:30',
      'event.endsAt': '2027-05-01T18:00',
    })
    assert.equal(refused.status, 422)
    assert.match(refused.text, /id="f-event-title-error"/)
    assert.match(refused.text, /id="f-event-endsAt-error">The event cannot end before it starts|f-event-title-error/)
  })

  it('moves, duplicates and deletes blocks, each in one write, and says where a block went', async () => {
    const { v, editor, token, login } = await withPage()
    for (const title of ['One', 'Two', 'Three']) {
      const res = await postMultipart(v, `${editor}?add=button`, `${editor}/blocks`, { type: 'button', 'data.title': title, 'data.link': 'example.com' })
      assert.equal(res.status, 303)
    }
    let slots = await slotsOf(token, login)
    const moved = await v.submit(editor, { direction: 'up' }, `${editor}/blocks/${slots[2].id}/move`)
    assert.equal(moved.status, 303)
    const after = await v.get(moved.location!)
    assert.match(after.text, /Moved “Three” up: now 2 of 3\./)
    slots = await slotsOf(token, login)
    assert.deepEqual(
      slots.map((s) => s.data.title),
      ['One', 'Three', 'Two'],
    )
    assert.equal((await v.submit(editor, {}, `${editor}/blocks/${slots[0].id}/duplicate`)).status, 303)
    // A delete without the answer to "Delete this block?" asks first and deletes nothing.
    const unasked = await v.submit(editor, {}, `${editor}/blocks/${slots[2].id}/delete`)
    assert.equal(unasked.status, 303)
    assert.equal(unasked.location, `${editor}?delete=${slots[2].id}#confirm-delete`)
    assert.equal((await slotsOf(token, login)).length, 4)
    const question = await v.get(unasked.location!)
    assert.match(question.text, /<h2 id="confirm-delete-h"[^>]*>Delete this block\?<\/h2>\s*<p>Button: “Two”\. Deleting it cannot be undone\.<\/p>/)
    assert.match(
      question.text,
      /<input type="hidden" name="confirmed" value="yes">\s*<button type="submit" class="danger"[^>]*>Delete block<\/button><a class="button secondary" href="[^"]+#block-\d+"[^>]*>Keep it<\/a>/,
    )
    // The card's Delete is that question's address, a form that asks whether or not a script runs.
    assert.match(
      question.text,
      new RegExp(`<form method="get" action="${editor}#confirm-delete"[^>]*><input type="hidden" name="delete" value="${slots[2].id}">`),
    )
    assert.equal((await v.submit(unasked.location!, { confirmed: 'yes' }, `${editor}/blocks/${slots[2].id}/delete`)).status, 303)
    assert.deepEqual(
      (await slotsOf(token, login)).map((s) => s.data.title),
      ['One', 'One', 'Three'],
    )
    const order = (await slotsOf(token, login)).map((s) => s.id).reverse()
    assert.equal((await v.submit(editor, { order: order.join(',') }, `${editor}/order`)).status, 303)
    assert.deepEqual(
      (await slotsOf(token, login)).map((s) => s.data.title),
      ['Three', 'One', 'One'],
    )
  })

  it('sets name, bio, avatar and social links, and refuses a bad social link beside its field', async () => {
    const { v, editor, token, login } = await withPage()
    const saved = await v.submit(editor, { title: 'Jane Doe', description: 'Photographer.\nLisbon.', language: '' }, `${editor}/profile`)
    assert.equal(saved.status, 303, shownProblems(saved.text))
    // A file that is no image is refused like a refused block save: a summary in an alert, linking to the field.
    const refused = await postMultipart(v, editor, `${editor}/images`, { field: 'avatar', op: 'upload' }, { file: Buffer.from('words, not pixels') })
    assert.equal(refused.status, 422)
    assert.match(
      refused.text,
      /<div class="notice bad" role="alert"><p>One field needs attention\. Nothing was saved\.<\/p>\s*<ul><li><a href="#f-avatar-file">[^<]+<\/a><\/li><\/ul><\/div>/,
    )
    assert.match(refused.text, /id="f-avatar-file"[^>]*aria-invalid="true"/)
    const avatar = await postMultipart(v, editor, `${editor}/images`, { field: 'avatar', op: 'upload' }, { file: await solid(300, 300, 'png') })
    assert.equal(avatar.status, 303, shownProblems(avatar.text))
    for (const link of ['instagram.com/jane', 'github.com/jane', 'mailto:jane@example.com']) {
      assert.equal((await v.submit(editor, { op: 'add', link }, `${editor}/socials`)).status, 303)
    }
    const bad = await v.submit(editor, { op: 'add', link: 'javascript:alert(1)' }, `${editor}/socials`)
    assert.equal(bad.status, 422)
    assert.match(bad.text, /id="f-link-error"/)
    assert.match(bad.text, /value="javascript:alert\(1\)"/)
    assert.equal((await v.submit(editor, { op: 'up', index: '2' }, `${editor}/socials`)).status, 303)
    const profile = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data
    assert.equal(profile.title, 'Jane Doe')
    assert.equal(profile.description, 'Photographer.\nLisbon.')
    assert.ok(profile.avatar)
    assert.deepEqual(
      profile.computed.socials.map((s: any) => s.icon),
      ['instagram', 'email', 'github'],
    )
  })

  it('uploads a picture chosen in the block form and stores its alternative text', async () => {
    const { v, editor, token, login } = await withPage()
    const res = await postMultipart(
      v,
      `${editor}?add=picture`,
      `${editor}/blocks`,
      { type: 'picture', 'data.path': '', 'data.alt': 'A red door', 'data.size': 'medium', 'data.link': '' },
      { 'data.path.file': await solid(200, 100, 'png') },
    )
    assert.equal(res.status, 303, shownProblems(res.text))
    const [slot] = await slotsOf(token, login)
    assert.equal(slot.data.alt, 'A red door')
    assert.match(await (await fetch(`${t.url}/${login}`)).text(), /alt="A red door"/)
  })

  it('makes a gallery from images chosen row by row, each with its alternative text, dropping an empty row', async () => {
    const { v, editor, token, login } = await withPage()
    const res = await postMultipart(
      v,
      `${editor}?add=gallery`,
      `${editor}/blocks`,
      {
        type: 'gallery',
        'data.title': 'Doors',
        'data.items.0.path': '',
        'data.items.0.alt': 'A red door',
        'data.items.1.path': '',
        'data.items.1.text': 'Blue',
        'data.items.2.path': '',
        'data.items.2.text': '',
      },
      { 'data.items.0.path.file': await solid(120, 120, 'png', '#aa0000'), 'data.items.1.path.file': await solid(120, 120, 'png', '#0000aa') },
    )
    assert.equal(res.status, 303, shownProblems(res.text))
    const [slot] = await slotsOf(token, login)
    assert.equal(slot.data.items.length, 2)
    assert.equal(slot.data.items[0].alt, 'A red door')
    assert.equal(slot.data.items[1].text, 'Blue')
    const edit = await v.get(`${editor}?edit=${slot.id}`)
    assert.match(edit.text, /<legend>Item 2<\/legend>/)
    assert.match(edit.text, /name="data.items.1.path" value="u\d+\//)
  })

  it('reorders a FAQ’s rows before saving, without a script: each move a post that keeps what was typed and says where the row went', async () => {
    const { v, editor, token, login } = await withPage()
    const rows = {
      type: 'faq',
      'data.title': 'Questions',
      'data.faqStyle': 'border-faq',
      'data.items.0.title': 'First?',
      'data.items.0.text': 'One.',
      'data.items.1.title': 'Second?',
      'data.items.1.text': 'Two.',
      'data.items.2.title': 'Third?',
      'data.items.2.text': 'Three.',
    }
    const moved = await postMultipart(v, `${editor}?add=faq`, `${editor}/blocks`, { ...rows, _move: 'data.items.2.up' })
    assert.equal(moved.status, 200, shownProblems(moved.text))
    assert.match(moved.text, /<p class="notice" role="status" data-announce>Moved up: now 2 of 3\. Save the block to keep this order\.<\/p>/)
    const titles = (html: string) => [...html.matchAll(/name="data\.items\.(\d+)\.title" value="([^"]*)"/g)].map((m) => `${m[1]}:${m[2]}`)
    assert.deepEqual(titles(moved.text), ['0:First?', '1:Third?', '2:Second?'])
    // The moved row's own Move up keeps the focus (it is the row at 2 now); the first row cannot move up.
    assert.match(
      moved.text,
      /<button type="submit" class="secondary" name="_move" value="data\.items\.1\.up" formnovalidate autofocus>Move up<span class="sr-only">: item 2<\/span><\/button>/,
    )
    assert.match(moved.text, /name="_move" value="data\.items\.0\.up" formnovalidate disabled>/)
    assert.equal((await slotsOf(token, login)).length, 0, 'a move saves nothing')

    // At the top, the focus goes to the other direction; a removed row is gone from the draft.
    const top = await postMultipart(v, `${editor}?add=faq`, `${editor}/blocks`, { ...rows, _remove: 'data.items.0', _move: 'data.items.2.up' })
    assert.match(top.text, /Moved up: now 1 of 2\./)
    assert.deepEqual(titles(top.text), ['0:Third?', '1:Second?'])
    assert.match(top.text, /value="data\.items\.0\.down" formnovalidate autofocus>/)

    // Another row, then Save: the block is stored in the order shown.
    const more = await postMultipart(v, `${editor}?add=faq`, `${editor}/blocks`, { ...rows, _more: 'data.items' })
    assert.deepEqual(titles(more.text), ['0:First?', '1:Second?', '2:Third?', '3:'])
    const saved = await postMultipart(v, `${editor}?add=faq`, `${editor}/blocks`, {
      ...rows,
      'data.items.0.title': 'Third?',
      'data.items.0.text': 'Three.',
      'data.items.2.title': 'First?',
      'data.items.2.text': 'One.',
      'data.items.3.title': 'Fourth?',
      'data.items.3.text': 'Four.',
    })
    assert.equal(saved.status, 303, shownProblems(saved.text))
    assert.deepEqual(
      (await slotsOf(token, login))[0].data.items.map((i: any) => i.title),
      ['Third?', 'Second?', 'First?', 'Fourth?'],
    )
  })

  it('moves a gallery image with its uploaded file, alternative text and link', async () => {
    const { v, editor, token, login } = await withPage()
    const created = await postMultipart(
      v,
      `${editor}?add=gallery`,
      `${editor}/blocks`,
      {
        type: 'gallery',
        'data.title': 'Doors',
        'data.items.0.path': '',
        'data.items.0.alt': 'A red door',
        'data.items.1.path': '',
        'data.items.1.alt': 'A blue door',
      },
      { 'data.items.0.path.file': await solid(120, 120, 'png', '#aa0000'), 'data.items.1.path.file': await solid(120, 120, 'png', '#0000aa') },
    )
    assert.equal(created.status, 303, shownProblems(created.text))
    const [slot] = await slotsOf(token, login)
    const [red, blue] = slot.data.items
    const form = {
      'data.title': 'Doors',
      'data.items.0.path': red.path,
      'data.items.0.alt': red.alt,
      'data.items.1.path': blue.path,
      'data.items.1.alt': blue.alt,
    }
    const moved = await postMultipart(v, `${editor}?edit=${slot.id}`, `${editor}/blocks/${slot.id}`, { ...form, _move: 'data.items.0.down' })
    assert.equal(moved.status, 200)
    assert.match(moved.text, /Moved down: now 2 of 2\./)
    assert.match(moved.text, new RegExp(`name="data.items.0.path" value="${blue.path}">[\\s\\S]*name="data.items.1.path" value="${red.path}">`))
    assert.match(moved.text, /name="data\.items\.1\.alt" value="A red door"/)
    const saved = await postMultipart(v, `${editor}?edit=${slot.id}`, `${editor}/blocks/${slot.id}`, {
      'data.title': 'Doors',
      'data.items.0.path': blue.path,
      'data.items.0.alt': blue.alt,
      'data.items.1.path': red.path,
      'data.items.1.alt': red.alt,
    })
    assert.equal(saved.status, 303, shownProblems(saved.text))
    assert.deepEqual(
      (await slotsOf(token, login))[0].data.items.map((i: any) => i.alt),
      ['A blue door', 'A red door'],
    )
  })

  it('gives colour fields of the schema (button customize) a picker beside their text field', async () => {
    const { v, editor, token, login } = await withPage()
    const form = await v.get(`${editor}?add=button`)
    assert.match(
      form.text,
      /<input id="f-data-customize-backgroundColor" type="text" name="data\.customize\.backgroundColor" value="#424248"[^>]*><input type="color" aria-label="Background color: pick a colour" data-colour-for="f-data-customize-backgroundColor" hidden>/,
    )
    // Only colour fields: the title is a plain text field.
    assert.equal(form.text.match(/<input type="color"/g)?.length, 3)
    const saved = await postMultipart(v, `${editor}?add=button`, `${editor}/blocks`, {
      type: 'button',
      'data.title': 'Mine',
      'data.link': 'example.com',
      'data.style': 'custom',
      'data.customize.backgroundColor': '#112233',
      'data.customize.textColor': 'white',
      'data.customize.subtitleColor': '#eeeeee',
      'data.customize.borderRadius': '8',
    })
    assert.equal(saved.status, 303, shownProblems(saved.text))
    assert.equal((await slotsOf(token, login))[0].data.customize.backgroundColor, '#112233')
  })

  it('answers a dry run with the core’s messages and stores nothing', async () => {
    const { v, editor, token, login } = await withPage()
    const shown = await v.get(`${editor}?add=youtube`)
    const res = await fetch(new URL(`${editor}/blocks`, t.url), {
      method: 'POST',
      headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'content-type': 'application/x-www-form-urlencoded', 'x-editor-dry-run': '1' },
      body: new URLSearchParams({ _csrf: csrfOf(shown.text), type: 'youtube', 'data.link': 'https://example.com/not-a-video' }).toString(),
    })
    assert.equal(res.status, 200)
    const body = await res.json()
    assert.ok(body.errors['data.link'])
    assert.equal((await slotsOf(token, login)).length, 0)
  })
})

describe(`dashboard page editor: music, auto (${STORE})`, () => {
  let t: TestApp
  let fakes: FakeUpstreams
  before(async () => {
    fakes = await startFakeUpstreams()
    t = await startApp({ ...fakes.env })
  })
  after(async () => {
    await t.close()
    await fakes.close()
  })

  it('looks a release up from a UPC, shows the ready block before saving, and saves it as shown', async () => {
    const { v, user } = await registeredVisitor(t)
    const login = `mu_${Date.now().toString(36)}`
    await v.submit('/my-links', { login })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const editor = `/my-links/${profile.id}/editor`
    const found = await v.submit(`${editor}?add=music`, { query: DISCOVERY_UPC, artist: '' }, `${editor}/music`)
    assert.equal(found.status, 200)
    assert.match(found.text, /Found .* on \d+ platforms?\. Check the block below, then save it\./)
    // The block's fields are filled from the lookup: the links, and the mode auto, which the editor sets itself (never asked).
    assert.match(found.text, /<input type="hidden" name="data\.mode" value="auto">/)
    assert.doesNotMatch(found.text, /<select[^>]*name="data\.mode"/)
    const links = [...found.text.matchAll(/name="(data\.links\.\d+\.link)" value="([^"]+)"/g)].map((m) => [m[1], m[2]])
    assert.ok(links.length >= 2, 'several platform links')
    const fields: Record<string, string> = { _csrf: csrfOf(found.text), type: 'music' }
    for (const m of found.text.matchAll(/<input id="[^"]+" type="text" name="(data\.[^"]+)" value="([^"]*)"/g)) fields[m[1]] = m[2].replace(/&amp;/g, '&')
    for (const m of found.text.matchAll(/<select id="[^"]+" name="(data\.[^"]+)"[^>]*>.*?<option value="([^"]+)" selected>/gs)) fields[m[1]] = m[2]
    fields['data.mode'] = /name="data\.mode" value="(\w+)"/.exec(found.text)![1]
    const saved = await v.post(`${editor}/blocks`, fields)
    assert.equal(saved.status, 303)
    const token = await makeToken(t, user)
    const [slot] = (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data
    assert.equal(slot.type, 'music')
    assert.equal(slot.data.mode, 'auto')
    assert.deepEqual(
      slot.data.links.map((l: any) => l.link),
      links.map(([, link]) => link.replace(/&amp;/g, '&')),
    )
  })

  it('says what to send when nothing is found', async () => {
    const { v, user } = await registeredVisitor(t)
    await v.submit('/my-links', { login: `mu_${Date.now().toString(36)}x` })
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const editor = `/my-links/${profile.id}/editor`
    const res = await v.submit(`${editor}?add=music`, { query: '', artist: '' }, `${editor}/music`)
    assert.equal(res.status, 422)
    assert.match(res.text, /id="f-query-error"/)
  })
})
