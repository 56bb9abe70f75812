import { Secret, TOTP } from 'otpauth'
import type { PageResponse, Visitor } from './dashboard.ts'

/** The code an authenticator app would show for this seed, `stepsAhead` periods from now. */
export const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 })

/** The seed shown for typing by hand (grouped by four) on the enrolment page. */
export function secretOn(html: string): string {
  const m = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(html)
  if (!m) throw new Error('no seed on the page')
  return m[1].replace(/ /g, '')
}

export const recoveryCodesOn = (html: string) => [...html.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1])

/** Turns two-factor codes on for a signed-in visitor; answers the seed and the recovery codes. */
export async function enrol(v: Visitor): Promise<{ secret: string; recoveryCodes: string[]; page: PageResponse }> {
  const started = await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')
  if (started.status !== 303) throw new Error(`start answered ${started.status}`)
  const shown = await v.get('/settings/two-factor')
  const secret = secretOn(shown.text)
  const page = await v.submit('/settings/two-factor', { code: codeFor(secret) }, '/settings/two-factor/confirm')
  if (page.status !== 200) throw new Error(`confirm answered ${page.status}`)
  return { secret, recoveryCodes: recoveryCodesOn(page.text), page }
}

/** Password, then the second step with `code`; answers the second step's response. */
export async function signInWithCode(v: Visitor, email: string, code: string, password = 'correct horse battery') {
  const first = await v.submit('/login', { email, password })
  if (first.status !== 303 || first.location !== '/login/code') throw new Error(`password step answered ${first.status} → ${first.location}`)
  return v.submit('/login/code', { code })
}
