/** Whether `zone` is an IANA time zone this runtime knows (Europe/Berlin, UTC). */
export function isTimeZone(zone: string | undefined): zone is string {
  if (!zone) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
