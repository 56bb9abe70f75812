import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import type { VisibilityPatch } from '../slots/shared/visibility.ts'
import { slotService } from '../slots/slot-service.ts'
import { type ProfileKey, type WriteOptions, writeProfile } from './unit-of-work.ts'

// Hide, show and schedule one block. The same write as PATCH …/slots/{slot} with
// visibility alone, named for what it does so agents and the page editor need not build a patch.
// Any slot of the page may be hidden or scheduled, read-only and legacy ones included: its
// data is not touched.

async function set(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number } & VisibilityPatch,
  options: WriteOptions = {},
): Promise<SlotResource> {
  const { slot, ...visibility } = input
  return writeProfile(
    ctx,
    principal,
    profileKey,
    options,
    async (trx, profile) => slotService.present(ctx.config, [await slotService.setVisibility(trx, profile, slot, visibility)])[0],
  )
}

/** Takes the block off the public page (its schedule is kept for when it is shown again). */
const hide = (ctx: AppContext, principal: Principal, profileKey: ProfileKey, input: { slot: number }, options: WriteOptions = {}) =>
  set(ctx, principal, profileKey, { slot: input.slot, hidden: true }, options)

/** Puts the block back; it shows when its window (if any) is open. */
const show = (ctx: AppContext, principal: Principal, profileKey: ProfileKey, input: { slot: number }, options: WriteOptions = {}) =>
  set(ctx, principal, profileKey, { slot: input.slot, hidden: false }, options)

/** Sets the window (null clears a bound; a key left out keeps its value). */
const schedule = (
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number; startsAt?: string | null; endsAt?: string | null },
  options: WriteOptions = {},
) => set(ctx, principal, profileKey, { slot: input.slot, startsAt: input.startsAt, endsAt: input.endsAt }, options)

export const slotVisibilityUseCases = Object.freeze({ set, hide, show, schedule })
