import * as useCases from '../core/use-cases.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { safeNext, withNext } from './current-user.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { passkeyForm, sendOptions } from './passkey-forms.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'

declare module 'fastify' {
  interface Session {
    /** When this visitor asked for a passkey challenge: keeps the visitor's session, which the challenge is bound to. */
    passkeyAskedAt?: number
  }
}

/** Signing in with a passkey alone: the device holds the account, no e-mail or password typed. */
export const passkeySignInPages: PageRow[] = [
  { method: 'POST', url: '/login/passkey/options', signedIn: false, handler: signInOptions },
  { method: 'POST', url: '/login/passkey', signedIn: false, handler: signInWithPasskey },
]

/** The sign-in page's passkey button, in a form of its own below the password form. */
export const passkeySignInSection = (p: PageInput<any>, next: string): SafeHtml =>
  h`<section class="card" aria-labelledby="passkey-h">
<h2 id="passkey-h">Or use a passkey</h2>
${passkeyForm({
  kind: 'get',
  action: '/login/passkey',
  options: '/login/passkey/options',
  csrf: p.csrf(),
  submit: 'Sign in with a passkey',
  fields: [h`<input type="hidden" name="next" value="${next}">`],
})}
</section>`

async function signInOptions(p: PageInput<any>) {
  // A visitor's session is not kept until something is stored in it; the challenge needs it kept.
  p.req.session.passkeyAskedAt = Date.now()
  return sendOptions(p, () => useCases.passkeys.signInOptions(p.ctx, { sessionId: p.req.session.sessionId }))
}

async function signInWithPasskey(p: PageInput<any>) {
  const next = safeNext(text(p.form, 'next'))
  // An answer is a guess like a password: the same per-address limits count it.
  await countSignIn(p.ctx, p.req.ip, 'passkey')
  let userId: number
  try {
    ;({ userId } = await useCases.passkeys.signIn(p.ctx, { sessionId: p.req.session.sessionId, credential: text(p.form, 'credential') }))
  } catch (err) {
    const problem = (err as { errors?: Record<string, string[]> }).errors?.credential?.[0]
    if (!problem) throw err
    return p.redirect(withNext('/login', next), problem, true)
  }
  await startSignedInSession(p.req, userId)
  return p.reply.code(303).header('location', next).header('cache-control', 'no-store').send()
}
