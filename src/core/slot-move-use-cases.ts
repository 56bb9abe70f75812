import { Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import { profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { notFound } from '../kernel/errors.ts'
import { slotService } from '../slots/slot-service.ts'
import { type ProfileKey, type WriteOptions, writeProfile } from './unit-of-work.ts'

export const MoveSlotInput = Type.Object(
  {
    slot: Type.Integer({ minimum: 1, description: 'The id of the slot to move.' }),
    position: Type.Integer({
      minimum: 0,
      maximum: limits.slotsPerProfile - 1,
      description: 'Its new place on the page, 0 first; past the end it goes last. The other slots keep their sequence.',
    }),
  },
  { additionalProperties: false },
)

/**
 * One slot to a new place, the others keeping their sequence: the full reorder without making
 * the caller send every id of the page (and without losing a slot created meanwhile, since the
 * page's ids are read inside the transaction, under the page's write lock).
 */
async function move(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number; position: number },
  options: WriteOptions = {},
): Promise<SlotResource[]> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    await profilesRepository.lockForWrite(trx, profile.id)
    const ids = (await slotsRepository.listByProfile(trx, profile.id)).map((s) => s.id)
    if (!ids.includes(input.slot)) throw notFound('slot', `No slot ${input.slot} on this page; list the page's slots for their ids.`)
    const rest = ids.filter((id) => id !== input.slot)
    rest.splice(Math.min(input.position, rest.length), 0, input.slot)
    return slotService.present(ctx.config, await slotService.reorder(trx, profile, rest))
  })
}

export const slotMoveUseCases = Object.freeze({ move })
