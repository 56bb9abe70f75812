import type { User } from '../core/use-cases.ts'

/** A stored ISO timestamp as the user reads it, in their own time zone. */
export function when(user: User, iso: string | null, never = 'Never'): string {
  if (!iso) return never
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: user.timezone }).format(new Date(iso))
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * A stored instant as a spreadsheet reads it, in the owner's time zone with its offset
 * (2026-12-12 14:00:00 +01:00): the same wall time the screen shows, and still one instant.
 */
export function zonedStamp(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  )
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '')
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`
}

/**
 * A stored link as the person typed it: an e-mail address or a phone number without its
 * mailto: or tel:, a web address without https://.
 */
export function linkAsTyped(link: string): string {
  const m = /^(mailto|tel|sms):(.*)$/i.exec(link)
  if (m) {
    const rest = m[2].split('?')[0]
    try {
      return decodeURIComponent(rest)
    } catch {
      return rest
    }
  }
  return link.replace(/^https?:\/\//i, '').replace(/\/$/, '')
}
