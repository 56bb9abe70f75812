import { Type } from '@sinclair/typebox'
import { DataOf, DataWithMeta, ProfileKeyParam } from '../http/envelope-schemas.ts'
import { route, routes, withMeta } from '../http/routes.ts'
import {
  LoginCheck,
  LoginCheckQuery,
  Profile,
  ProfileSettings,
  StoreProfileRequest,
  UpdateProfileRequest,
  UpdateSettingsRequest,
} from '../profiles/profile-schemas.ts'
import { profiles as profileUseCases } from '../core/use-cases.ts'
import { PROFILE_INCLUDES } from '../profiles/include.ts'
import { CommaList } from '../kernel/schema-helpers.ts'

const KeyParams = Type.Object({ profileKey: ProfileKeyParam })

export default routes('Profiles', 'Public link pages of the token owner.', '/v1/profiles', [
  route({
    method: 'GET',
    url: '',
    operationId: 'listProfiles',
    summary: "List the token owner's profiles",
    description: 'Every page of the account that granted the token, oldest first; meta.total counts them. Pages of other accounts never appear.',
    scope: 'profile:read',
    reply: { 200: DataWithMeta(Type.Array(Profile), Type.Object({ total: Type.Integer() })) },
    handler: async ({ ctx, principal }) => {
      const list = await profileUseCases.list(ctx, principal)
      return withMeta(list, { total: list.length })
    },
  }),
  route({
    method: 'POST',
    url: '',
    operationId: 'createProfile',
    summary: 'Create a profile',
    description:
      'Creates an empty page at {public_base}/<login>. The login is 4 to 60 letters, digits, dots or underscores, not one of the 28 reserved words, and unique regardless of case (422 naming `login`); GET /profiles/check-login tests one first. A login of digits only (`20240611`) is allowed and its page is {public_base}/20240611, but a digits-only {profileKey} is always an id, so the API reaches that profile by its `id`. At most 100 profiles per user (409 limit_reached). The first profile of a user is its main one.',
    scope: 'profile:write',
    body: StoreProfileRequest,
    reply: { 201: DataOf(Profile) },
    errors: [409],
    handler: ({ ctx, principal, body, dryRun }) => profileUseCases.create(ctx, principal, body, { dryRun }),
  }),
  route({
    method: 'GET',
    url: '/check-login',
    operationId: 'checkLogin',
    summary: 'Check whether a login can be used',
    description:
      'Answers whether `login` is free for a new profile or a rename, and if not, why: `invalid` (length or characters), `reserved` (one of the 28 reserved words) or `taken`. Pass `profile` (id or login of one of your profiles; digits only is an id) when renaming it, so its own current login is not reported as taken. An unknown or foreign `profile` is 404. A digits-only login is available like any other; its message reminds that API paths reach such a profile by its id.',
    scope: 'profile:read',
    query: LoginCheckQuery,
    reply: { 200: DataOf(LoginCheck) },
    errors: [404],
    handler: ({ ctx, principal, query }) => profileUseCases.checkLogin(ctx, principal, query),
  }),
  route({
    method: 'GET',
    url: '/:profileKey',
    operationId: 'getProfile',
    summary: 'Read a profile',
    description: 'With include=slots (a comma list; slots is the one value) the page comes with every slot in page order.',
    scope: 'profile:read',
    params: KeyParams,
    query: Type.Object({
      include: Type.Optional(CommaList(PROFILE_INCLUDES, { maxLength: 200, description: 'Extras to embed, comma separated: slots.', examples: ['slots'] })),
    }),
    reply: { 200: DataOf(Profile) },
    handler: ({ ctx, principal, params, query }) => profileUseCases.get(ctx, principal, params.profileKey, query),
  }),
  route({
    method: 'PATCH',
    url: '/:profileKey',
    operationId: 'updateProfile',
    summary: 'Update a profile: title, description, images, socials',
    description:
      'Omitted fields stay as they are; null clears a field; the body may be omitted. `avatar` and `bgImage` take paths returned by POST /files for your own uploads. `socials` replaces the whole row of social links: send `{link, order}` items only — icons are derived from the links and come back in computed.socials, so sending `icon` is 422. Problems are listed in `errors` keyed by field (`title`, `socials.2.icon`, `avatar`), all those of the request together.',
    scope: 'profile:write',
    params: KeyParams,
    body: UpdateProfileRequest,
    reply: { 200: DataOf(Profile) },
    errors: [409],
    handler: ({ ctx, principal, params, body, dryRun }) => profileUseCases.update(ctx, principal, params.profileKey, body, { dryRun }),
  }),
  route({
    method: 'GET',
    url: '/:profileKey/settings',
    operationId: 'getProfileSettings',
    summary: "Read a profile's login and language settings",
    description:
      "The login, the page language (null: it follows the owner's language; computed.effectiveLanguageCode says which applies) and the choices a client may offer: options.languages and the login rules with the reserved words.",
    scope: 'profile:read',
    params: KeyParams,
    reply: { 200: DataOf(ProfileSettings) },
    handler: ({ ctx, principal, params }) => profileUseCases.getSettings(ctx, principal, params.profileKey),
  }),
  route({
    method: 'PATCH',
    url: '/:profileKey/settings',
    operationId: 'updateProfileSettings',
    summary: "Change a profile's login or page language",
    description:
      "Send `login` to move the page to a new address: the old address stops working at once, with no redirect, so links, QR codes and NFC tags pointing to it break; check the new one first with GET /profiles/check-login. Send `languageCode` (or `languageId`) from options.languages to set the page language, or null to follow the owner's language. Omitted fields stay as they are.",
    scope: 'profile:write',
    params: KeyParams,
    body: UpdateSettingsRequest,
    reply: { 200: DataOf(ProfileSettings) },
    errors: [409],
    handler: ({ ctx, principal, params, body, dryRun }) => profileUseCases.changeSettings(ctx, principal, params.profileKey, body, { dryRun }),
  }),
  route({
    method: 'GET',
    url: '/:profileKey/markdown',
    operationId: 'getProfileMarkdown',
    summary: 'The whole page as markdown, as a model reads it',
    description:
      'Title, description, socials, then every slot in real page order with its real texts; empty blocks are shown as empty and ' +
      'legacy slots are marked unsupported. Answers text/markdown; the x-markdown-tokens header is its token count.',
    scope: 'profile:read',
    params: KeyParams,
    reply: { 200: Type.String({ description: 'The page as markdown (text/markdown).' }) },
    raw: true,
    handler: async ({ ctx, principal, params, reply }) => {
      const { markdown, tokens } = await profileUseCases.markdown(ctx, principal, params.profileKey)
      reply.type('text/markdown; charset=utf-8').header('x-markdown-tokens', String(tokens))
      return markdown
    },
  }),
])
