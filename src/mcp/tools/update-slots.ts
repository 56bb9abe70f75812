import { Type } from '@sinclair/typebox'
import { PatchSlotsBody } from '../../core/use-cases.ts'
import { invalid, type FieldErrors } from '../../kernel/errors.ts'
import { slots } from '../../core/use-cases.ts'
import { limits } from '../../kernel/limits.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { compactSlotPatch, DryRun, IdempotencyKey, ProfileKey, writeInput } from '../tool-schemas.ts'

const patchItem = PatchSlotsBody.properties.slots.items
const batch = { minItems: 1, maxItems: limits.slotsPerBatch, description: 'Each slot once; data is merged over its current values at the top level.' }

export default defineTool({
  name: 'update_slots',
  title: 'Change the data of blocks',
  description: 'Changes the data of one or many slots at once; send only the fields that change. Call list_slots first for ids and types.',
  scope: 'profile:write',
  // type is optional here (the REST patch has none); when given it must be the slot's own.
  inputSchema: writeInput({
    profileKey: ProfileKey,
    slots: Type.Array(
      Type.Object(
        { ...patchItem.properties, type: Type.Optional(Type.String({ maxLength: 40, description: "The slot's current type." })) },
        { additionalProperties: false },
      ),
      batch,
    ),
  }),
  advertisedInput: Type.Object(
    {
      profileKey: ProfileKey,
      slots: Type.Array(compactSlotPatch(patchItem.properties.id), batch),
      dryRun: DryRun,
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slots: patches, dryRun }, { ctx, principal }) => {
    if (patches.some((p) => p.type !== undefined)) {
      const types = new Map((await slots.list(ctx, principal, profileKey)).map((s) => [s.id, s.type]))
      const errors: FieldErrors = {}
      patches.forEach((p, i) => {
        const actual = types.get(p.id)
        if (p.type !== undefined && actual !== undefined && p.type !== actual) {
          errors[`slots.${i}.type`] = [`Slot ${p.id} is a ${actual} slot, not ${p.type}; the type cannot change (create a new slot and delete this one).`]
        }
      })
      if (Object.keys(errors).length) throw invalid(errors)
    }
    const updated = await slots.updateMany(ctx, principal, profileKey, { slots: patches.map(({ id, data }) => ({ id, data })) }, { dryRun })
    return { structured: { slots: updated }, text: doneText(dryRun, `Updated ${updated.length} slot(s): ${updated.map((s) => s.id).join(', ')}.`) }
  },
})
