import type { FieldErrors } from '../../kernel/errors.ts'
import type { AnySlotTypeDef } from '../../slots/types.ts'
import { h, raw, type SafeHtml } from '../../slots/shared/html.ts'
import type { Form } from '../page-routes.ts'
import { linesAsRichText, richTextAsLines } from './text-lines.ts'

// A slot type's form, generated from its TypeBox schema (the registry is the single source): a
// label and help from the type's fieldWords (the schema's descriptions speak to programs), limits, enums with their enumLabels,
// defaults, required. Field names are the data paths (`data.items.0.text`), so the core's error
// keys (`data.items.0.text`) land beside their fields unchanged. A new type or field appears
// here with no editor code.

type Node = Record<string, any>

/** Keys of array rows the person never types: FAQ item ids travel hidden, orders follow the rows. */
const ROW_HIDDEN = new Set(['id'])
const ROW_DERIVED = new Set(['order'])

const humanise = (key: string) => {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif'

/**
 * A file field that also takes a file dropped on it (the script puts the dropped file in the
 * field; with `submit`, the data-focus of the button to press, it also sends the form at once).
 */
export function dropZone(name: string, body: SafeHtml, submit?: string): SafeHtml {
  return h`<div class="field ed-drop" role="group" aria-label="${name}"${submit ? h` data-submit="${submit}"` : ''}>
${body}</div>`
}

const idOf = (name: string) => `f-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`

/** Which fields of a type hold upload paths, as patterns (`path`, `items.*.path`), read from the type's own files(). */
export function uploadFields(def: AnySlotTypeDef): Set<string> {
  try {
    return new Set((def.files?.(def.example as never) ?? []).map((f) => f.field.replace(/\.\d+(?=\.|$)/g, '.*')))
  } catch {
    return new Set()
  }
}

/** The key of a dashboard-record id (event's eventId, form's formId): the editor sets it, never the person. */
export function recordKey(def: AnySlotTypeDef): string | undefined {
  const ref = def.record?.(def.example as never)
  if (!ref) return undefined
  return Object.entries(def.example as Record<string, unknown>).find(([, v]) => v === ref.id)?.[0]
}

const objectOf = (schema: Node): Node | undefined => {
  if (schema.type === 'object' && schema.properties) return schema
  const branch = (schema.anyOf ?? schema.oneOf)?.find((s: Node) => s.type === 'object' && s.properties)
  return branch
}

/** What the editor says beside a field that has no words of its own in its type (SlotTypeDef.fieldWords). */
const LINK_HINT = 'A web address (shop.example.com), an e-mail address or a phone number.'
const COLOUR_HINT = 'A colour code such as #1a7f5a or a colour name such as teal, or pick one with the swatch.'

/** A field's label and hint in the editor: the type's words for it, never the schema's (those speak to programs). */
function wordsOf(def: AnySlotTypeDef, path: string, schema: Node, key: string): { label: string; hint?: string; paragraphs?: true; hidden?: true } {
  const own = def.fieldWords?.[path] ?? {}
  const fallback = schema.format === 'color' ? COLOUR_HINT : schema.maxLength === 2048 ? LINK_HINT : undefined
  return { ...own, label: own.label ?? schema.title ?? humanise(key), hint: own.hint ?? fallback }
}

export interface FieldContext {
  def: AnySlotTypeDef
  errors: FieldErrors
  /** Public URL of an uploaded path, to show the current image. */
  fileUrl: (path: string) => string
  /** Blank rows to add to an array field (its data path → how many), from "Add another". */
  extraRows?: Record<string, number>
  /** The row just moved (its field name, `data.items.1`) and which way: its move button takes the focus. */
  moved?: RowMove
}

/** "Move up" or "Move down" on an array row (a gallery image, a FAQ question), applied to the unsaved form. */
export interface RowMove {
  /** The array's field name (`data.items`). */
  array: string
  /** The row's index in the posted form. */
  from: number
  up: boolean
  /** Set by formData: the row's new place among the rows kept, and how many rows there are. */
  to?: number
  count?: number
}

/** The move a row button posted (`_move=data.items.2.up`), or undefined for anything else. */
export function rowMoveOf(value: string): RowMove | undefined {
  const m = /^(data(?:\.[A-Za-z]\w*)+)\.(\d{1,3})\.(up|down)$/.exec(value)
  return m ? { array: m[1], from: Number(m[2]), up: m[3] === 'up' } : undefined
}

function problemsOf(ctx: FieldContext, name: string): string[] {
  return ctx.errors[name] ?? []
}

function describedBy(id: string, hint: boolean, problems: string[]): SafeHtml | '' {
  const ids = [hint ? `${id}-hint` : '', problems.length ? `${id}-error` : ''].filter(Boolean).join(' ')
  return ids ? h` aria-describedby="${ids}"${problems.length ? raw(' aria-invalid="true"') : ''}` : ''
}

const hintOf = (id: string, text: string | undefined) => (text ? h`<p class="hint" id="${id}-hint">${text}</p>` : '')
const errorOf = (id: string, problems: string[]) => (problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : '')

function leaf(ctx: FieldContext, schema: Node, name: string, path: string, key: string, value: unknown, required: boolean): SafeHtml {
  const id = idOf(name)
  const words = wordsOf(ctx.def, path, schema, key)
  const label = words.label
  const hint = words.hint
  const problems = problemsOf(ctx, name)
  if (words.hidden) return h`<input type="hidden" name="${name}" value="${String(value ?? schema.default ?? '')}">`
  const aria = describedBy(id, !!hint, problems)
  const star = required ? h` <span class="req">(required)</span>` : ''
  if (uploadFields(ctx.def).has(path)) {
    const current = typeof value === 'string' ? value : ''
    const fileProblems = problemsOf(ctx, `${name}.file`)
    return dropZone(
      'Drop an image here',
      h`<label for="${id}">${current ? 'Replace the image' : 'Image'}${current ? '' : star}</label>
${current ? h`<img class="ed-thumb" src="${ctx.fileUrl(current)}" alt="The current image" width="64" height="64">` : ''}
<input type="hidden" name="${name}" value="${current}">
<input id="${id}" type="file" name="${name}.file" accept="${IMAGE_TYPES}"${describedBy(id, false, [...problems, ...fileProblems])}>
${errorOf(id, [...problems, ...fileProblems])}`,
    )
  }
  if (schema.type === 'boolean') {
    const on = value === undefined ? schema.default === true : value === true
    return h`<div class="field ed-check"><input type="hidden" name="${name}" value="false"><input id="${id}" type="checkbox" name="${name}" value="true"${on ? raw(' checked') : ''}${aria}> <label for="${id}">${label}</label>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
  }
  if (Array.isArray(schema.enum)) {
    const labels = ctx.def.enumLabels[path.replace(/\.\*/g, '')] ?? ctx.def.enumLabels[key] ?? {}
    const chosen = value ?? schema.default
    return h`<div class="field"><label for="${id}">${label}${star}</label>
<select id="${id}" name="${name}"${aria}>${schema.enum.map((v: string) => h`<option value="${v}"${v === chosen ? raw(' selected') : ''}>${labels[v] ?? v}</option>`)}</select>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const v = value ?? schema.default ?? ''
    return h`<div class="field"><label for="${id}">${label}${star}</label>
<input id="${id}" type="number" name="${name}" value="${String(v)}"${schema.minimum !== undefined ? h` min="${schema.minimum}"` : ''}${schema.maximum !== undefined ? h` max="${schema.maximum}"` : ''}${schema.type === 'integer' ? raw(' step="1"') : ''}${required ? raw(' required') : ''}${aria}>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
  }
  const text = typeof value === 'string' ? value : value === undefined || value === null ? (schema.default ?? '') : String(value)
  const max = schema.maxLength ? h` maxlength="${schema.maxLength}"` : ''
  if (schema.format === 'color') {
    // The text takes any CSS colour; the picker (shown by the script, which keeps the two in step) only #RRGGBB.
    return h`<div class="field"><label for="${id}">${label}${star}</label>
<span class="ed-colour"><input id="${id}" type="text" name="${name}" value="${text}"${max} spellcheck="false" autocomplete="off"${required ? raw(' required') : ''}${aria}><input type="color" aria-label="${label}: pick a colour" data-colour-for="${id}" hidden></span>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
  }
  const limit = schema.maxLength ? h`<span class="muted"> (up to ${schema.maxLength} characters)</span>` : ''
  if ((schema.maxLength ?? 0) > 300 && schema.maxLength !== 2048) {
    return h`<div class="field"><label for="${id}">${label}${star}${limit}</label>
<textarea id="${id}" name="${name}" rows="4"${max}${required ? raw(' required') : ''}${aria}>${words.paragraphs ? richTextAsLines(text) : text}</textarea>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
  }
  const isLink = schema.maxLength === 2048
  return h`<div class="field"><label for="${id}">${label}${star}</label>
<input id="${id}" type="text" name="${name}" value="${text}"${max}${isLink ? raw(' inputmode="url" autocomplete="url" spellcheck="false"') : ''}${required ? raw(' required') : ''}${aria}>
${hintOf(id, hint)}${errorOf(id, problems)}</div>`
}

function arrayField(ctx: FieldContext, schema: Node, name: string, path: string, key: string, value: unknown): SafeHtml {
  const item = objectOf(schema.items ?? {})
  const rows = Array.isArray(value) ? (value as unknown[]) : []
  const max = schema.maxItems ?? 100
  const blank = Math.max((schema.minItems ?? 0) - rows.length, 0) + (ctx.extraRows?.[name] ?? 0) + (rows.length ? 0 : 1)
  const all = [...rows, ...Array.from({ length: Math.min(blank, Math.max(max - rows.length, 0)) }, () => undefined)]
  const { label, hint } = wordsOf(ctx.def, path, schema, key)
  const problems = problemsOf(ctx, name)
  const id = idOf(name)
  const itemName = (i: number) => `${label.replace(/s$/, '')} ${i + 1}`
  const body = all.map((row, i) => {
    const rowName = `${name}.${i}`
    if (!item) return leaf(ctx, schema.items ?? {}, rowName, `${path}.*`, itemName(i), row, false)
    return h`<fieldset class="ed-row"><legend>${itemName(i)}</legend>
${objectFields(ctx, item, rowName, `${path}.*`, (row ?? {}) as Record<string, unknown>, true)}
<div class="field ed-check"><input id="${idOf(`${rowName}._remove`)}" type="checkbox" name="_remove" value="${rowName}"> <label for="${idOf(`${rowName}._remove`)}">Remove ${itemName(i).toLowerCase()}</label></div>
${rowMoves(ctx, name, i, all.length, itemName(i))}</fieldset>`
  })
  return h`<fieldset class="ed-array" id="${id}"${problems.length ? h` aria-describedby="${id}-error"` : ''}><legend>${label}${schema.minItems ? h` <span class="muted">(${schema.minItems} to ${max})</span>` : ''}</legend>
${hint ? h`<p class="hint">${hint}</p>` : ''}${errorOf(id, problems)}${body}
${all.length < max ? h`<button type="submit" class="secondary" name="_more" value="${name}" formnovalidate>Add another ${label.replace(/s$/, '').toLowerCase()}</button>` : ''}
</fieldset>`
}

/** A row's Move up and Move down: posts of the block form that reorder its rows without saving (an empty row stays put). */
function rowMoves(ctx: FieldContext, array: string, i: number, count: number, itemName: string): SafeHtml {
  const first = i === 0
  const last = i === count - 1
  const moved = ctx.moved?.array === array && ctx.moved.to === i ? ctx.moved : undefined
  // The moved row keeps the focus on the button pressed, or on the other one once it reaches an end.
  const focusUp = !!moved && !first && (moved.up || last)
  const focusDown = !!moved && !last && !focusUp
  const button = (dir: 'up' | 'down', disabled: boolean, focus: boolean) =>
    h`<button type="submit" class="secondary" name="_move" value="${array}.${i}.${dir}" formnovalidate${disabled ? raw(' disabled') : ''}${focus ? raw(' autofocus') : ''}>Move ${dir}<span class="sr-only">: ${itemName.toLowerCase()}</span></button>`
  return h`<div class="ed-actions">${button('up', first, focusUp)}${button('down', last, focusDown)}</div>`
}

function objectFields(ctx: FieldContext, schema: Node, prefix: string, path: string, value: Record<string, unknown>, inRow = false): SafeHtml[] {
  const required = new Set<string>(schema.required ?? [])
  return Object.entries(schema.properties as Record<string, Node>).flatMap(([key, child]) => {
    const name = `${prefix}.${key}`
    const childPath = path ? `${path}.${key}` : key
    const v = value?.[key]
    if (inRow && ROW_DERIVED.has(key)) return []
    if (inRow && ROW_HIDDEN.has(key)) return [h`<input type="hidden" name="${name}" value="${typeof v === 'string' ? v : ''}">`]
    if (!path && key === recordKey(ctx.def)) return []
    if (child.type === 'array') return [arrayField(ctx, child, name, childPath, key, v)]
    const obj = objectOf(child)
    if (obj) {
      const fields = objectFields(ctx, obj, name, childPath, (v ?? {}) as Record<string, unknown>)
      const problems = problemsOf(ctx, name)
      const words = wordsOf(ctx.def, childPath, child, key)
      return [
        h`<fieldset class="ed-group"><legend>${words.label}</legend>
${words.hint ? h`<p class="hint">${words.hint}</p>` : ''}${errorOf(idOf(name), problems)}${fields}
</fieldset>`,
      ]
    }
    const needed = required.has(key) && !('default' in child)
    return [leaf(ctx, child, name, childPath, key, v, needed)]
  })
}

/** Every field of a type's data, filled with `value` (stored data, or what was typed and refused). */
export function schemaFields(ctx: FieldContext, value: Record<string, unknown>): SafeHtml[] {
  const schema = ctx.def.schema as Node
  const obj = objectOf(schema)
  if (!obj) return []
  return objectFields(ctx, obj, 'data', '', value)
}

const last = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v)

/**
 * The data a type's form sent, shaped by the same schema: numbers as numbers, checkboxes as
 * booleans, array rows in order without blank or removed ones. Values the schema would refuse
 * (a word in a number field) pass through as typed, so the core names them.
 */
export function formData(def: AnySlotTypeDef, form: Form, uploaded: Record<string, string> = {}, move?: RowMove): Record<string, unknown> {
  const removed = new Set([form._remove ?? []].flat())
  const keys = Object.keys(form)
  const read = (schema: Node, name: string, path: string): unknown => {
    if (uploadFields(def).has(path)) return uploaded[name] ?? last(form[name]) ?? ''
    if (schema.type === 'array') {
      const item = objectOf(schema.items ?? {})
      const indexes = [...new Set(keys.flatMap((k) => (k.startsWith(`${name}.`) ? [Number(k.slice(name.length + 1).split('.')[0])] : [])))]
        .concat(Object.keys(uploaded).flatMap((k) => (k.startsWith(`${name}.`) ? [Number(k.slice(name.length + 1).split('.')[0])] : [])))
        .filter((n) => Number.isInteger(n))
      const rows: unknown[] = []
      let at = -1
      for (const i of [...new Set(indexes)].sort((a, b) => a - b)) {
        const rowName = `${name}.${i}`
        if (removed.has(rowName)) continue
        const row = item ? readObject(item, rowName, `${path}.*`, true) : read(schema.items ?? {}, rowName, `${path}.*`)
        if (isBlank(row)) continue
        if (move?.array === name && move.from === i) at = rows.length
        rows.push(row)
      }
      // A moved row trades places with its kept neighbour: removed and empty rows are already gone.
      if (move?.array === name) {
        const to = at + (move.up ? -1 : 1)
        if (at >= 0 && to >= 0 && to < rows.length) {
          ;[rows[at], rows[to]] = [rows[to], rows[at]]
          move.to = to
        }
        move.count = rows.length
      }
      return rows
    }
    const obj = objectOf(schema)
    if (obj) return readObject(obj, name, path, false)
    const raw = last(form[name])
    if (raw === undefined) return undefined
    if (schema.type === 'boolean') return raw === 'true'
    if (schema.type === 'integer' || schema.type === 'number') {
      if (raw.trim() === '') return undefined
      const n = Number(raw)
      return Number.isFinite(n) ? n : raw
    }
    return def.fieldWords?.[path]?.paragraphs ? linesAsRichText(raw) : raw.replace(/\r\n?/g, '\n')
  }
  const readObject = (schema: Node, prefix: string, path: string, inRow: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(schema.properties as Record<string, Node>)) {
      if (inRow && ROW_DERIVED.has(key)) continue
      if (!path && key === recordKey(def)) continue
      const v = read(child, `${prefix}.${key}`, path ? `${path}.${key}` : key)
      if (inRow && ROW_HIDDEN.has(key) && v === '') continue
      if (v !== undefined) out[key] = v
    }
    return out
  }
  const obj = objectOf(def.schema as Node)
  return obj ? readObject(obj, 'data', '', false) : {}
}

/** A row the person left empty (every text empty, no image): dropped rather than refused. */
function isBlank(row: unknown): boolean {
  if (typeof row === 'string') return row.trim() === ''
  if (!row || typeof row !== 'object') return row === undefined
  return Object.values(row as Record<string, unknown>).every((v) => v === undefined || v === false || (typeof v === 'string' && v.trim() === ''))
}
