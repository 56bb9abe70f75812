import { sessionUser } from '../auth/dashboard-sessions.ts'
import * as useCases from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h, raw } from '../slots/shared/html.ts'
import { field, fieldErrorsOf } from './form-fields.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'

/** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
export const secondStepPages: PageRow[] = [
  { method: 'GET', url: '/login/code', signedIn: false, handler: showCodeStep },
  { method: 'POST', url: '/login/code', signedIn: false, handler: checkCode },
]

/** The password was right this long ago at most; then it is asked again. */
const PENDING_MS = 10 * 60_000

/** After a right password on an account with codes on: this session waits for the code. */
export function startSecondStep(p: PageInput<any>, userId: number, next: string) {
  p.req.session.pendingSignIn = { userId, next, at: Date.now() }
  return p.reply.code(303).header('location', '/login/code').header('cache-control', 'no-store').send()
}

function pendingOf(p: PageInput<any>) {
  const pending = p.req.session?.pendingSignIn
  return pending && Date.now() - pending.at < PENDING_MS ? pending : undefined
}

const backToSignIn = (p: PageInput<any>) => p.reply.code(303).header('location', '/login').header('cache-control', 'no-store').send()

async function showCodeStep(p: PageInput<any>) {
  if (!pendingOf(p)) return backToSignIn(p)
  return codeForm(p, {})
}

/** The code field takes both kinds: six digits, or a recovery code (letters and digits). */
export const codeField = (errors: FieldErrors | undefined, name = 'code') =>
  field({
    name,
    label: 'Code',
    errors,
    autocomplete: 'one-time-code',
    required: true,
    hint: 'The six digits your authenticator app shows now. Lost your phone? Type one of your recovery codes instead.',
    attrs: raw('inputmode="text" autocapitalize="off" spellcheck="false" maxlength="32"'),
  })

function codeForm(p: PageInput<any>, o: { errors?: FieldErrors }, status = 200) {
  return p.render(
    {
      title: 'Two-factor code',
      narrow: true,
      body: h`<h1>Enter your code</h1>
${o.errors ? h`<p class="notice bad" role="alert">That code did not work. Check the time on your phone, wait for the next code and try again.</p>\n` : ''}<p>One more step: your account also asks for a code from your authenticator app.</p>
<form method="post" action="/login/code" class="card" novalidate>
${csrfField(p.csrf())}
${codeField(o.errors)}
<button type="submit">Sign in</button>
</form>
<p><a href="/login">Start again with another account</a></p>`,
    },
    status,
  )
}

async function checkCode(p: PageInput<any>) {
  const pending = pendingOf(p)
  if (!pending) return backToSignIn(p)
  const user = await sessionUser(p.ctx.db, pending.userId)
  if (!user) return backToSignIn(p)
  // A code is a guess like a password: the same limits count it (429 past them, nothing locked).
  await countSignIn(p.ctx, p.req.ip, user.email)
  try {
    await useCases.twoFactor.checkSignIn(p.ctx, user.id, text(p.form, 'code'))
  } catch (err) {
    return codeForm(p, { errors: fieldErrorsOf(err) }, 401)
  }
  await startSignedInSession(p.req, user.id)
  return p.reply.code(303).header('location', pending.next).header('cache-control', 'no-store').send()
}
