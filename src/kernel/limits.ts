/** spec, Limits: every fixed count the service enforces. `/me` reports these. */
export const limits = Object.freeze({
  profilesPerUser: 100,
  slotsPerProfile: 500,
  slotsPerBatch: 50,
  tokensPerUser: 5,
  tokenNameLength: 100,
  analyticsPeriodDays: 366,
  analyticsRetentionDays: 365,
  idempotencyHours: 24,
  idempotencyKeyLength: 128,
  uploadMegabytes: 50,
  uploadFromUrlMegabytes: 10,
  uploadFromUrlTimeoutSeconds: 10,
  uploadUrlMinutes: 15,
  imageMaxWidth: 800,
  login: { minLength: 4, maxLength: 60, pattern: '^[a-zA-Z0-9._]+$' },
  socialsPerProfile: 30,
  // What search results show before cutting a title or a snippet short.
  seoTitleLength: 70,
  seoDescriptionLength: 200,
})

/**
 * The highest social `order`: the click address carries it (`/-/go/<id>/s<order>`, nine digits)
 * and analytics count clicks under it in a 32-bit column.
 */
export const MAX_SOCIAL_ORDER = 999_999_999
