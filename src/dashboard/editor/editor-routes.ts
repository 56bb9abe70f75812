import { Readable } from 'node:stream'
import { ownerPrincipal, type Principal } from '../../auth/principal.ts'
import { AppError, type FieldErrors } from '../../kernel/errors.ts'
import * as useCases from '../../core/use-cases.ts'
import { publicFileUrl } from '../../media/file-url.ts'
import { render } from '../../core/use-cases.ts'
import { pageSecurityHeaders } from '../../rendering/page-security-headers.ts'
import { pageStyle } from '../../rendering/theme.ts'
import { publicPageUrl } from '../../profiles/profile-resource.ts'
import { slotTypeOf, slotTypes } from '../../slots/registry.ts'
import { SLOT_TYPES, type SlotType } from '../../slots/types.ts'
import type { User } from '../../core/use-cases.ts'
import { type Form, type PageInput, type PageRow, text } from '../page-routes.ts'
import { EDITOR_ASSETS } from './editor-assets.ts'
import { blockSummary, type EditorState, editorBody, type Panel } from './editor-view.ts'
import { formData, rowMoveOf, uploadFields } from './schema-fields.ts'
import { livePreviewOf } from './live-preview.ts'
import { blockVisibilityPages } from './block-visibility.ts'
import { plainErrors, plainMessage } from '../plain-words.ts'
import { pageDesignPages } from './page-design.ts'

// The page editor: one page per profile under /my-links/:id/editor. Every action is a plain form
// post that answers with a redirect back to the editor (post/redirect/get), or, when a save is
// refused, the editor again with the core's messages beside their fields and everything typed
// kept. The script only makes the same posts without reloading the page.

const at = '/my-links/:profileId/editor'

export const editorPages: PageRow[] = [
  { method: 'GET', url: at, signedIn: true, handler: (p) => show(p) },
  { method: 'GET', url: `${at}/preview`, signedIn: true, handler: preview },
  { method: 'POST', url: `${at}/profile`, signedIn: true, multipart: true, handler: saveProfile },
  { method: 'POST', url: `${at}/images`, signedIn: true, multipart: true, handler: saveImage },
  { method: 'POST', url: `${at}/socials`, signedIn: true, multipart: true, handler: saveSocials },
  { method: 'POST', url: `${at}/music`, signedIn: true, multipart: true, handler: lookupMusic },
  { method: 'POST', url: `${at}/order`, signedIn: true, multipart: true, handler: reorder },
  { method: 'POST', url: `${at}/blocks`, signedIn: true, multipart: true, handler: (p) => saveBlock(p, undefined) },
  { method: 'POST', url: `${at}/blocks/:slotId`, signedIn: true, multipart: true, handler: (p) => saveBlock(p, slotIdOf(p)) },
  { method: 'POST', url: `${at}/blocks/:slotId/move`, signedIn: true, multipart: true, handler: move },
  { method: 'POST', url: `${at}/blocks/:slotId/duplicate`, signedIn: true, multipart: true, handler: duplicate },
  { method: 'POST', url: `${at}/blocks/:slotId/delete`, signedIn: true, multipart: true, handler: remove },
  ...blockVisibilityPages(at, (p, s, status) => show(p, s, status)),
  ...pageDesignPages(at, (p, s, status) => show(p, s, status)),
]

/** The page id of the path; anything but a positive integer is a page no one has (a 404 page). */
const profileIdOf = (p: PageInput<User>) => (/^[1-9]\d{0,15}$/.test(p.params.profileId) ? Number(p.params.profileId) : 0)
const slotIdOf = (p: PageInput<User>) => (/^[1-9]\d{0,15}$/.test(p.params.slotId ?? '') ? Number(p.params.slotId) : 0)
const editorUrl = (p: PageInput<User>, hash = '') => `/my-links/${profileIdOf(p)}/editor${hash}`
const principalOf = (p: PageInput<User>): Principal => ownerPrincipal(p.user)

/** A script's dry run (validation as you type): the same use case rolled back, answered as JSON. */
const isDryRun = (p: PageInput<User>) => p.req.headers['x-editor-dry-run'] === '1'

async function show(p: PageInput<User>, s: EditorState = {}, status = 200) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  const profile = await useCases.profiles.get(p.ctx, principal, id)
  if (!s.panel) s.panel = panelFromQuery(p)
  const deleting = Number(p.query.delete)
  if (!s.deleting && Number.isSafeInteger(deleting) && deleting > 0) s.deleting = deleting
  if (!s.panel && p.query.pick === '1') s.picking = true
  const scheduling = Number(p.query.schedule)
  if (!s.scheduling && Number.isSafeInteger(scheduling) && scheduling > 0) s.scheduling = scheduling
  const [settings, slots, records] = await Promise.all([
    useCases.profiles.getSettings(p.ctx, principal, id),
    useCases.slots.list(p.ctx, principal, id),
    useCases.editor.records(p.ctx, principal, id),
  ])
  if (s.panel?.mode === 'edit') {
    const editing = slots.find((x) => x.id === s.panel?.slotId && x.supported)
    s.panel = editing ? { ...s.panel, type: editing.type as SlotType } : undefined
  }
  const body = editorBody(
    {
      profile,
      settings,
      slots,
      records,
      timeZone: p.user.timezone || 'UTC',
      csrf: p.csrf(),
      fileUrl: (path) => publicFileUrl(p.ctx.config.publicUrl, path),
      publicUrl: publicPageUrl(p.ctx.config, profile.login),
    },
    s,
  )
  return p.render({ title: `Edit ${profile.title || profile.login}`, active: 'my-links', body, own: EDITOR_ASSETS }, status)
}

function panelFromQuery(p: PageInput<User>): Panel | undefined {
  const add = p.query.add
  if (add && Object.hasOwn(slotTypes, add)) return { mode: 'add', type: add as SlotType }
  const edit = Number(p.query.edit)
  // The type is the block's own, read once the page's blocks are (show()).
  if (Number.isSafeInteger(edit) && edit > 0) return { mode: 'edit', type: SLOT_TYPES[0], slotId: edit }
  return undefined
}

/** The owner's page as the public sees it, fresh, for the editor's preview frame (never cached or counted). */
async function preview(p: PageInput<User>) {
  const profile = await useCases.editor.page(p.ctx, principalOf(p), profileIdOf(p))
  const html = await render.page(p.ctx, profile)
  const headers = pageSecurityHeaders(p.ctx.config.publicUrl, pageStyle(profile.themeId).hash)
  headers['content-security-policy'] = headers['content-security-policy'].replace("frame-ancestors 'none'", "frame-ancestors 'self'")
  return p.reply
    .headers({ ...headers, 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' })
    .type('text/html; charset=utf-8')
    .send(html)
}

/** A refused write's field problems (a 422 from the core); anything else is not ours to show. */
function problems(err: unknown): FieldErrors {
  if (err instanceof AppError && err.code === 'validation_failed' && err.errors) return plainErrors(err.errors)
  if (err instanceof AppError && (err.code === 'limit_reached' || err.code === 'read_only')) return { _: [plainMessage(err.message)] }
  throw err
}

async function saveProfile(p: PageInput<User>) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  const values = { title: text(p.form, 'title'), description: text(p.form, 'description'), language: text(p.form, 'language') }
  const errors: FieldErrors = {}
  const look = livePreviewOf(p)
  try {
    await useCases.profiles.update(
      p.ctx,
      principal,
      id,
      { title: values.title.trim() || null, description: values.description.trim() || null },
      look?.options ?? { dryRun: isDryRun(p) },
    )
  } catch (err) {
    Object.assign(errors, problems(err))
  }
  if (look) return look.answer()
  try {
    const languageId = values.language === '' ? null : Number(values.language)
    await useCases.profiles.changeSettings(
      p.ctx,
      principal,
      id,
      { languageId: languageId === null || Number.isSafeInteger(languageId) ? languageId : -1 },
      { dryRun: true },
    )
  } catch (err) {
    for (const [k, v] of Object.entries(problems(err))) errors[k === 'languageId' ? 'language' : k] = v
  }
  if (isDryRun(p)) return p.reply.send({ errors })
  if (Object.keys(errors).length) return show(p, { profile: { values, errors } }, 422)
  // Both checked above; the language is written only once the profile fields are known good.
  await useCases.profiles.changeSettings(p.ctx, principal, id, { languageId: values.language === '' ? null : Number(values.language) })
  if (text(p.form, 'main') === 'yes') await useCases.editor.makeMain(p.ctx, principal, id)
  return p.redirect(editorUrl(p), 'Profile saved.')
}

async function upload(p: PageInput<User>, bytes: Buffer): Promise<string> {
  const file = await useCases.files.upload(p.ctx, principalOf(p), { stream: Readable.from(bytes), length: bytes.length })
  if (!file) throw new Error('upload stored nothing')
  return file.path
}

async function saveImage(p: PageInput<User>) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  const field = text(p.form, 'field') === 'bgImage' ? 'bgImage' : 'avatar'
  const label = field === 'avatar' ? 'avatar' : 'cover'
  if (text(p.form, 'op') === 'remove') {
    await useCases.profiles.update(p.ctx, principal, id, { [field]: null })
    return p.redirect(editorUrl(p), `The ${label} is removed.`)
  }
  const bytes = p.files.file
  if (!bytes) return show(p, { images: { [`${field}.file`]: [`Choose an image file for the ${label} first.`] } }, 422)
  try {
    const path = await upload(p, bytes)
    await useCases.profiles.update(p.ctx, principal, id, { [field]: path })
  } catch (err) {
    const found = problems(err)
    return show(p, { images: { [`${field}.file`]: Object.values(found).flat() } }, 422)
  }
  return p.redirect(editorUrl(p), `The new ${label} is on your page.`)
}

async function saveSocials(p: PageInput<User>) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  const profile = await useCases.profiles.get(p.ctx, principal, id)
  const links = profile.socials.map((s) => s.link)
  const op = text(p.form, 'op')
  const index = Number(text(p.form, 'index'))
  const valid = Number.isInteger(index) && index >= 0 && index < links.length
  let message: string
  if (op === 'add') {
    const link = text(p.form, 'link').trim()
    links.push(link)
    message = 'Social link added.'
  } else if (valid && op === 'remove') {
    links.splice(index, 1)
    message = 'Social link removed.'
  } else if (valid && (op === 'up' || op === 'down')) {
    const to = op === 'up' ? index - 1 : index + 1
    if (to < 0 || to >= links.length) return p.redirect(editorUrl(p))
    ;[links[index], links[to]] = [links[to], links[index]]
    message = `Social link moved ${op}: now ${to + 1} of ${links.length}.`
  } else return p.redirect(editorUrl(p))
  try {
    await useCases.profiles.update(p.ctx, principal, id, { socials: links.map((link, order) => ({ link, order })) }, { dryRun: isDryRun(p) })
  } catch (err) {
    const found = problems(err)
    // The new link is the last one: its problems go beside the field it was typed in.
    const errors: FieldErrors = {}
    for (const [k, v] of Object.entries(found)) errors[/^socials\.\d+\.link$/.test(k) || k === 'socials' ? 'link' : k] = v
    if (isDryRun(p)) return p.reply.send({ errors })
    return show(p, { social: { link: text(p.form, 'link'), errors } }, 422)
  }
  if (isDryRun(p)) return p.reply.send({ errors: {} })
  return p.redirect(editorUrl(p), message)
}

/** The typed values of an editor sub-form (`event.title`, `form.fields.0.label`) as an object. */
function nested(form: Form, prefix: string): Record<string, unknown> {
  const out: Record<string, any> = {}
  for (const [key, raw] of Object.entries(form)) {
    if (!key.startsWith(`${prefix}.`)) continue
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw
    const path = key.slice(prefix.length + 1).split('.')
    let node = out
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value
      else node = node[part] ??= {}
    })
  }
  return out
}

/** The form block's questions as typed: rows in order, empty labels dropped. */
function formInput(form: Form) {
  const raw = nested(form, 'form') as Record<string, any>
  const rows = Object.entries((raw.fields ?? {}) as Record<string, Record<string, string>>)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, f]) => ({ label: (f.label ?? '').trim(), type: f.type ?? 'text', required: f.required === 'true' }))
    .filter((f) => f.label)
  return { title: String(raw.title ?? ''), description: String(raw.description ?? ''), submitLabel: String(raw.submitLabel ?? ''), fields: rows }
}

/** Maps form-record error keys (`form.fields.2.label`) to the rows as shown, which include dropped blanks. */
function saveBlockState(
  p: PageInput<User>,
  type: SlotType,
  slotId: number | undefined,
  data: Record<string, unknown>,
  errors: FieldErrors,
  extraRows?: Record<string, number>,
): Panel {
  const panel: Panel = { mode: slotId === undefined ? 'add' : 'edit', type, slotId, data, errors, extraRows }
  if (type === 'event') panel.event = nested(p.form, 'event')
  if (type === 'form') panel.form = formInput(p.form)
  return panel
}

async function saveBlock(p: PageInput<User>, slotId: number | undefined) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  let type = text(p.form, 'type') as SlotType
  if (slotId !== undefined) {
    const slot = await useCases.slots.get(p.ctx, principal, id, slotId) // 404 for a block not on this page
    type = slot.type as SlotType
  }
  const def = slotTypeOf(type)
  if (!def) return p.redirect(editorUrl(p), 'Choose a block type from the list.', true)
  const look = livePreviewOf(p)
  const dryRun = isDryRun(p) || look !== undefined
  const options = look?.options ?? { dryRun }

  // Images chosen in the form are uploaded first: a refused save keeps their paths, so nothing is chosen twice.
  const uploaded: Record<string, string> = {}
  const errors: FieldErrors = {}
  if (!dryRun) {
    for (const [name, bytes] of Object.entries(p.files)) {
      const field = name.replace(/\.file$/, '')
      if (!uploadFields(def).has(field.replace(/^data\./, '').replace(/\.\d+(?=\.|$)/g, '.*'))) continue
      try {
        uploaded[field] = await upload(p, bytes)
      } catch (err) {
        errors[field] = Object.values(problems(err)).flat()
      }
    }
  }
  const moved = rowMoveOf(text(p.form, '_move'))
  const data = formData(def, p.form, uploaded, moved)
  const more = text(p.form, '_more')
  if (more && !look) return show(p, { panel: saveBlockState(p, type, slotId, data, errors, { [more]: 1 }) })
  if (moved && !look) {
    const said =
      moved.to === undefined
        ? 'That row cannot move further.'
        : `Moved ${moved.up ? 'up' : 'down'}: now ${moved.to + 1} of ${moved.count}. Save the block to keep this order.`
    return show(p, { panel: { ...saveBlockState(p, type, slotId, data, errors), moved, said } })
  }

  let saved: { id: number } | undefined
  try {
    if (Object.keys(errors).length) throw new AppError('validation_failed', { errors })
    if (type === 'event') {
      const event = nested(p.form, 'event')
      saved =
        slotId === undefined
          ? await useCases.editor.createEvent(p.ctx, principal, id, { event }, options)
          : await useCases.editor.updateEvent(p.ctx, principal, id, { slot: slotId, event }, options)
    } else if (type === 'form') {
      const form = formInput(p.form)
      saved =
        slotId === undefined
          ? await useCases.editor.createForm(p.ctx, principal, id, { form, data }, options)
          : await useCases.editor.updateForm(p.ctx, principal, id, { slot: slotId, form, data }, options)
    } else if (slotId === undefined) {
      saved = await useCases.slots.create(p.ctx, principal, id, { type, data }, options)
    } else {
      // The whole form is sent, so the merge replaces every field the type has.
      saved = await useCases.slots.update(p.ctx, principal, id, { slot: slotId, data }, options)
    }
  } catch (err) {
    const found = problems(err)
    if (look) return look.answer()
    if (dryRun) return p.reply.send({ errors: found })
    return show(p, { panel: saveBlockState(p, type, slotId, data, { ...errors, ...found }) }, 422)
  }
  if (look) return look.answer()
  if (dryRun) return p.reply.send({ errors: {} })
  return p.redirect(editorUrl(p, `#block-${saved.id}`), slotId === undefined ? `${def.title} block added.` : `${def.title} block saved.`)
}

async function lookupMusic(p: PageInput<User>) {
  const query = text(p.form, 'query').trim()
  const artist = text(p.form, 'artist').trim()
  const panel: Panel = { mode: 'add', type: 'music', lookup: { query, artist } }
  if (!query) return show(p, { panel: { ...panel, lookup: { query, artist, errors: { query: ['Paste a link, a UPC, an ISRC or a title.'] } } } }, 422)
  try {
    const result = await useCases.music.lookup(p.ctx, principalOf(p), { query, artist: artist || undefined })
    const found = `Found ${[result.album, result.artist].filter(Boolean).join(' by ') || 'a release'} on ${result.links.length} platform${result.links.length === 1 ? '' : 's'}.`
    // spec, music mode: it records which section of this dialog made the block.
    return show(p, { panel: { ...panel, data: { ...(result.slot.data as Record<string, unknown>), mode: 'auto' }, lookup: { query, artist, found } } })
  } catch (err) {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'upstream_unavailable')) {
      // Said in plain words, with the manual section below already holding what was typed.
      const failed =
        err.code === 'upstream_unavailable'
          ? 'The music services could not be reached just now, so nothing was found. Try again in a minute, or enter the links by hand below.'
          : 'No music service knows this release. Check what you typed, or enter the links by hand below.'
      return show(p, { panel: { ...panel, data: typedByHand(query, artist), lookup: { query, artist, failed, errors: { query: [failed] } } } }, err.status)
    }
    if (err instanceof AppError && err.code === 'validation_failed') {
      const errors = plainErrors(err.errors && Object.keys(err.errors).length ? err.errors : { query: [err.message] })
      return show(p, { panel: { ...panel, lookup: { query, artist, errors } } }, err.status)
    }
    throw err
  }
}

/** What was typed in the lookup, put where it belongs in the manual section: a link as the first link, else the title. */
function typedByHand(query: string, artist: string): Record<string, unknown> {
  const isLink = /^(https?:\/\/|[\w-]+(\.[\w-]+)+\/)/i.test(query)
  return isLink ? { mode: 'manual', artist, links: [{ link: query }] } : { mode: 'manual', album: query, artist }
}

async function reorder(p: PageInput<User>) {
  const order = text(p.form, 'order')
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isSafeInteger(x))
  try {
    await useCases.slots.reorder(p.ctx, principalOf(p), profileIdOf(p), { order })
  } catch (err) {
    problems(err)
    // The list on the screen is older than the page (another tab, another face changed it).
    return p.redirect(editorUrl(p), 'The page changed since this list was shown: here it is again; move the block once more.', true)
  }
  const moved = Number(text(p.form, 'moved'))
  const position = order.indexOf(moved)
  return p.redirect(
    editorUrl(p, position >= 0 ? `#block-${moved}` : ''),
    position >= 0 ? `Block moved: now ${position + 1} of ${order.length}.` : 'New order saved.',
  )
}

async function move(p: PageInput<User>) {
  const principal = principalOf(p)
  const id = profileIdOf(p)
  const slotId = slotIdOf(p)
  const slots = await useCases.slots.list(p.ctx, principal, id)
  const from = slots.findIndex((s) => s.id === slotId)
  if (from === -1) return p.redirect(editorUrl(p), 'That block is no longer on this page.', true)
  const up = text(p.form, 'direction') === 'up'
  const to = up ? from - 1 : from + 1
  if (to < 0 || to >= slots.length) return p.redirect(editorUrl(p, `#block-${slotId}`))
  const order = slots.map((s) => s.id)
  ;[order[from], order[to]] = [order[to], order[from]]
  await useCases.slots.reorder(p.ctx, principal, id, { order })
  const records = await useCases.editor.records(p.ctx, principal, id)
  const name = blockSummary(slots[from], records.get(slotId))
  return p.redirect(editorUrl(p, `#block-${slotId}`), `Moved “${name}” ${up ? 'up' : 'down'}: now ${to + 1} of ${slots.length}.`)
}

async function duplicate(p: PageInput<User>) {
  try {
    const copy = await useCases.editor.duplicate(p.ctx, principalOf(p), profileIdOf(p), { slot: slotIdOf(p) })
    return p.redirect(editorUrl(p, `#block-${copy.id}`), 'Block duplicated: the copy is right below it.')
  } catch (err) {
    return p.redirect(editorUrl(p), Object.values(problems(err)).flat().join(' '), true)
  }
}

async function remove(p: PageInput<User>) {
  // A post without the answer to "Delete this block?" (an old page, a stray click) asks first.
  if (text(p.form, 'confirmed') !== 'yes') return p.redirect(`${editorUrl(p)}?delete=${slotIdOf(p)}#confirm-delete`)
  await useCases.slots.remove(p.ctx, principalOf(p), profileIdOf(p), { slot: slotIdOf(p) })
  return p.redirect(editorUrl(p, '#ed-blocks-h'), 'Block deleted.')
}
