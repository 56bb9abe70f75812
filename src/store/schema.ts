import type { ColumnType, Generated } from 'kysely'

/**
 * The database as Kysely sees it. snake_case stays here and in SQL; repositories map rows to
 * camelCase domain types. Timestamps are ISO 8601 strings on both engines, so they sort and
 * compare the same way everywhere.
 */
export interface UsersTable {
  id: Generated<number>
  email: string
  name: string
  password_hash: string
  timezone: string
  language_code: string
  created_at: string
}

export interface TokensTable {
  id: Generated<number>
  user_id: number
  name: string
  token_hash: string
  abilities: string
  last_used_at: string | null
  created_at: string
  /** personal (slp_), access (slo_) or refresh (slr_). */
  kind: ColumnType<TokenKind, TokenKind | undefined, TokenKind>
  /** OAuth tokens: the grant they were issued under. */
  grant_id: number | null
  expires_at: string | null
  /** OAuth: the one audience (RFC 8707) an access token was issued for. */
  resource: string | null
  /** OAuth: the digest of the code a token descends from; a replay revokes the whole family. */
  family: string | null
  /** OAuth refresh tokens: when it was exchanged for the next one (a grace window follows). */
  rotated_at: string | null
  /** OAuth refresh tokens: the pair it was exchanged for, sealed, until a retry in the grace takes it once. */
  successor: Generated<string | null>
}

export type TokenKind = 'personal' | 'access' | 'refresh'

export interface OAuthClientsTable {
  client_id: string
  name: string
  /** JSON array of the registered redirect URIs. */
  redirect_uris: string
  /** Set for clients identified by a Client ID Metadata Document (client_id is that URL). */
  metadata_url: string | null
  metadata_expires_at: string | null
  created_at: string
  last_used_at: string | null
}

export interface OAuthGrantsTable {
  id: Generated<number>
  user_id: number
  client_id: string
  /** Space-separated scopes the user approved. */
  scopes: string
  created_at: string
  last_used_at: string | null
  /** JSON: what was approved, per redirect URI and resource (authorization/consent.ts); null before it was kept. */
  consented: Generated<string | null>
  /** Digest of the client's redirect URIs when it was approved. */
  client_redirects: Generated<string | null>
}

export interface OAuthCodesTable {
  code_hash: string
  grant_id: number
  redirect_uri: string
  code_challenge: string
  scopes: string
  resource: string
  expires_at: string
  used_at: string | null
}

export interface ProfilesTable {
  id: Generated<number>
  user_id: number
  login: string
  login_lower: string
  title: string | null
  description: string | null
  avatar: string | null
  bg_image: string | null
  socials: string
  theme_id: number
  language_id: number | null
  is_main: number
  status: number
  /** What search results and link previews show instead of the title and description. */
  seo_title: string | null
  seo_description: string | null
  /** 'person' or 'organization': who the page's structured data says it is about. */
  seo_subject: Generated<string>
  /** Bumped by every slot write of the page (store/slots.ts). */
  slots_revision: Generated<number>
  created_at: string
  updated_at: string
}

export interface SlotsTable {
  id: Generated<number>
  profile_id: number
  type: string
  position: number
  data: string
  /** 1 takes the block off the public page; starts_at/ends_at bound when it shows (ISO 8601 as written). */
  hidden: Generated<number>
  starts_at: string | null
  ends_at: string | null
  created_at: string
  updated_at: string
}

export interface FilesTable {
  id: Generated<number>
  user_id: number
  path: string
  mime: string
  size: number
  width: number | null
  height: number | null
  /** The upload this row is a resized WebP copy of; null for an upload itself. */
  variant_of: string | null
  created_at: string
}

export interface IdempotencyKeysTable {
  user_id: number
  key: string
  fingerprint: string
  state: string
  status: number | null
  body: string | null
  created_at: string
  expires_at: string
}

export interface LanguagesTable {
  id: number
  code: string
  name: string
  is_active: number
}

export interface MusicLookupsTable {
  key: string
  result: string
  created_at: string
  expires_at: string
}

/** Daily rollups in the owner's time zone; `visitors` is a serialised HyperLogLog sketch. */
export interface AnalyticsDailyTable {
  profile_id: number
  day: string
  views: number
  clicks: number
  visitors: Buffer
  /** The estimate of `visitors`, kept so daily timelines need no sketch. */
  uniques: Generated<number>
}

export interface AnalyticsSlotDailyTable {
  profile_id: number
  slot_id: number
  day: string
  clicks: number
  visitors: Buffer
}

export interface AnalyticsSocialDailyTable {
  profile_id: number
  social_index: number
  day: string
  clicks: number
}

/** Views and clicks per value of one dimension (source, country, device, browser) of a day. */
export interface AnalyticsBreakdownDailyTable {
  profile_id: number
  day: string
  dimension: string
  value: string
  views: number
  clicks: number
}

/** The same counters summed per month (YYYY-MM), so a long period reads few rows. */
export interface AnalyticsBreakdownMonthlyTable {
  profile_id: number
  month: string
  dimension: string
  value: string
  views: number
  clicks: number
}

/** The breakdown counters of all of an account's pages, per day. */
export interface AnalyticsAccountBreakdownDailyTable {
  user_id: number
  day: string
  dimension: string
  value: string
  views: number
  clicks: number
}

/** The same per month (YYYY-MM). */
export interface AnalyticsAccountBreakdownMonthlyTable {
  user_id: number
  month: string
  dimension: string
  value: string
  views: number
  clicks: number
}

/** The union of a month's daily sketches (month is YYYY-MM), so long periods read few sketches. */
export interface AnalyticsMonthlyTable {
  profile_id: number
  month: string
  visitors: Buffer
}

export interface AnalyticsSlotMonthlyTable {
  profile_id: number
  slot_id: number
  month: string
  visitors: Buffer
}

/** The dashboard's events; event slots render from them (read-only through the API). */
export interface EventsTable {
  id: Generated<number>
  user_id: number
  title: string
  description: string
  starts_at: string
  ends_at: string | null
  timezone: string
  location: string
  link: string
  created_at: string
  updated_at: string
}

/** The dashboard's forms; `fields` is JSON: [{name, label, type, required}]. */
export interface FormSubmissionsTable {
  id: Generated<number>
  form_id: number
  profile_id: number
  slot_id: number
  data: string
  created_at: string
}

export interface FormsTable {
  id: Generated<number>
  user_id: number
  title: string
  description: string
  fields: string
  submit_label: string
  created_at: string
  updated_at: string
}

/** Signed upload URLs: single use across instances (used_at set once, atomically). */
export interface UploadGrantsTable {
  id: string
  user_id: number
  expires_at: string
  used_at: string | null
  created_at: string
}

/** Dashboard sign-in sessions (SQL store; Redis holds them instead when configured). */
export interface SessionsTable {
  id_hash: string
  user_id: number | null
  data: string
  expires_at: string
}

export interface JobRunsTable {
  name: string
  period: number
  claimed_at: string
}

/** A password reset link: only the hash of its token is kept; used once, 30 minutes at most. */
export interface PasswordResetsTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  expires_at: string
  used_at: string | null
  created_at: string
}

export interface WebhookEndpointsTable {
  id: Generated<number>
  user_id: number
  url: string
  description: Generated<string>
  /** JSON array of event type names. */
  event_types: string
  /** JSON array of profile ids, or null for every page of the account. */
  profile_ids: string | null
  enabled: Generated<number>
  /** Why the service turned it off ('gone', 'failing'); null when on or turned off by its owner. */
  disabled_reason: string | null
  /** The signing secret, sealed with the service secret (it must be read back to sign). */
  secret: string
  /** The secret before the last rotation, sealed; it signs too until previous_secret_until. */
  previous_secret: string | null
  previous_secret_until: string | null
  /** Since when every attempt has failed; null after a success. */
  failing_since: string | null
  created_at: string
  updated_at: string
}

export interface WebhookDeliveriesTable {
  id: Generated<number>
  endpoint_id: number
  /** The webhook-id header: the same on every attempt, so receivers can drop repeats. */
  message_id: string
  event_type: string
  /** The JSON body sent, byte for byte the same on every attempt. */
  payload: string
  /** pending, sending, succeeded or failed. */
  status: string
  attempts: Generated<number>
  next_attempt_at: string
  /** While sending: when an instance's claim lapses (it died), so another may take it. */
  claimed_until: string | null
  last_status: number | null
  /** The first bytes of the last answer. */
  last_response: string | null
  last_error: string | null
  last_attempt_at: string | null
  created_at: string
}

/** A change of e-mail waiting for the link mailed to the new address: only the token's hash is kept. */
export interface EmailChangesTable {
  id: Generated<number>
  user_id: number
  new_email: string
  token_hash: string
  expires_at: string
  used_at: string | null
  created_at: string
}

export interface TotpAuthenticatorsTable {
  user_id: number
  secret_sealed: string
  /** bigint: PostgreSQL hands it back as a string. */
  last_step: ColumnType<number | string | null, number | null | undefined, number | null>
  confirmed_at: string | null
  created_at: string
}

export interface RecoveryCodesTable {
  id: Generated<number>
  user_id: number
  code_hash: string
  used_at: string | null
  created_at: string
}

/** A passkey (store/passkeys.ts): its id and public key in base64url, transports as JSON text. */
export interface PasskeysTable {
  id: Generated<number>
  user_id: number
  credential_id: string
  public_key: string
  /** bigint: PostgreSQL hands it back as a string. */
  counter: ColumnType<number | string, number, number>
  transports: string
  name: string
  created_at: string
  last_used_at: string | null
}

/** A WebAuthn challenge waiting for its answer, bound to a digest of the session that asked. */
export interface PasskeyChallengesTable {
  challenge: string
  session_hash: string
  /** register, sign-in or second-step. */
  purpose: string
  user_id: number | null
  expires_at: string
}

/** A page's own domain (store/custom-domains.ts); `state` is pending, active, failing or removed. */
export interface CustomDomainsTable {
  id: Generated<number>
  profile_id: number
  /** Lower-case ASCII (punycode), without a trailing dot. */
  name: string
  /** What the TXT record at _slotline.<name> must hold: public by nature, so kept as it is. */
  token: string
  state: string
  /** Why the last check failed, in words an owner can act on. */
  problem: string | null
  checked_at: string | null
  verified_at: string | null
  failing_since: string | null
  created_at: string
  updated_at: string
}

/** A provider account linked to an account here, found by (issuer, subject) alone. */
export interface SsoIdentitiesTable {
  id: Generated<number>
  user_id: number
  issuer: string
  subject: string
  email: string | null
  created_at: string
  last_used_at: string | null
}

export interface Database {
  users: UsersTable
  tokens: TokensTable
  oauth_clients: OAuthClientsTable
  oauth_grants: OAuthGrantsTable
  oauth_codes: OAuthCodesTable
  profiles: ProfilesTable
  slots: SlotsTable
  files: FilesTable
  idempotency_keys: IdempotencyKeysTable
  upload_grants: UploadGrantsTable
  analytics_daily: AnalyticsDailyTable
  analytics_slot_daily: AnalyticsSlotDailyTable
  analytics_social_daily: AnalyticsSocialDailyTable
  analytics_monthly: AnalyticsMonthlyTable
  analytics_slot_monthly: AnalyticsSlotMonthlyTable
  analytics_breakdown_daily: AnalyticsBreakdownDailyTable
  analytics_breakdown_monthly: AnalyticsBreakdownMonthlyTable
  analytics_account_breakdown_daily: AnalyticsAccountBreakdownDailyTable
  analytics_account_breakdown_monthly: AnalyticsAccountBreakdownMonthlyTable
  languages: LanguagesTable
  music_lookups: MusicLookupsTable
  events: EventsTable
  forms: FormsTable
  form_submissions: FormSubmissionsTable
  sessions: SessionsTable
  job_runs: JobRunsTable
  password_resets: PasswordResetsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  email_changes: EmailChangesTable
  totp_authenticators: TotpAuthenticatorsTable
  recovery_codes: RecoveryCodesTable
  passkeys: PasskeysTable
  passkey_challenges: PasskeyChallengesTable
  custom_domains: CustomDomainsTable
  sso_identities: SsoIdentitiesTable
}
