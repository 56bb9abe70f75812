import type { Config } from '../config.ts'
import { TOKEN_PREFIX } from '../auth/secrets.ts'
import { limits } from '../kernel/limits.ts'

export const ABILITY_GRANTS = [
  { name: 'profile:read', grants: 'read profiles, slots, their statistics and discovery' },
  { name: 'profile:write', grants: 'create, change and delete slots, update profiles, upload files' },
]

/** spec, Overview: what the API does not offer. */
export const NOT_AVAILABLE = [
  'Deleting a profile (dashboard only, irreversible).',
  'Profile themes: the API neither returns nor accepts them.',
  'Creating or changing events and storefront catalogs: event slots can be read, deleted and reordered only.',
  'Account settings, password, e-mail and payment data.',
]

/** `GET /v1/`: everything a new client needs to find its way, without a token. */
export function discoveryDocument(config: Config) {
  const base = `${config.publicUrl}/v1`
  const rl = config.rateLimit
  return {
    name: 'Slotline',
    version: 'v1',
    baseUrl: base,
    authentication: {
      scheme: 'bearer',
      header: 'Authorization: Bearer <token>',
      tokenPrefix: TOKEN_PREFIX,
      issuedAt: `${config.publicUrl}/settings/tokens`,
      abilities: ABILITY_GRANTS,
      // spec, Authentication 3: the same OAuth serves apps on the REST API and agents on the connector.
      oauth: {
        flow: 'authorization code with PKCE (S256), public clients, dynamic registration or a client metadata document URL as client_id',
        authorizationServer: `${config.publicUrl}/.well-known/oauth-authorization-server`,
        protectedResource: `${config.publicUrl}/.well-known/oauth-protected-resource/v1`,
        registration: `${config.publicUrl}/oauth/register`,
        accessTokenPrefix: 'slo_',
        scopes: ABILITY_GRANTS.map((a) => a.name),
        connectedApps: `${config.publicUrl}/settings/apps`,
      },
      mcp: { url: `${config.publicUrl}/mcp`, protectedResource: `${config.publicUrl}/.well-known/oauth-protected-resource/mcp` },
    },
    discovery: {
      me: `${base}/me`,
      slotTypes: `${base}/slot-types`,
      profileSettings: `${base}/profiles/{profileKey}/settings`,
      openapi: `${base}/openapi.json`,
      profileMarkdown: `${base}/profiles/{profileKey}/markdown`,
      musicLookup: `${base}/music/lookup`,
      analytics: `${base}/analytics`,
      profileAnalytics: `${base}/profiles/{profileKey}/analytics`,
      docs: `${base}/docs`,
    },
    conventions: {
      success: '{data, meta?}',
      error: '{message, code, errors?, documentation?}',
      keys: 'camelCase (upload-url answers use snake_case upload_url, max_bytes, expires_at)',
      dates: 'ISO 8601',
      contentType: 'application/json, except GET .../markdown (text/markdown) and multipart upload',
      profileKey: 'A numeric profile id or a login; a segment of digits only is always an id.',
      precognition: 'Send Precognition: true on any write to validate only: 204 on success, 422 on failure; nothing is stored.',
      idempotency: 'Send Idempotency-Key (up to 128 characters) on any write; a repeat within 24 hours returns the stored response.',
      editing: 'Change blocks with PATCH: deleting and re-creating a slot loses its click statistics.',
    },
    limits: {
      requestsPerSecond: rl.perSecond,
      requestsPerMinute: rl.perMinute,
      analyticsPerMinute: rl.analyticsPerMinute,
      musicLookupPerMinute: rl.musicPerMinute,
      profilesPerUser: limits.profilesPerUser,
      slotsPerProfile: limits.slotsPerProfile,
      slotsPerBatch: limits.slotsPerBatch,
      tokensPerUser: limits.tokensPerUser,
      analyticsPeriodDays: limits.analyticsPeriodDays,
      analyticsRetentionDays: limits.analyticsRetentionDays,
      idempotencyHours: limits.idempotencyHours,
      idempotencyKeyLength: limits.idempotencyKeyLength,
      uploadMegabytes: limits.uploadMegabytes,
      uploadFromUrlMegabytes: limits.uploadFromUrlMegabytes,
      uploadUrlMinutes: limits.uploadUrlMinutes,
      login: limits.login,
    },
    examples: [
      { title: 'Who am I', request: `GET ${base}/me` },
      { title: 'List my pages', request: `GET ${base}/profiles` },
      { title: 'Read a page with its blocks', request: `GET ${base}/profiles/{profileKey}?include=slots` },
      {
        title: 'Add a button',
        request: `POST ${base}/profiles/{profileKey}/slots`,
        body: { type: 'button', data: { title: 'My shop', link: 'example.com/shop' } },
      },
      { title: 'Preview as a model reads it', request: `GET ${base}/profiles/{profileKey}/markdown` },
    ],
    notAvailable: NOT_AVAILABLE,
  }
}
