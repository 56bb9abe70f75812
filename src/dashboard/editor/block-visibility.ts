import { plainMessage } from '../plain-words.ts'
import { ownerPrincipal } from '../../auth/principal.ts'
import { type User, utcToWallTime } from '../../core/use-cases.ts'
import { AppError, type FieldErrors } from '../../kernel/errors.ts'
import * as useCases from '../../core/use-cases.ts'
import { h, raw, type SafeHtml } from '../../slots/shared/html.ts'
import { instantOf, type SlotVisibility } from '../../slots/shared/visibility.ts'
import type { SlotResource } from '../../slots/slot-resource.ts'
import { csrfField } from '../layout.ts'
import { type PageInput, type PageRow, text } from '../page-routes.ts'

// Show, hide and schedule one block, from its card in the editor. The same use case as the API's
// visibility (slot-visibility-use-cases.ts), so the same rules: times typed in the page owner's
// time zone (a datetime-local value is exactly a wall-clock time without an offset), and the
// end after the start. Plain form posts; the script only makes them without a reload.

/** What the card shows of a schedule being typed when the save was refused. */
export interface ScheduleState {
  slotId: number
  startsAt: string
  endsAt: string
  errors: FieldErrors
}

type Show = (p: PageInput<User>, s: { schedule?: ScheduleState; scheduling?: number }, status?: number) => Promise<unknown>

const idOf = (value: string | undefined) => (/^[1-9]\d{0,15}$/.test(value ?? '') ? Number(value) : 0)

export function blockVisibilityPages(at: string, show: Show): PageRow[] {
  return [{ method: 'POST', url: `${at}/blocks/:slotId/visibility`, signedIn: true, multipart: true, handler: (p) => setVisibility(p, show) }]
}

/** A wall-clock time as typed, or null for an empty field (no bound). */
const bound = (value: string) => (value.trim() === '' ? null : value.trim())

/**
 * The core's words for a refused window name the API's keys; the editor says the same rule with
 * the labels the person sees.
 */
function inEditorWords(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {}
  for (const [key, messages] of Object.entries(errors)) {
    const field = key.replace(/^visibility\./, '')
    out[field] = messages.map((m) =>
      /^Must be after/.test(m)
        ? 'Must be later than “Show from”: a block cannot stop showing before it starts. Leave “until” empty for no end.'
        : /^Not a real date/.test(m)
          ? 'Give a real date and time.'
          : plainMessage(m),
    )
  }
  return out
}

async function setVisibility(p: PageInput<User>, show: Show) {
  const principal = ownerPrincipal(p.user)
  const profileId = idOf(p.params.profileId)
  const slot = idOf(p.params.slotId)
  const editor = `/my-links/${profileId}/editor`
  const op = text(p.form, 'op')
  if (op === 'hide' || op === 'show') {
    const done = await useCases.slotVisibility[op](p.ctx, principal, profileId, { slot })
    return p.redirect(
      `${editor}#block-${slot}`,
      op === 'hide'
        ? 'Block hidden: visitors no longer see it.'
        : `Block shown again${done.visibility.startsAt || done.visibility.endsAt ? ' when its schedule says' : ''}.`,
    )
  }
  const startsAt = op === 'clear' ? '' : text(p.form, 'startsAt')
  const endsAt = op === 'clear' ? '' : text(p.form, 'endsAt')
  try {
    await useCases.slotVisibility.schedule(p.ctx, principal, profileId, { slot, startsAt: bound(startsAt), endsAt: bound(endsAt) })
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'validation_failed' && err.errors)) throw err
    return show(p, { schedule: { slotId: slot, startsAt, endsAt, errors: inEditorWords(err.errors) } }, 422)
  }
  return p.redirect(
    `${editor}#block-${slot}`,
    op === 'clear' || (!startsAt && !endsAt) ? 'Schedule removed: the block shows whenever it is not hidden.' : 'Schedule saved.',
  )
}

const dayAndTime = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(ms)
    .replace(' at ', ', ')

/** Where the block stands for visitors right now, in words for its card; undefined when it simply shows. */
export function visibilityState(v: SlotVisibility, timeZone: string, now = Date.now()): { words: string; off: boolean } | undefined {
  if (v.hidden) return { words: 'Hidden', off: true }
  const start = v.startsAt === null ? undefined : instantOf(v.startsAt, timeZone)
  const end = v.endsAt === null ? undefined : instantOf(v.endsAt, timeZone)
  if (end !== undefined && end <= now) return { words: 'Ended', off: true }
  if (start !== undefined && start > now) return { words: `Shows from ${dayAndTime(start, timeZone)}`, off: true }
  if (end !== undefined) return { words: `Shows until ${dayAndTime(end, timeZone)}`, off: false }
  return undefined
}

/** A stored bound as a datetime-local value in the owner's zone ('' for none). */
function wallTime(value: string | null, timeZone: string): string {
  if (value === null) return ''
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return value
  const at = instantOf(value, timeZone)
  return at === undefined ? '' : utcToWallTime(new Date(at).toISOString(), timeZone)
}

/** The card's state badge (beside its type), shown only when the block is not simply on the page. */
export function visibilityBadge(slot: SlotResource, timeZone: string): SafeHtml | '' {
  const state = visibilityState(slot.visibility, timeZone)
  return state ? h`<span class="ed-state${state.off ? ' off' : ''}">${state.words}</span>` : ''
}

/** The card's show/hide switch and its Schedule control; the schedule form itself when it is open. */
export function visibilityControls(o: {
  base: string
  csrf: string
  slot: SlotResource
  what: SafeHtml
  timeZone: string
  open: boolean
  state?: ScheduleState
}): SafeHtml {
  const { slot } = o
  const shown = !slot.visibility.hidden
  const action = `${o.base}/blocks/${slot.id}/visibility`
  const toggle = h`<form method="post" action="${action}" class="ed-switch-form">${csrfField(o.csrf)}<input type="hidden" name="op" value="${shown ? 'hide' : 'show'}">
<button type="submit" class="ed-switch" role="switch" aria-checked="${shown ? 'true' : 'false'}" data-focus="visible-${slot.id}"><span class="ed-track" aria-hidden="true"></span>Show on page${o.what}</button></form>`
  const scheduled = slot.visibility.startsAt !== null || slot.visibility.endsAt !== null
  const link = h`<a class="button secondary" href="${o.base}?schedule=${slot.id}#schedule-${slot.id}" data-focus="schedule-${slot.id}">${scheduled ? 'Change schedule' : 'Schedule'}${o.what}</a>`
  if (!o.open) return h`<div class="ed-visibility">${toggle}${link}</div>`
  const values = o.state ?? {
    startsAt: wallTime(slot.visibility.startsAt, o.timeZone),
    endsAt: wallTime(slot.visibility.endsAt, o.timeZone),
    errors: {} as FieldErrors,
  }
  const field = (name: 'startsAt' | 'endsAt', label: string) => {
    const id = `f-${name}-${slot.id}`
    const problems = values.errors[name] ?? []
    return h`<div class="field"><label for="${id}">${label}</label>
<input id="${id}" type="datetime-local" name="${name}" value="${values[name]}" aria-describedby="sched-hint-${slot.id}${problems.length ? ` ${id}-error` : ''}"${problems.length ? raw(' aria-invalid="true"') : ''}>
${problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : ''}</div>`
  }
  const refused = Object.keys(values.errors).length
  return h`<div class="ed-visibility">${toggle}</div>
<form method="post" action="${action}" class="ed-schedule" id="schedule-${slot.id}" novalidate>${csrfField(o.csrf)}
<fieldset><legend>When this block shows</legend>
${refused ? h`<p class="notice bad" role="alert">The schedule was not saved: ${Object.values(values.errors).flat().join(' ')}</p>` : ''}
<p class="hint" id="sched-hint-${slot.id}">In your time zone, ${o.timeZone}. Leave a field empty for no limit.</p>
<div class="ed-when">${field('startsAt', 'Show from')}${field('endsAt', 'Show until')}</div>
<p class="actions"><button type="submit" name="op" value="schedule" data-focus="schedule-${slot.id}">Save schedule</button>${scheduled ? h`<button type="submit" class="secondary" name="op" value="clear" data-focus="schedule-${slot.id}">Remove schedule</button>` : ''}<a class="button secondary" href="${o.base}#block-${slot.id}" data-focus="schedule-${slot.id}">Cancel</a></p>
</fieldset></form>`
}
