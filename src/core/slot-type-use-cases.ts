import { slotTypeOf, slotTypes } from '../slots/registry.ts'
import { describeSlotType } from '../slots/slot-type-description.ts'
import { notFound } from '../kernel/errors.ts'

export type SlotTypeDescription = ReturnType<typeof describeSlotType>

// What each slot type holds, from the registry: the same for every caller, so no principal and
// no store. Descriptions carry next-step markers the face renders (kernel/next-step.ts).

/** Every slot type, in the registry's order. */
async function list(): Promise<SlotTypeDescription[]> {
  return Object.values(slotTypes).map(describeSlotType)
}

/** One slot type; an unknown name is not_found. */
async function get(_ctx: unknown, input: { type: string }): Promise<SlotTypeDescription> {
  const def = slotTypeOf(input.type)
  if (!def) throw notFound('slot type', `No slot type "${input.type}". {{slotTypes.list}} lists the ${Object.keys(slotTypes).length} types.`)
  return describeSlotType(def)
}

export const slotTypeUseCases = Object.freeze({ list, get })
