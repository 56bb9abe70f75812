import { Type } from '@sinclair/typebox'
import { discoveryDocument } from '../discovery.ts'
import { DataOf } from '../http/schemas.ts'
import { route, routes } from '../http/routes.ts'
import { limits } from '../limits.ts'
import { usersRepository } from '../store/users.ts'

const Identity = Type.Object(
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

export default routes('Discovery', 'Where to start: what the API offers and what this token may do.', '/v1', [
  route({
    method: 'GET',
    url: '/',
    operationId: 'getApiIndex',
    summary: 'Describe the API (no token needed)',
    scope: 'public',
    reply: { 200: DataOf(Type.Object({}, { additionalProperties: true })) },
    handler: async ({ ctx }) => discoveryDocument(ctx.config),
  }),
  route({
    method: 'GET',
    url: '/me',
    operationId: 'getMe',
    summary: 'Who the token acts for, and how much of each limit is left',
    description: 'Intended as the first call: tells whether the token can write and how much of each limit is left.',
    scope: 'profile:read',
    reply: { 200: DataOf(Identity) },
    handler: async ({ ctx, db, principal }) => {
      const { profiles, tokens } = await usersRepository.usage(db, principal.user.id)
      const rl = ctx.config.rateLimit
      return {
        userId: principal.user.id,
        name: principal.user.name,
        abilities: principal.abilities,
        canWrite: principal.abilities.includes('profile:write'),
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
    },
  }),
  route({
    method: 'GET',
    url: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'The machine-readable description of this API (OpenAPI 3.1)',
    scope: 'profile:read',
    reply: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document.' }) },
    raw: true,
    handler: async ({ ctx, reply }) => {
      reply.type('application/json')
      // Imported lazily: the document is built from every module, this one included.
      const { openApiJson } = await import('./openapi-document.ts')
      return openApiJson(ctx.config)
    },
  }),
])
