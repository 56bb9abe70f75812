import type { Static, TSchema } from '@sinclair/typebox'
import type { Messages } from '../i18n/catalogue.ts'
import type { HtmlTag, SafeHtml } from './shared/html.ts'

/** spec, Slot: the ten types, in the spec's order. */
export const SLOT_TYPES = ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'divider', 'event', 'music', 'form'] as const
export type SlotType = (typeof SLOT_TYPES)[number]

/** What a renderer sees of a slot: its stored data and the computed fields derived from it. */
export interface SlotView<D = Record<string, any>, C = Record<string, any>> {
  id: number
  type: string
  data: D
  computed: C
}

/**
 * Everything an HTML renderer may use besides the slot; the public page builds it once per page.
 * Renderers never build URLs to the outside themselves: every anchor that leads away points at
 * `clickHref(slot.id, i)`, where `i` indexes the type's `links()` list, so the page's click
 * redirect resolves the destination from stored data and can never be an open redirect.
 */
export interface RenderContext {
  /** The escaping template tag (src/slots/shared/html.ts). */
  h: HtmlTag
  /** Same-origin URL of the click redirect for destination `index` of `links()`. */
  clickHref(slotId: number, index: number): string
  /** Public URL of an uploaded file's path. */
  fileUrl(path: string): string
  /**
   * Our own URL for a remote image (music cover, video thumbnail): the page serves those from
   * its origin (src/pages/remote-images.ts). Absent, renderers use the remote URL as it is.
   */
  remoteImage?(url: string): string
  /** Where a form slot posts its submission (the public page supplies it). */
  formAction?(slotId: number): string
  /** The event or form record behind the slot (see `SlotTypeDef.record`); undefined when it is gone. */
  record?: unknown
  /** The page's language (a catalogue code, for Intl) and its words; English when absent. */
  lang?: string
  t?: Messages
  /** An inline SVG mark for an icon name (brand logos); absent, blocks show names only. */
  icon?(name: string): SafeHtml
  /** The owner's IANA time zone, for dates that carry none of their own. */
  timeZone?: string
  /** A refused form submission shown again: the visitor's values and each field's problem. */
  formState?: FormState
  /**
   * What the page knows of an uploaded image (its size, its WebP variants), for width, height
   * and srcset; undefined when it knows nothing (the image is then a plain img).
   */
  image?(path: string): ImageFacts | undefined
  /** True for the page's first slot with images: they are near the top, so they load at once. */
  eagerImages?: boolean
}

/** An uploaded image as a renderer lays it out. */
export interface ImageFacts {
  width: number
  height: number
  /** WebP candidates for srcset, narrowest first; empty when there are none (gif, older uploads). */
  webp: Array<{ src: string; width: number }>
}

export interface FormState {
  slotId: number
  values: Record<string, string>
  /** Field name → message; `_form` for a problem of the whole form. */
  errors: Record<string, string>
}

/** What `compute` may use: turning stored paths into public URLs, nothing else. */
export interface ComputeContext {
  fileUrl(path: string): string
}

/** An upload path inside data, with the field it sits in (`items.0.path`), to check ownership. */
export interface FileRef {
  field: string
  path: string
}

/** The dashboard-managed record a read-only slot shows (its events and forms tables). */
export interface RecordRef {
  /** Which of the owner's records: the table the dashboard keeps them in. */
  kind: 'events' | 'forms'
  id: number
}

/**
 * A problem a type's rule finds in otherwise well-shaped data. `field` is relative to `data`
 * (`items.2.text`); the service prefixes it (`data.` or `slots.<i>.data.`).
 */
export class SlotRuleError extends Error {
  readonly errors: Record<string, string[]>
  constructor(field: string | Record<string, string[]>, message?: string) {
    const errors = typeof field === 'string' ? { [field]: [message ?? 'Is invalid.'] } : field
    super(Object.values(errors)[0]?.[0] ?? 'Is invalid.')
    this.errors = errors
  }
}

/**
 * One slot type: the single source of its schema, rules, derived fields and renderings.
 * Every member is pure: no database, network, clock or environment.
 */
export interface SlotTypeDef<S extends TSchema = TSchema, C extends TSchema = TSchema> {
  type: SlotType
  /** Human name ("YouTube video"). */
  title: string
  /** What the block is and how to write it; also the MCP tool text. */
  description: string
  /** One line in plain words for a person choosing a block (the editor's block picker). */
  blurb: string
  /** The type's picture in the block picker: SVG path data on a 24×24 grid, drawn as a line. */
  glyph: string
  /** False for types the API can read, delete and reorder but never create or edit. */
  writable: boolean
  /** JSON Schema of `data` (additionalProperties false, every bound and default of the spec). */
  schema: S
  /** JSON Schema of `computed`. */
  computed: C
  /**
   * The editor's words for fields, by path (`link`, `items.*.text`, `customize.textColor`): a label
   * and a hint saying what a person should do. The schema's titles and descriptions speak to
   * programs (the API); the editor shows these instead, and no hint where a field has none here.
   * `paragraphs`: the field keeps rich text, edited as lines (a blank line between paragraphs, lists as
   * lines starting "- " or "1.", bold words between two stars), never as tags;
   * `hidden`: the editor sets the field itself (kept as it is, never asked).
   */
  fieldWords?: Record<string, { label?: string; hint?: string; paragraphs?: true; hidden?: true }>
  /** A human label for every enum value: field path → value → label. */
  enumLabels: Record<string, Record<string, string>>
  /** Valid data for this type, shown to clients. */
  example: Static<S>
  /** Schema-valid data (defaults applied) → clean data, or throws SlotRuleError. */
  normalise(data: Static<S>): Static<S>
  /** Normalised data → computed fields; never throws on normalised data. */
  compute(data: Static<S>, c: ComputeContext): Static<C>
  /**
   * Its own words for reports (analytics blocks, insights) when data has no title or subtitle:
   * the music release's artist and album, the first FAQ question. Empty when it has none.
   */
  reportTitle?(data: Static<S>): string
  /** Upload paths in data that must belong to the page's owner. */
  files?(data: Static<S>): FileRef[]
  /** The record a read-only slot renders from. */
  record?(data: Static<S>): RecordRef
  /** Outbound destinations in render order; `clickHref(id, i)` resolves to `links()[i]`. */
  links?(data: Static<S>, computed: Static<C>, record?: unknown): string[]
  html(slot: SlotView<Static<S>, Static<C>>, r: RenderContext): SafeHtml
  /** The block as a model reads it (page markdown). Empty blocks say they are empty. */
  markdown(slot: SlotView<Static<S>, Static<C>>, record?: unknown): string
  /**
   * The block's rules in the public page's stylesheet, which puts them after the page-wide sheet
   * (src/rendering/theme.css), type by type in registry order. Sheets from slots/shared/ come first
   * (a sheet two types list is written once, where the first of them comes); the last is the
   * type's own and styles only its classes. Colours, fonts and radii come from the theme's tokens
   * (`var(--surface)`) unless a style is a fixed look.
   */
  css: readonly string[]
  /**
   * What the block does in the browser, when it does anything: a classic script the public page
   * runs once, in a function of its own after src/rendering/page-script.js (whose `countClick` it may
   * call). The page must work without it.
   */
  script?: string
  /** Origins the block may frame on the public page (its Content-Security-Policy frame-src). */
  frames?: readonly string[]
}

/** Identity helper: checks a type module against SlotTypeDef and keeps its precise types. */
export const defineSlotType = <S extends TSchema, C extends TSchema>(def: SlotTypeDef<S, C>): SlotTypeDef<S, C> => def

// Method members are bivariant, so every concrete definition fits here.
export type AnySlotTypeDef = SlotTypeDef<TSchema, TSchema>
