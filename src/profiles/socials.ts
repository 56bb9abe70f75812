import { normaliseLink } from '../slots/shared/links.ts'
import type { Social } from '../store/profiles.ts'

export interface SocialInput {
  link: string
  order?: number
}

/**
 * Socials as stored: links normalised like button links, `order` defaulting to the index, sorted
 * by order. Orders must differ: analytics and the public page tell socials apart by them.
 * Problems come back keyed `socials.<index>.<field>` (index as sent), all at once.
 */
export function normaliseSocials(items: SocialInput[]): { socials: Social[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {}
  const socials: Social[] = []
  const seen = new Map<number, number>()
  items.forEach((item, i) => {
    const link = normaliseLink(item.link)
    if (!link.ok) errors[`socials.${i}.link`] = [link.message]
    const order = item.order ?? i
    const first = seen.get(order)
    if (first !== undefined) errors[`socials.${i}.order`] = [`Order ${order} is already used by socials.${first}; give each social its own order.`]
    else seen.set(order, i)
    if (link.ok) socials.push({ link: link.url, order })
  })
  socials.sort((a, b) => a.order - b.order)
  return { socials, errors }
}
