import type { FieldErrors } from '../../kernel/errors.ts'
import { FORM_FIELD_TYPE_LABELS, FORM_FIELD_TYPES, utcToWallTime } from '../../core/use-cases.ts'
import { limits } from '../../kernel/limits.ts'
import { socialIconSvg } from '../../rendering/social-icon-svg.ts'
import type { ProfileResource, ProfileSettings } from '../../profiles/profile-schemas.ts'
import { h, raw, type SafeHtml } from '../../slots/shared/html.ts'
import type { EventView, FormView } from '../../kernel/slot-records.ts'
import { slotTypeOf, slotTypes } from '../../slots/registry.ts'
import type { SlotResource } from '../../slots/slot-resource.ts'
import type { SlotType } from '../../slots/types.ts'
import { linkAsTyped } from '../format.ts'
import { csrfField } from '../layout.ts'
import { dropZone, IMAGE_TYPES, type RowMove, schemaFields } from './schema-fields.ts'
import { type ScheduleState, visibilityBadge, visibilityControls } from './block-visibility.ts'
import { type AddressState, addressSection, themeSection } from './page-design.ts'
import { blockPicker, previewAside } from './editor-parts.ts'

/** What the block panel shows: a new block of a type, or one block being edited; with what was typed when a save was refused. */
export interface Panel {
  mode: 'add' | 'edit'
  type: SlotType
  slotId?: number
  data?: Record<string, unknown>
  event?: Record<string, unknown>
  form?: Record<string, unknown>
  errors?: FieldErrors
  extraRows?: Record<string, number>
  lookup?: { query: string; artist: string; found?: string; errors?: FieldErrors; failed?: string }
  /** A row just moved inside the block (before saving), and the words that say where it went. */
  moved?: RowMove
  said?: string
}

export interface EditorState {
  panel?: Panel
  profile?: { values: Record<string, string>; errors: FieldErrors }
  social?: { link: string; errors: FieldErrors }
  images?: FieldErrors
  /** The block whose Delete was pressed: the editor asks before deleting it. */
  deleting?: number
  /** "Add block" was pressed: the types to choose from are shown where the new block will go. */
  picking?: boolean
  /** The block whose schedule is open on its card, and what was typed when a save was refused. */
  scheduling?: number
  schedule?: ScheduleState
  address?: AddressState
}

export interface EditorModel {
  profile: ProfileResource
  settings: ProfileSettings
  slots: SlotResource[]
  records: Map<number, unknown>
  timeZone: string
  csrf: string
  fileUrl: (path: string) => string
  publicUrl: string
}

const base = (m: EditorModel) => `/my-links/${m.profile.id}/editor`
const TYPE_ORDER = Object.keys(slotTypes) as SlotType[]

/**
 * The summary of a refused save, read out at once (role="alert"), each problem a link to its field.
 * A chosen file is not kept (browsers do not refill file fields), so `kept` is false for uploads.
 */
const errorList = (errors: FieldErrors | undefined, idFor: (key: string) => string = (k) => `f-${k.replace(/[^a-zA-Z0-9_-]/g, '-')}`, kept = true) => {
  if (!errors || !Object.keys(errors).length) return ''
  const n = Object.keys(errors).length
  return h`<div class="notice bad" role="alert"><p>${n === 1 ? 'One field needs attention.' : `${n} fields need attention.`} ${kept ? 'Nothing was saved; what you typed is kept below.' : 'Nothing was saved.'}</p>
<ul>${Object.entries(errors).map(([k, v]) => h`<li><a href="#${idFor(k)}">${v.join(' ')}</a></li>`)}</ul></div>`
}

const fieldId = (name: string) => `f-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`

function input(o: {
  name: string
  label: string
  value: string
  errors?: FieldErrors
  max?: number
  hint?: string
  type?: string
  multiline?: boolean
  required?: boolean
}): SafeHtml {
  const id = fieldId(o.name)
  const problems = o.errors?.[o.name] ?? []
  const described = [o.hint ? `${id}-hint` : '', problems.length ? `${id}-error` : ''].filter(Boolean).join(' ')
  const attrs = h`${o.max ? h` maxlength="${o.max}"` : ''}${o.required ? raw(' required') : ''}${described ? h` aria-describedby="${described}"` : ''}${problems.length ? raw(' aria-invalid="true"') : ''}`
  return h`<div class="field"><label for="${id}">${o.label}</label>
${o.multiline ? h`<textarea id="${id}" name="${o.name}" rows="3"${attrs}>${o.value}</textarea>` : h`<input id="${id}" type="${o.type ?? 'text'}" name="${o.name}" value="${o.value}"${attrs}>`}
${o.hint ? h`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}${problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : ''}</div>`
}

/** A short line that tells blocks apart in the list: the block's own words, else its kind. */
export function blockSummary(slot: SlotResource, record: unknown): string {
  const d = slot.data as Record<string, any>
  if (slot.type === 'event' || slot.type === 'form') return (record as { title?: string } | undefined)?.title ?? 'No longer available'
  const def = slotTypeOf(slot.type)
  if (!def) return 'A block type Slotline no longer offers'
  const words = [d.title, d.subtitle, def.reportTitle?.(d as never), d.link, d.album].find((v) => typeof v === 'string' && v.trim())
  if (words)
    return String(words)
      .replace(/<[^>]*>/g, '')
      .slice(0, 80)
  if (typeof d.alt === 'string' && d.alt.trim()) return d.alt
  return def.title
}

function profileSection(m: EditorModel, s: EditorState): SafeHtml {
  const p = m.profile
  const values = s.profile?.values ?? { title: p.title ?? '', description: p.description ?? '', language: p.languageId === null ? '' : String(p.languageId) }
  const errors = s.profile?.errors
  const languageId = fieldId('language')
  return h`<section class="card" aria-labelledby="ed-profile-h">
<h2 id="ed-profile-h">Profile</h2>
${errorList(errors)}<form method="post" action="${base(m)}/profile" novalidate>
${csrfField(m.csrf)}
${input({ name: 'title', label: 'Display name', value: values.title, errors, max: 200, hint: 'Shown under the avatar.' })}
${input({ name: 'description', label: 'Bio', value: values.description, errors, max: 5000, multiline: true, hint: 'Plain text; line breaks are kept.' })}
<div class="field"><label for="${languageId}">Language of the page</label>
<select id="${languageId}" name="language"${errors?.language ? h` aria-invalid="true" aria-describedby="${languageId}-error"` : ''}><option value="">Same as my account (${m.settings.computed.effectiveLanguageCode})</option>${m.settings.options.languages.map((l) => h`<option value="${l.id}"${String(l.id) === values.language ? raw(' selected') : ''}>${l.name}</option>`)}</select>
${errors?.language ? h`<p class="error" id="${languageId}-error">${errors.language.join(' ')}</p>` : ''}</div>
${p.computed.isMain ? h`<p class="hint">This is your main page.</p>` : h`<div class="field ed-check"><input id="f-main" type="checkbox" name="main" value="yes"> <label for="f-main">Make this my main page</label></div>`}
<button type="submit" data-focus="save-profile">Save profile</button>
</form>
${imageForm(m, 'avatar', 'Avatar', p.avatar, p.computed.avatarUrl, 'A square picture, shown as a circle.', s.images)}
${imageForm(m, 'bgImage', 'Cover', p.bgImage, p.computed.bgImageUrl, 'A wide picture (16:9) across the top of the page.', s.images)}
</section>`
}

function imageForm(
  m: EditorModel,
  name: 'avatar' | 'bgImage',
  label: string,
  path: string | null,
  url: string | null,
  hint: string,
  errors: FieldErrors | undefined,
): SafeHtml {
  const id = fieldId(`${name}-file`)
  const problems = [...(errors?.[name] ?? []), ...(errors?.[`${name}.file`] ?? [])]
  // A refused upload is summed up like a refused block save, so it is announced and leads to its field.
  return h`<form class="ed-image" method="post" action="${base(m)}/images" enctype="multipart/form-data" novalidate>
${problems.length ? errorList({ [`${name}.file`]: problems }, () => id, false) : ''}${csrfField(m.csrf)}<input type="hidden" name="field" value="${name}">
${dropZone(
  `Drop the ${label.toLowerCase()} image here`,
  h`<label for="${id}">${label} image</label>
${path && url ? h`<img class="ed-thumb${name === 'avatar' ? ' round' : ''}" src="${url}" alt="Your current ${label.toLowerCase()}" width="64" height="64">` : ''}
<input id="${id}" type="file" name="file" accept="${IMAGE_TYPES}" aria-describedby="${id}-hint${problems.length ? ` ${id}-error` : ''}"${problems.length ? raw(' aria-invalid="true"') : ''}>
<p class="hint" id="${id}-hint">${hint} Choose a file or drop one on this box: JPEG, PNG, WebP or GIF, up to ${limits.uploadMegabytes} MB.</p>
${problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : ''}`,
  `upload-${name}`,
)}
<p class="actions"><button type="submit" name="op" value="upload" data-focus="upload-${name}">Upload ${label.toLowerCase()}</button>${path ? h`<button type="submit" class="secondary" name="op" value="remove" data-focus="remove-${name}">Remove ${label.toLowerCase()}</button>` : ''}</p>
</form>`
}

function socialsSection(m: EditorModel, s: EditorState): SafeHtml {
  const socials = [...m.profile.socials].map((x, i) => ({ ...x, icon: m.profile.computed.socials[i]?.icon ?? 'link' }))
  const errors = s.social?.errors
  const n = socials.length
  return h`<section class="card" aria-labelledby="ed-socials-h">
<h2 id="ed-socials-h">Social links</h2>
${errorList(errors)}${
  n
    ? h`<ol class="ed-socials">${socials.map((x, i) => {
        const drawing = socialIconSvg(x.icon)
        const what = h`<span class="sr-only">: ${drawing.label}</span>`
        return h`<li><span class="ed-icon" aria-hidden="true">${drawing.svg}</span><span class="ed-social-text"><strong>${drawing.label}</strong> <span class="muted">${linkAsTyped(x.link)}</span></span>
<form method="post" action="${base(m)}/socials" class="ed-actions">${csrfField(m.csrf)}<input type="hidden" name="index" value="${i}">
<button type="submit" class="secondary" name="op" value="up" data-focus="social-up-${i}"${i === 0 ? raw(' disabled') : ''}>Move up${what}</button>
<button type="submit" class="secondary" name="op" value="down" data-focus="social-down-${i}"${i === n - 1 ? raw(' disabled') : ''}>Move down${what}</button>
<button type="submit" class="secondary" name="op" value="remove" data-focus="social-remove">Remove${what}</button></form></li>`
      })}</ol>`
    : h`<p class="muted">No social links yet. Their icons appear in a row under your name.</p>`
}
${
  n < limits.socialsPerProfile
    ? h`<form method="post" action="${base(m)}/socials" novalidate>${csrfField(m.csrf)}<input type="hidden" name="op" value="add">
${input({ name: 'link', label: 'Social link', value: s.social?.link ?? '', errors, max: 2048, hint: 'A profile address (instagram.com/you), an e-mail address or a phone number; the icon follows the platform.' })}
<button type="submit" data-focus="add-social">Add social link</button></form>`
    : h`<p class="hint">A page holds at most ${limits.socialsPerProfile} social links.</p>`
}
</section>`
}

function addBlockForm(m: EditorModel, first: boolean): SafeHtml {
  return h`<form method="get" action="${base(m)}#picker" class="ed-add" id="ed-add"><input type="hidden" name="pick" value="1">
<button type="submit" data-focus="add-block">${first ? 'Add the first block' : 'Add block'}</button>
</form>`
}

function blockCard(m: EditorModel, s: EditorState, slot: SlotResource, i: number, n: number): SafeHtml {
  const def = slotTypeOf(slot.type)
  const title = def?.title ?? slot.type
  const summary = blockSummary(slot, m.records.get(slot.id))
  const what = h`<span class="sr-only">: ${title}, ${summary}</span>`
  const action = (verb: string) => `${base(m)}/blocks/${slot.id}/${verb}`
  const post = (verb: string, label: string, focus: string, extra: SafeHtml | '' = '', disabled = false) =>
    h`<form method="post" action="${action(verb)}">${csrfField(m.csrf)}${extra}<button type="submit" class="secondary" data-focus="${focus}"${disabled ? raw(' disabled') : ''}>${label}${what}</button></form>`
  const head = h`<div class="ed-block-head"><span class="ed-grip" aria-hidden="true">⠿</span><span class="ed-type">${title}</span> ${visibilityBadge(slot, m.timeZone)} <span class="ed-summary">${summary}</span> <span class="muted ed-pos">${i + 1} of ${n}</span></div>${thumbnails(m, slot)}`
  // A block opens for editing where it stands in the list.
  if (s.panel?.mode === 'edit' && s.panel.slotId === slot.id)
    return h`<li class="ed-block ed-editing" id="block-${slot.id}" data-id="${slot.id}">${head}${panelSection(m, s.panel)}</li>`
  const scheduling = s.scheduling === slot.id || s.schedule?.slotId === slot.id
  return h`<li class="ed-block${slot.visibility.hidden ? ' ed-off' : ''}" id="block-${slot.id}" data-id="${slot.id}">
${head}
<div class="ed-actions">
${slot.supported ? h`<a class="button secondary" href="${base(m)}?edit=${slot.id}#panel" data-focus="edit-${slot.id}">Edit${what}</a>` : ''}
${post('move', 'Move up', `up-${slot.id}`, raw('<input type="hidden" name="direction" value="up">'), i === 0)}
${post('move', 'Move down', `down-${slot.id}`, raw('<input type="hidden" name="direction" value="down">'), i === n - 1)}
${slot.supported ? post('duplicate', 'Duplicate', `duplicate-${slot.id}`) : ''}
<form method="get" action="${base(m)}#confirm-delete" data-confirm="${action('delete')}" data-what="${title}: “${summary}”"><input type="hidden" name="delete" value="${slot.id}"><button type="submit" class="danger" data-focus="delete-${slot.id}">Delete${what}</button></form>
</div>
${visibilityControls({ base: base(m), csrf: m.csrf, slot, what, timeZone: m.timeZone, open: scheduling, state: s.schedule?.slotId === slot.id ? s.schedule : undefined })}
</li>`
}

/** A picture's or gallery's images, small, on its card: a person tells pictures apart by looking at them. */
function thumbnails(m: EditorModel, slot: SlotResource): SafeHtml | '' {
  const def = slotTypeOf(slot.type)
  let refs: Array<{ field: string; path: string }> = []
  try {
    refs = (def?.files?.(slot.data as never) ?? []).filter((f) => f.path)
  } catch {
    return ''
  }
  if (!refs.length) return ''
  const d = slot.data as { alt?: string; items?: Array<{ alt?: string }> }
  const altOf = (field: string, i: number) => {
    const row = /^items\.(\d+)\./.exec(field)
    const own = row ? d.items?.[Number(row[1])]?.alt : d.alt
    return own?.trim() || (refs.length > 1 ? `Picture ${i + 1} of ${refs.length}` : 'The picture')
  }
  const shown = refs.slice(0, 4)
  return h`<div class="ed-card-thumbs">${shown.map((f, i) => h`<img src="${m.fileUrl(f.path)}" alt="${altOf(f.field, i)}" width="56" height="56" loading="lazy" decoding="async">`)}${refs.length > shown.length ? h`<span class="muted">+${refs.length - shown.length} more</span>` : ''}</div>`
}

function lookupForm(m: EditorModel, p: Panel): SafeHtml {
  const l = p.lookup
  return h`<form method="post" action="${base(m)}/music" class="ed-lookup" novalidate>${csrfField(m.csrf)}
<h3>Find a release</h3>
${l?.failed ? h`<div class="notice bad" role="alert"><p>${l.failed}</p><p><a href="#manual-h">Enter the links by hand</a></p></div>` : errorList(l?.errors)}${input({ name: 'query', label: 'Link, UPC, ISRC or title', value: l?.query ?? '', errors: l?.errors, max: 500, hint: 'A link to the release on any music service finds it on the others. Its barcode (UPC), a recording code (ISRC) or its title work too.' })}
${input({ name: 'artist', label: 'Artist (optional, narrows a title)', value: l?.artist ?? '', errors: l?.errors, max: 200 })}
<button type="submit" data-focus="lookup">Look up</button>
${l?.found ? h`<p class="notice" role="status">${l.found} Check the block below, then save it.</p>` : ''}
</form>`
}

function eventFields(m: EditorModel, p: Panel): SafeHtml[] {
  const record = p.slotId !== undefined ? (m.records.get(p.slotId) as EventView | undefined) : undefined
  const v = (p.event ?? {
    title: record?.title ?? '',
    startsAt: record ? utcToWallTime(record.startsAt, m.timeZone) : '',
    endsAt: record?.endsAt ? utcToWallTime(record.endsAt, m.timeZone) : '',
    location: record?.location ?? '',
    description: record?.description ?? '',
    link: record?.link ?? '',
  }) as Record<string, string>
  const e = p.errors
  return [
    h`<p class="hint">Times are in your time zone, ${m.timeZone} (change it under Account).</p>`,
    input({ name: 'event.title', label: 'Event name (required)', value: v.title ?? '', errors: e, max: 200 }),
    input({ name: 'event.startsAt', label: 'Starts (required)', value: v.startsAt ?? '', errors: e, type: 'datetime-local' }),
    input({ name: 'event.endsAt', label: 'Ends (optional)', value: v.endsAt ?? '', errors: e, type: 'datetime-local' }),
    input({ name: 'event.location', label: 'Place (optional)', value: v.location ?? '', errors: e, max: 300 }),
    input({ name: 'event.description', label: 'About (optional)', value: v.description ?? '', errors: e, max: 2000, multiline: true }),
    input({ name: 'event.link', label: 'Tickets or details link (optional)', value: v.link ?? '', errors: e, max: 2048 }),
  ]
}

function formRecordFields(m: EditorModel, p: Panel): SafeHtml[] {
  const record = p.slotId !== undefined ? (m.records.get(p.slotId) as FormView | undefined) : undefined
  const v = (p.form ?? {
    title: record?.title ?? '',
    description: record?.description ?? '',
    submitLabel: record?.submitLabel ?? '',
    fields: record?.fields ?? [
      { label: 'Your name', type: 'text', required: true },
      { label: 'E-mail', type: 'email', required: true },
      { label: 'Message', type: 'textarea', required: false },
    ],
  }) as { title: string; description: string; submitLabel: string; fields: Array<{ label: string; type: string; required: boolean }> }
  const e = p.errors
  const rows = [...v.fields, ...Array.from({ length: 1 + (p.extraRows?.['form.fields'] ?? 0) }, () => ({ label: '', type: 'text', required: false }))].slice(
    0,
    20,
  )
  return [
    input({ name: 'form.title', label: 'Form title (required)', value: v.title, errors: e, max: 200 }),
    input({ name: 'form.description', label: 'Introduction (optional)', value: v.description, errors: e, max: 2000, multiline: true }),
    h`<fieldset class="ed-array" id="f-form-fields"><legend>Questions <span class="muted">(1 to 20)</span></legend>
${e?.['form.fields'] ? h`<p class="error">${e['form.fields'].join(' ')}</p>` : ''}${rows.map(
  (f, i) => h`<fieldset class="ed-row"><legend>Question ${i + 1}</legend>
${input({ name: `form.fields.${i}.label`, label: 'Label', value: f.label, errors: e, max: 200 })}
<div class="field"><label for="${fieldId(`form.fields.${i}.type`)}">Answer kind</label><select id="${fieldId(`form.fields.${i}.type`)}" name="form.fields.${i}.type">${FORM_FIELD_TYPES.map((t) => h`<option value="${t}"${t === f.type ? raw(' selected') : ''}>${FORM_FIELD_TYPE_LABELS[t]}</option>`)}</select></div>
<div class="field ed-check"><input id="${fieldId(`form.fields.${i}.required`)}" type="checkbox" name="form.fields.${i}.required" value="true"${f.required ? raw(' checked') : ''}> <label for="${fieldId(`form.fields.${i}.required`)}">Required</label></div>
</fieldset>`,
)}
<p class="hint">Leave a label empty to drop that question.</p>
<button type="submit" class="secondary" name="_more" value="form.fields" formnovalidate>Add another question</button></fieldset>`,
    input({ name: 'form.submitLabel', label: 'Send button text (optional)', value: v.submitLabel, errors: e, max: 60 }),
  ]
}

function panelSection(m: EditorModel, p: Panel): SafeHtml {
  const def = slotTypes[p.type]
  const slot = p.slotId !== undefined ? m.slots.find((s) => s.id === p.slotId) : undefined
  const data = p.data ?? ((slot?.data as Record<string, unknown>) || {})
  const action = p.mode === 'add' ? `${base(m)}/blocks` : `${base(m)}/blocks/${p.slotId}`
  const heading = p.mode === 'add' ? `Add a block: ${def.title}` : `Edit block: ${def.title}`
  const own =
    p.type === 'event'
      ? eventFields(m, p)
      : p.type === 'form'
        ? [h`<h3>The form</h3>`, ...formRecordFields(m, p), h`<h3>How it shows</h3>`]
        : p.type === 'music'
          ? [h`<h3 id="manual-h" tabindex="-1">${p.mode === 'add' ? 'Or enter the links by hand' : 'The release and its links'}</h3>`]
          : []
  const fields = schemaFields({ def, errors: p.errors ?? {}, fileUrl: m.fileUrl, extraRows: p.extraRows, moved: p.moved }, data)
  return h`<section class="card ed-panel" id="panel" aria-labelledby="panel-h">
<h2 id="panel-h" tabindex="-1">${heading}</h2>
<p class="hint">${def.description.split('. ')[0]}.</p>
${p.type === 'music' ? lookupForm(m, p) : ''}${errorList(p.errors)}${p.said ? h`<p class="notice" role="status" data-announce>${p.said}</p>` : ''}<form method="post" action="${action}" enctype="multipart/form-data" novalidate data-dry-run>
${csrfField(m.csrf)}<input type="hidden" name="type" value="${p.type}">
${/* Enter in a field saves: the first submit button is the form's default, not a row's Move or Add. */ ''}<button type="submit" class="sr-only" tabindex="-1" aria-hidden="true" data-focus="save">Save</button>
${own}${fields.length ? fields : h`<p class="muted">This block has nothing to fill in.</p>`}
<p class="actions"><button type="submit" data-focus="save">Save</button><a class="button secondary" href="${base(m)}${slot ? `#block-${slot.id}` : '#ed-add'}" data-focus="${slot ? `edit-${slot.id}` : 'add-block'}">Cancel</a></p>
</form>
</section>`
}

/** The question before a block is deleted; without the script a page of its own, with it the dialog's words. */
function deleteQuestion(m: EditorModel, slotId: number): SafeHtml {
  const slot = m.slots.find((x) => x.id === slotId)
  if (!slot) return h`<p class="notice bad" role="status">That block is no longer on this page.</p>`
  const what = `${slotTypeOf(slot.type)?.title ?? slot.type}: “${blockSummary(slot, m.records.get(slot.id))}”`
  return h`<section class="card ed-panel" id="confirm-delete" aria-labelledby="confirm-delete-h">
<h2 id="confirm-delete-h" tabindex="-1">Delete this block?</h2>
<p>${what}. Deleting it cannot be undone.</p>
<form method="post" action="${base(m)}/blocks/${slot.id}/delete" class="actions">${csrfField(m.csrf)}<input type="hidden" name="confirmed" value="yes">
<button type="submit" class="danger" data-focus="blocks">Delete block</button><a class="button secondary" href="${base(m)}#block-${slot.id}" data-focus="delete-${slot.id}">Keep it</a></form>
</section>`
}

/** The same question as a modal dialog, filled and opened by the script from the Delete pressed. */
function deleteDialog(m: EditorModel): SafeHtml {
  return h`<dialog id="ed-confirm" class="card" aria-labelledby="ed-confirm-h" aria-describedby="ed-confirm-what">
<h2 id="ed-confirm-h">Delete this block?</h2>
<p id="ed-confirm-what"></p>
<form method="post" action="${base(m)}" class="actions">${csrfField(m.csrf)}<input type="hidden" name="confirmed" value="yes">
<button type="submit" class="danger" data-focus="blocks">Delete block</button><button type="button" class="secondary" autofocus>Keep it</button></form>
</dialog>`
}

/** The editor: profile header, social links, blocks in page order, the block panel and the live preview. */
export function editorBody(m: EditorModel, s: EditorState): SafeHtml {
  const n = m.slots.length
  const name = m.profile.title || m.profile.login
  const adding = s.panel?.mode === 'add' ? s.panel : undefined
  return h`<div class="ed" data-base="${base(m)}">
<p><a href="/my-links/${m.profile.id}">← Statistics and settings of this page</a></p>
<h1>Edit ${name}</h1>
<p>Public address: <a href="${m.publicUrl}">${m.publicUrl}</a></p>
<nav class="ed-tabs" aria-label="Parts of the editor"><a href="#ed-profile-h">Profile</a><a href="#ed-blocks-h">Blocks</a><a href="#theme-h">Theme</a><a href="#address-h">Address</a></nav>
<p id="ed-live" class="sr-only" role="status" aria-live="polite"></p>
<div class="ed-layout">
<div class="ed-main">
${profileSection(m, s)}
${socialsSection(m, s)}
<section class="card" aria-labelledby="ed-blocks-h">
<h2 id="ed-blocks-h" data-focus="blocks">Blocks</h2>
${s.deleting ? deleteQuestion(m, s.deleting) : ''}
${
  n
    ? h`<p class="hint">In page order. Drag a block by its handle, or use Move up and Move down.</p>
<ol class="ed-blocks" aria-labelledby="ed-blocks-h">${m.slots.map((slot, i) => blockCard(m, s, slot, i, n))}${adding ? h`<li class="ed-block ed-new">${panelSection(m, adding)}</li>` : ''}</ol>
<form method="post" action="${base(m)}/order" id="ed-order" hidden>${csrfField(m.csrf)}<input type="hidden" name="order" value="${m.slots.map((x) => x.id).join(',')}"></form>
${adding ? '' : n >= limits.slotsPerProfile ? h`<p class="hint">A page holds at most ${limits.slotsPerProfile} blocks.</p>` : s.picking ? blockPicker(base(m), TYPE_ORDER) : addBlockForm(m, false)}`
    : h`<div class="ed-empty"><p><strong>Your page has no blocks yet.</strong> Blocks are what visitors see under your name: buttons to your links, pictures, text, videos, events, a contact form…</p>
${adding ? panelSection(m, adding) : s.picking ? blockPicker(base(m), TYPE_ORDER) : addBlockForm(m, true)}</div>`
}
</section>
${themeSection(m.profile, m.csrf)}
${addressSection(m.profile, m.publicUrl, m.csrf, s.address)}
</div>
${previewAside(base(m))}
</div>
${deleteDialog(m)}
</div>`
}
