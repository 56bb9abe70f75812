import { randomUUID } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import type { AppContext } from '../../src/context.ts'
import { account, twoFactor, type User } from '../../src/core/use-cases.ts'
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

/**
 * Turns two-factor codes on for a signed-in visitor, who confirms it is the owner first with
 * `proof` (the password by default; null when it has confirmed already, at its provider);
 * answers the seed and the recovery codes.
 */
export async function enrol(
  v: Visitor,
  proof: Record<string, string> | null = { ownerPassword: 'correct horse battery' },
): Promise<{ secret: string; recoveryCodes: string[]; page: PageResponse }> {
  if (proof) {
    const confirmed = await v.submit('/settings/two-factor', proof, '/settings/two-factor/owner')
    if (confirmed.status !== 303) throw new Error(`confirming the owner answered ${confirmed.status}`)
  }
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

/**
 * Turns codes on through the core, as the dashboard does: the owner confirms with the password
 * for a session, which then begins and confirms. Answers the seed and the recovery codes.
 */
export async function turnOnCodes(ctx: AppContext, user: User, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const principal = ownerPrincipal(user)
  const sessionId = `codes-${randomUUID()}`
  await account.confirmToAddSignIn(ctx, principal, { sessionId, proof: { currentPassword: password } })
  const { secret } = await twoFactor.beginEnrolment(ctx, principal, { sessionId })
  const { recoveryCodes } = await twoFactor.confirmEnrolment(ctx, principal, { code: codeFor(secret), sessionId })
  return { secret, recoveryCodes }
}
