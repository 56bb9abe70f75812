import { type Principal, requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { musicLookupService } from '../music/lookup.ts'
import type { MusicLookupResult } from '../music/lookup-result.ts'
import type { MusicQueryInput } from '../music/query.ts'

/** spec, GET /music/lookup: a UPC, ISRC, link or title → a release and a music slot ready to post. */
async function lookup(ctx: AppContext, principal: Principal, input: MusicQueryInput): Promise<MusicLookupResult> {
  requireAbility(principal, 'profile:read')
  return musicLookupService.lookup(ctx, input)
}

export const musicUseCases = Object.freeze({ lookup })
