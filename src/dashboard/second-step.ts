import { sessionUser } from '../auth/dashboard-sessions.ts'
import * as useCases from '../core/use-cases.ts'
import { type FieldErrors, invalidField } from '../kernel/errors.ts'
import { h, raw } from '../slots/shared/html.ts'
import { field, fieldErrorsOf } from './form-fields.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'
import { passkeyForm, passkeyScript, sendOptions } from './passkey-forms.ts'

/** The second step of a sign-in: a passkey, a code from the authenticator app, or a recovery code. */
export const secondStepPages: PageRow[] = [
  { method: 'GET', url: '/login/code', signedIn: false, handler: showCodeStep },
  { method: 'POST', url: '/login/code', signedIn: false, handler: checkCode },
  { method: 'POST', url: '/login/code/passkey-options', signedIn: false, handler: passkeyOptions },
  { method: 'POST', url: '/login/code/passkey', signedIn: false, handler: checkPasskey },
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
  const pending = pendingOf(p)
  if (!pending) return backToSignIn(p)
  return codeForm(p, pending.userId, {})
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

interface StepState {
  errors?: FieldErrors
  passkeyProblem?: string
}

/** The ways this account offers: a passkey when it has one, codes when they are on. */
async function codeForm(p: PageInput<any>, userId: number, o: StepState, status = 200) {
  const codes = await useCases.twoFactor.required(p.ctx, userId)
  const passkeys = await useCases.passkeys.has(p.ctx, userId)
  const passkey = passkeys
    ? h`<section class="card" aria-labelledby="step-passkey-h">
<h2 id="step-passkey-h">With a passkey</h2>
${passkeyForm({ kind: 'get', action: '/login/code/passkey', options: '/login/code/passkey-options', csrf: p.csrf(), submit: 'Sign in with your passkey', problem: o.passkeyProblem })}
</section>
`
    : ''
  const code = codes
    ? h`${o.errors ? h`<p class="notice bad" role="alert">That code did not work. Check the time on your phone, wait for the next code and try again.</p>\n` : ''}<form method="post" action="/login/code" class="card" novalidate>
${csrfField(p.csrf())}
${codeField(o.errors)}
<button type="submit">Sign in</button>
</form>
`
    : ''
  return p.render(
    {
      title: codes ? 'Two-factor code' : 'Your passkey',
      narrow: true,
      own: passkeys ? passkeyScript : undefined,
      body: h`<h1>${codes ? 'Enter your code' : 'Use your passkey'}</h1>
<p>One more step: your account also asks for ${codes && passkeys ? 'a passkey or a code from your authenticator app' : codes ? 'a code from your authenticator app' : 'one of its passkeys'}.</p>
${passkey}${code}<p><a href="/login">Start again with another account</a></p>`,
    },
    status,
  )
}

/**
 * The second step's answer, of either kind: the pending sign-in and its user, counted like a
 * password guess (429 past the limits, nothing locked); `check` throws what the form shows.
 */
async function secondStep(p: PageInput<any>, check: (userId: number) => Promise<unknown>, shown: (err: unknown) => StepState) {
  const pending = pendingOf(p)
  if (!pending) return backToSignIn(p)
  const user = await sessionUser(p.ctx.db, pending.userId)
  if (!user) return backToSignIn(p)
  await countSignIn(p.ctx, p.req.ip, user.email)
  try {
    await check(user.id)
  } catch (err) {
    return codeForm(p, user.id, shown(err), 401)
  }
  await startSignedInSession(p.req, user.id)
  return p.reply.code(303).header('location', pending.next).header('cache-control', 'no-store').send()
}

function checkCode(p: PageInput<any>) {
  return secondStep(
    p,
    (userId) => useCases.twoFactor.checkSignIn(p.ctx, userId, text(p.form, 'code')),
    (err) => ({ errors: fieldErrorsOf(err) }),
  )
}

async function passkeyOptions(p: PageInput<any>) {
  const pending = pendingOf(p)
  if (!pending) return sendOptions(p, async () => Promise.reject(invalidField('credential', 'This sign-in has expired. Start again.')))
  return sendOptions(p, () => useCases.passkeys.signInOptions(p.ctx, { sessionId: p.req.session.sessionId, userId: pending.userId }))
}

function checkPasskey(p: PageInput<any>) {
  return secondStep(
    p,
    (userId) => useCases.passkeys.signIn(p.ctx, { sessionId: p.req.session.sessionId, credential: text(p.form, 'credential'), userId }),
    (err) => ({ passkeyProblem: fieldErrorsOf(err).credential?.join(' ') }),
  )
}
