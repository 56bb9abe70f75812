/**
 * Same-origin addresses of the click redirect. They live under `/-/`, a first segment no login
 * can take (ARCHITECTURE, one process, four faces), carry ids only and never a URL, so the
 * redirect can lead nowhere but to a destination stored on the page.
 */
export const slotClickPath = (profileId: number, slotId: number, index: number) => `/-/go/${profileId}/${slotId}/${index}`

/** Socials are told apart by their `order` (src/profiles/socials.ts), so that is what the path carries. */
export const socialClickPath = (profileId: number, order: number) => `/-/go/${profileId}/s${order}`

/** Where a form slot posts its answers (src/pages/form-answer-routes.ts serves it). */
export const formActionPath = (slotId: number) => `/-/forms/${slotId}`
