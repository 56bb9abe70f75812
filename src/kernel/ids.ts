/**
 * A row id as a face receives it in a path (`/settings/tokens/12/revoke`): a positive whole
 * number without leading zeros, or undefined. Written once, so every face refuses the same
 * things (a huge or signed or padded id is simply not found).
 */
export const parseId = (text: string | undefined): number | undefined => (text !== undefined && /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined)
