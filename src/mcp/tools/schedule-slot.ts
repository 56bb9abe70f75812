import { Type } from '@sinclair/typebox'
import { slotVisibility } from '../../core/use-cases.ts'
import { type SlotResource, Slot } from '../../slots/slot-resource.ts'
import { Visibility } from '../../slots/shared/visibility.ts'
import { AppError, invalid } from '../../kernel/errors.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { ProfileKey, writeInput } from '../tool-schemas.ts'

/**
 * The core names the window's fields as they sit in a slot (`visibility.endsAt`); this tool takes
 * them as its own arguments, so its refusals name `startsAt` and `endsAt`.
 */
function inScheduleArguments(err: unknown): unknown {
  if (!(err instanceof AppError) || !err.errors) return err
  const own = (text: string) => text.replaceAll('visibility.', '')
  return invalid(Object.fromEntries(Object.entries(err.errors).map(([field, list]) => [own(field), list.map(own)])))
}

/** What a visibility write says it did, in one line. */
export function shownText(slot: SlotResource): string {
  const v = slot.visibility
  if (v.hidden) return `Slot ${slot.id} is hidden from the public page.`
  if (!v.startsAt && !v.endsAt) return `Slot ${slot.id} shows on the public page.`
  return `Slot ${slot.id} shows on the public page ${v.startsAt ? `from ${v.startsAt}` : 'from now'}${v.endsAt ? ` until ${v.endsAt}` : ' with no end'}.`
}

export default defineTool({
  name: 'schedule_slot',
  title: 'Show a block only within a time window',
  description: "Shows a slot only from startsAt until endsAt (ISO 8601; without offset in the owner's time zone). Call list_slots first for the id.",
  scope: 'profile:write',
  inputSchema: writeInput({
    profileKey: ProfileKey,
    slot: Type.Integer({ minimum: 1, description: 'The slot id (list_slots).' }),
    startsAt: Type.Optional(Visibility.properties.startsAt),
    endsAt: Type.Optional(Visibility.properties.endsAt),
  }),
  outputSchema: Type.Object({ slot: Slot }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, startsAt, endsAt, dryRun }, { ctx, principal }) => {
    const scheduled = await slotVisibility.schedule(ctx, principal, profileKey, { slot, startsAt, endsAt }, { dryRun }).catch((err) => {
      throw inScheduleArguments(err)
    })
    return { structured: { slot: scheduled }, text: doneText(dryRun, shownText(scheduled)) }
  },
})
