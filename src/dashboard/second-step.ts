import { sessionUser } from '../auth/dashboard-sessions.ts'
import * as useCases from '../core/use-cases.ts'
import type { SecondFactorAnswer, SecondFactors } from '../core/use-cases.ts'
import { type FieldErrors, invalidField } from '../kernel/errors.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
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

/** What a refused answer leaves on the step's forms: the code's errors, or the passkey's problem. */
export interface StepState {
  errors?: FieldErrors
  passkeyProblem?: string
}

/** The state to show after a refusal of either kind (a passkey's is on `credential`, a code's on `code`). */
export const stepStateOf = (errors: FieldErrors): StepState => ({
  passkeyProblem: errors.credential?.join(' '),
  errors: errors.code ? { code: errors.code } : undefined,
})

/**
 * The answer a second step's form sent: a passkey's when it came from the passkey form (which
 * always has the field, empty without script) or the account takes no codes, else the code.
 */
export function answerOf(p: PageInput<any>, factors: SecondFactors): SecondFactorAnswer {
  if (p.form.credential !== undefined || !factors.codes) return { passkey: { sessionId: p.req.session.sessionId, credential: text(p.form, 'credential') } }
  return { code: text(p.form, 'code') }
}

export interface StepChoices {
  /** Where the passkey's answer goes, where its challenge comes from, and its button. */
  passkey: { action: string; options: string; submit: string }
  /** Where the code goes, its field's name and its button. */
  code: { action: string; submit: string; name?: string }
  /** Hidden fields both forms carry: what the step confirms. */
  fields?: SafeHtml[]
  state: StepState
  /** A destructive step: red buttons. */
  danger?: boolean
}

/**
 * The ways a second step offers, each its own form: a passkey when the account has one, a code
 * when codes are on. Signing in, approving an application and confirming a change all show these.
 */
export function secondStepChoices(p: PageInput<any>, factors: SecondFactors, o: StepChoices): SafeHtml {
  const passkey = factors.passkeys
    ? h`<section class="card" aria-labelledby="step-passkey-h">
<h2 id="step-passkey-h">With a passkey</h2>
${passkeyForm({ kind: 'get', ...o.passkey, csrf: p.csrf(), problem: o.state.passkeyProblem, fields: o.fields, danger: o.danger })}
</section>
`
    : ''
  const errors = o.state.errors
  const code = factors.codes
    ? h`${errors ? h`<p class="notice bad" role="alert">That code did not work. Check the time on your phone, wait for the next code and try again.</p>\n` : ''}<form method="post" action="${o.code.action}" class="card" novalidate>
${csrfField(p.csrf())}
${(o.fields ?? []).map((f) => h`${f}\n`)}${codeField(errors, o.code.name)}
<button type="submit"${o.danger ? raw(' class="danger"') : ''}>${o.code.submit}</button>
</form>
`
    : ''
  return h`${passkey}${code}`
}

/** How an account's second step is named in a sentence. */
export const factorWords = (f: SecondFactors) =>
  f.codes && f.passkeys ? 'a passkey or a code from your authenticator app' : f.codes ? 'a code from your authenticator app' : 'your passkey'

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

/** The ways this account offers: a passkey when it has one, codes when they are on. */
async function codeForm(p: PageInput<any>, userId: number, o: StepState, status = 200) {
  const factors = await useCases.secondFactor.of(p.ctx, userId)
  const choices = secondStepChoices(p, factors, {
    passkey: { action: '/login/code/passkey', options: '/login/code/passkey-options', submit: 'Sign in with your passkey' },
    code: { action: '/login/code', submit: 'Sign in' },
    state: o,
  })
  return p.render(
    {
      title: factors.codes ? 'Two-factor code' : 'Your passkey',
      narrow: true,
      own: factors.passkeys ? passkeyScript : undefined,
      body: h`<h1>${factors.codes ? 'Enter your code' : 'Use your passkey'}</h1>
<p>One more step: your account also asks for ${factorWords(factors)}.</p>
${choices}<p><a href="/login">Start again with another account</a></p>`,
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
    (userId) => useCases.secondFactor.check(p.ctx, userId, { code: text(p.form, 'code') }),
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
    (userId) => useCases.secondFactor.check(p.ctx, userId, { passkey: { sessionId: p.req.session.sessionId, credential: text(p.form, 'credential') } }),
    (err) => ({ passkeyProblem: fieldErrorsOf(err).credential?.join(' ') }),
  )
}
