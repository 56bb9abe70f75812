import { Type } from '@sinclair/typebox'
import { DataOf, DataWithMeta, ProfileKeyParam } from '../http/schemas.ts'
import { route, routes, withMeta } from '../http/routes.ts'
import { toProfileResource } from '../profiles/resource.ts'
import { Profile, StoreProfileRequest } from '../profiles/schemas.ts'
import { profileService } from '../profiles/service.ts'
import { profilesRepository } from '../store/profiles.ts'

const KeyParams = Type.Object({ profileKey: ProfileKeyParam })

export default routes('Profiles', 'Public link pages of the token owner.', '/v1/profiles', [
  route({
    method: 'GET',
    url: '',
    operationId: 'listProfiles',
    summary: "List the token owner's profiles",
    scope: 'profile:read',
    reply: { 200: DataWithMeta(Type.Array(Profile), Type.Object({ total: Type.Integer() })) },
    handler: async ({ ctx, db, principal }) => {
      const list = await profilesRepository.listByUser(db, principal.user.id)
      return withMeta(
        list.map((p) => toProfileResource(ctx.config, p)),
        { total: list.length },
      )
    },
  }),
  route({
    method: 'POST',
    url: '',
    operationId: 'createProfile',
    summary: 'Create a profile',
    description: 'Creates an empty page at {public_base}/<login>. At most 100 profiles per user (409 limit_reached).',
    scope: 'profile:write',
    body: StoreProfileRequest,
    reply: { 201: DataOf(Profile) },
    errors: [409],
    handler: async ({ ctx, db, principal, body }) => toProfileResource(ctx.config, await profileService.create(db, principal.user.id, body.login)),
  }),
  route({
    method: 'GET',
    url: '/:profileKey',
    operationId: 'getProfile',
    summary: 'Read a profile',
    scope: 'profile:read',
    params: KeyParams,
    reply: { 200: DataOf(Profile) },
    handler: async ({ ctx, profile }) => toProfileResource(ctx.config, profile),
  }),
])
