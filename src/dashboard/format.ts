import type { User } from '../core/use-cases.ts'

/** A stored ISO timestamp as the user reads it, in their own time zone. */
export function when(user: User, iso: string | null, never = 'Never'): string {
  if (!iso) return never
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: user.timezone }).format(new Date(iso))
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
