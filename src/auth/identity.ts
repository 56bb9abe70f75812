import { type Static, Type } from '@sinclair/typebox'

/** spec, GET /me: who the credential acts for, what it may do, and how much of each limit is left. */
export const Identity = Type.Object(
  {
    userId: Type.Integer(),
    name: Type.String(),
    abilities: Type.Array(Type.String()),
    canWrite: Type.Boolean(),
    limits: Type.Object({
      profiles: Type.Object({ used: Type.Integer(), max: Type.Integer() }),
      slotsPerProfile: Type.Integer(),
      slotsPerBatch: Type.Integer(),
      tokens: Type.Object({ used: Type.Integer(), max: Type.Integer() }),
      rateLimit: Type.Object({
        requestsPerSecond: Type.Integer(),
        requestsPerMinute: Type.Integer(),
        musicLookupPerMinute: Type.Integer(),
        analyticsPerMinute: Type.Integer(),
      }),
      upload: Type.Object({ maxMegabytes: Type.Integer(), maxMegabytesFromUrl: Type.Integer() }),
    }),
    analytics: Type.Object({ retentionDays: Type.Integer(), timezone: Type.String() }),
  },
  { additionalProperties: false },
)
export type Identity = Static<typeof Identity>
