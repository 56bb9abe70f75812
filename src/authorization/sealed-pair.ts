import { seal as sealWith, unseal as unsealWith } from '../auth/sealing.ts'
import type { AppContext } from '../context.ts'

// A token pair kept in the store for a retry in the refresh grace: the table holds digests of
// live tokens, never the tokens, and a copy of the database alone still does not give them away.
const PURPOSE = 'oauth refresh successor'

export const seal = <T>(ctx: AppContext, value: T): string => sealWith(ctx.secret, PURPOSE, value)

export const unseal = <T>(ctx: AppContext, sealed: string): T | undefined => unsealWith<T>(ctx.secret, PURPOSE, sealed)
