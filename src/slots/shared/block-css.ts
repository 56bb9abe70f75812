/**
 * Page rules that several block types wear, each listed in the `css` of the types that use it.
 * Values come from the theme's tokens (src/profiles/design-tokens.ts); these say only where they go.
 */

/** The theme's card around a block: surface, border, corner radius, shadow, the glass themes' blur. */
export const card = (selector: string): string => `${selector} {
  background: var(--surface);
  color: var(--text);
  border: var(--card-border);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
  -webkit-backdrop-filter: var(--card-blur);
  backdrop-filter: var(--card-blur);
  padding: 18px 20px;
}`

/** A block drawn straight on the page background reads the page's text colours, not a card's. */
export const onPage = (selector: string): string => `${selector} {
  --text: var(--on-bg);
  --muted: var(--on-bg-muted);
  color: var(--on-bg);
}`

/** A read-only block whose record is gone (a deleted event or form): a card that says so. */
export const RECORD_GONE_CSS = `${card('.slot-unavailable')}
.slot.slot-unavailable p {
  margin: 0;
  color: var(--muted);
}`
