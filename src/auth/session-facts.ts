import { countryOf } from '../analytics/country.ts'
import { agentFacts, type DeviceClass } from '../analytics/visit-origin.ts'

/**
 * What a signed-in session shows its owner in the list of sessions: the kind of device and
 * browser family (read from the user agent), the country of the address it signed in from
 * (the offline database the statistics use; the address itself is not kept), and when it
 * signed in and was last seen (epoch milliseconds).
 */
export interface SessionFacts {
  device: DeviceClass
  browser: string
  country: string
  signedInAt: number
  lastSeenAt: number
}

export function sessionFactsOf(userAgent: string | undefined, ip: string, now = Date.now()): SessionFacts {
  const agent = agentFacts(userAgent)
  return { device: agent.device, browser: agent.browser, country: countryOf(ip), signedInAt: now, lastSeenAt: now }
}

/** "Last seen" moves at most this often, so reading pages does not rewrite the session each time. */
export const LAST_SEEN_STEP_MS = 5 * 60_000
