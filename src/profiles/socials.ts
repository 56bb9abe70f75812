import { MAX_SOCIAL_ORDER } from '../kernel/limits.ts'
import { normaliseLink } from '../slots/shared/links.ts'
import type { Social } from '../store/profiles.ts'

export interface SocialInput {
  link: string
  order?: number
}

/**
 * Socials as stored: links normalised like button links, `order` defaulting to the index, sorted
 * by order and then as sent (like music links). Stored orders are always distinct, because the
 * public page's click redirect and analytics name a social by its order; the spec does not ask
 * senders for distinct orders, though, so a tie is settled here instead of refused: each social
 * keeps its order unless an earlier one in the row already holds it or a higher one, and then
 * takes the next number up. A row with distinct orders is stored exactly as sent.
 * Problems come back keyed `socials.<index>.<field>` (index as sent), all at once.
 */
export function normaliseSocials(items: SocialInput[]): { socials: Social[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {}
  const socials: Social[] = []
  items.forEach((item, i) => {
    const link = normaliseLink(item.link)
    if (!link.ok) errors[`socials.${i}.link`] = [link.message]
    else socials.push({ link: link.url, order: item.order ?? i })
  })
  // Array.prototype.sort is stable, so ties stay in the order they were sent.
  socials.sort((a, b) => a.order - b.order)
  for (let i = 1; i < socials.length; i++) {
    if (socials[i].order <= socials[i - 1].order) socials[i].order = socials[i - 1].order + 1
  }
  // Ties at the top of the range would be pushed past it: number the row by position then, which
  // keeps the order sent and stays distinct and in range.
  if (socials.at(-1) && socials.at(-1)!.order > MAX_SOCIAL_ORDER) {
    for (const [i, social] of socials.entries()) social.order = i
  }
  return { socials, errors }
}
