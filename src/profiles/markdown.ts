import type { Config } from '../config.ts'
import { slotService } from '../slots/slot-service.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { mdText } from '../slots/shared/markdown-text.ts'
import { type SlotResource, toSlotView } from '../slots/slot-resource.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { usersRepository } from '../store/users.ts'
import { shownSlots } from '../slots/shown-slots.ts'
import { ALWAYS_VISIBLE } from '../slots/shared/visibility.ts'
import { toProfileResource } from './profile-resource.ts'
import type { ProfileResource } from './profile-schemas.ts'

const EMPTY = '_(empty)_'

/** The owner's view says when a block is off the public page (the public view never shows such a block). */
function visibilityNote(slot: SlotResource): string {
  const v = slot.visibility
  if (!v) return ''
  if (v.hidden) return ', hidden'
  if (v.startsAt && v.endsAt) return `, shown ${mdText(v.startsAt)} to ${mdText(v.endsAt)}`
  if (v.startsAt) return `, shown from ${mdText(v.startsAt)}`
  if (v.endsAt) return `, shown until ${mdText(v.endsAt)}`
  return ''
}

function slotSection(slot: SlotResource, record: unknown): string {
  const def = slotTypeOf(slot.type)
  const position = slot.order + 1
  if (!def || !slot.supported) {
    return `### ${position}. ${mdText(slot.type)} (slot ${slot.id}, unsupported)\n\n_${slot.message ?? 'This slot type is not supported by the API.'}_`
  }
  const readOnly = def.writable ? '' : ', read-only'
  const body = def.markdown(toSlotView(slot), record).trim()
  return `### ${position}. ${def.title} (slot ${slot.id}${readOnly}${visibilityNote(slot)})\n\n${body || EMPTY}`
}

/**
 * The whole page as a model reads it: title, description, socials, then every slot in page order
 * with its real texts, each rendered by its type's `markdown`. Empty parts say they are empty;
 * legacy slots are marked unsupported. Pure: the caller loads slots and records.
 */
export function renderPageMarkdown(profile: ProfileResource, slots: SlotResource[], records: ReadonlyMap<number, unknown>): string {
  // Titles, descriptions and every slot's texts are the owner's words: escaped, they stay text.
  const out = [`# ${mdText(profile.title || `@${profile.login}`)}`, '']
  out.push(profile.description ? mdText(profile.description) : '_(no description)_', '')
  out.push(`Page: ${profile.computed.url}`, '')
  out.push('## Socials', '')
  if (profile.socials.length) {
    profile.socials.forEach((s, i) => {
      out.push(`- ${profile.computed.socials[i]?.icon ?? 'link'}: ${s.link}`)
    })
  } else out.push('_(none)_')
  out.push('', `## Slots (${slots.length})`, '')
  if (!slots.length) out.push('_(no slots)_', '')
  for (const slot of slots) out.push(slotSection(slot, records.get(slot.id)), '')
  return `${out.join('\n').trimEnd()}\n`
}

/** The page of `profile` as markdown, loaded from the store: every slot (the owner's view). */
export async function pageMarkdown(db: Db, config: Config, profile: StoredProfile): Promise<string> {
  const slots = await slotService.list(db, profile.id)
  const records = await slotService.records(db, profile.userId, slots)
  return renderPageMarkdown(toProfileResource(config, profile), slotService.present(config, slots), records)
}

/**
 * The public markdown view: only the slots shown at `now`, numbered as the visitor
 * sees them (no gap betrays a hidden one), and the moment that set changes by itself.
 */
export async function publicPageMarkdown(
  db: Db,
  config: Config,
  profile: StoredProfile,
  now = Date.now(),
): Promise<{ markdown: string; expiresAt: number | undefined }> {
  const [all, owner] = await Promise.all([slotService.list(db, profile.id), usersRepository.findById(db, profile.userId)])
  const { slots, expiresAt } = shownSlots(all, owner?.timezone ?? 'UTC', now)
  const records = await slotService.records(db, profile.userId, slots)
  // Visitors see neither the gaps hidden blocks leave nor a shown block's schedule.
  const presented = slotService.present(config, slots).map((s, i) => ({ ...s, order: i, visibility: ALWAYS_VISIBLE }))
  return { markdown: renderPageMarkdown(toProfileResource(config, profile), presented, records), expiresAt }
}

/**
 * The token count sent as x-markdown-tokens (gpt-tokenizer's default encoding, o200k_base). The
 * encoding's tables are large, so they load with the first markdown answer, not at start.
 */
export async function markdownTokens(markdown: string): Promise<number> {
  const { countTokens } = await import('gpt-tokenizer')
  return countTokens(markdown)
}
