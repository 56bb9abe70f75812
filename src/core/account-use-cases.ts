import type { Identity } from '../auth/identity.ts'
import { can, type Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../limits.ts'
import { usersRepository } from '../store/users.ts'
import { readAccount } from './unit-of-work.ts'

/** spec, GET /me: intended as a client's first call. */
async function me(ctx: AppContext, principal: Principal): Promise<Identity> {
  return readAccount(ctx, principal, async (db) => {
    const { profiles, tokens } = await usersRepository.usage(db, principal.user.id)
    const rl = ctx.config.rateLimit
    return {
      userId: principal.user.id,
      name: principal.user.name,
      abilities: principal.abilities,
      canWrite: can(principal, 'profile:write'),
      limits: {
        profiles: { used: profiles, max: limits.profilesPerUser },
        slotsPerProfile: limits.slotsPerProfile,
        slotsPerBatch: limits.slotsPerBatch,
        tokens: { used: tokens, max: limits.tokensPerUser },
        rateLimit: {
          requestsPerSecond: rl.perSecond,
          requestsPerMinute: rl.perMinute,
          musicLookupPerMinute: rl.musicPerMinute,
          analyticsPerMinute: rl.analyticsPerMinute,
        },
        upload: { maxMegabytes: limits.uploadMegabytes, maxMegabytesFromUrl: limits.uploadFromUrlMegabytes },
      },
      analytics: { retentionDays: limits.analyticsRetentionDays, timezone: principal.user.timezone },
    }
  })
}

export const accountUseCases = Object.freeze({ me })
