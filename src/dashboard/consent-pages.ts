import { requireUser, signedInUser } from './current-user.ts'
import { retryAfterSeconds, takeAddressLimit } from '../http/rate-limit-hooks.ts'
import { type OAuthClient, oauthClients } from '../authorization/clients.ts'
import type { Form, PageInput, PageRow } from './page-routes.ts'
import { csrfField } from './layout.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import type { SecondFactors, User } from '../core/use-cases.ts'
import { type AuthorizationRequest, approve, checkAuthorization, deny, grantOf, rememberedGrant } from '../authorization/grants.ts'
import { redirectApproved } from '../authorization/consent.ts'
import { cspSourceOf } from '../authorization/csp-sources.ts'
import { SCOPE_TEXT } from '../authorization/scopes.ts'
import * as useCases from '../core/use-cases.ts'
import { fieldErrorsOf } from './form-fields.ts'
import { CONFIRM_PASSKEY_OPTIONS } from './owner-proof-forms.ts'
import { passkeyScript } from './passkey-forms.ts'
import { answerOf, factorWords, secondStepChoices, type StepState, stepStateOf } from './second-step.ts'
import { countSignIn } from './sign-in-limits.ts'

/** The authorization request's own parameters, carried through the consent form unchanged. */
const REQUEST_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource']

/**
 * /oauth/authorize: the user, signed in to the dashboard, approves an application once.
 * Rows of the dashboard's table, so the session, CSRF and error pages are its own.
 */
export const consentPages: PageRow[] = [
  { method: 'GET', url: '/oauth/authorize', signedIn: false, handler: (p) => authorize(p, p.query) },
  { method: 'POST', url: '/oauth/authorize', signedIn: false, handler: (p) => authorize(p, requestOf(p.form), decisionOf(p.form)) },
]

function requestOf(form: Form): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const k of REQUEST_FIELDS) {
    const v = form[k]
    out[k] = Array.isArray(v) ? v[0] : v
  }
  return out
}

const decisionOf = (form: Form) => (form.decision === 'approve' ? 'approve' : 'deny')

function failurePage(p: PageInput<User | undefined>, message: string) {
  return p.render(
    {
      title: 'Authorization failed',
      narrow: true,
      body: h`<h1>This application's request cannot be handled</h1>
<p class="notice bad" role="alert">${message}</p>
<p>Nothing was shared. Go back to the application and start connecting again; if it keeps failing, its developer needs to fix the request.</p>`,
    },
    400,
  )
}

/**
 * RFC 9700 §4.11.2: anyone can register a client with any redirect URI, so a bad request is sent
 * back to the application automatically only when the signed-in user has already approved that
 * client; otherwise /oauth/authorize would bounce anyone, unasked, to any address (an open
 * redirector). Everyone else sees the error on our page.
 */
async function redirectTrusted(p: PageInput<User | undefined>, client: OAuthClient, redirectUri: string): Promise<boolean> {
  const user = p.user ?? (await signedInUser(p.ctx, p.req))
  const grant = user && (await grantOf(p.ctx, user.id, client.clientId))
  return grant ? redirectApproved(grant, client, redirectUri) : false
}

async function authorize(p: PageInput<User | undefined>, query: Record<string, string | string[] | undefined>, decision?: 'approve' | 'deny') {
  if (await tooManyNewClients(p, query.client_id)) return p.reply
  const checked = await checkAuthorization(p.ctx, query)
  if (checked.kind === 'page') return failurePage(p, checked.message)
  if (checked.kind === 'redirect') {
    if (!(await redirectTrusted(p, checked.client, checked.redirectUri))) return failurePage(p, checked.message)
    return p.reply.code(303).header('location', checked.to).header('cache-control', 'no-store').send()
  }
  const user = p.user ?? (await requireUser(p.ctx, p.req, p.reply))
  if (!user) return p.reply
  const request = checked.request
  // An account with a second factor (codes, or a passkey) approves a new application with a
  // fresh second step, as at sign-in: a session alone (a stolen cookie) cannot hand out lasting
  // access to the account.
  const factors = await useCases.secondFactor.of(p.ctx, user.id)
  if (decision === 'approve' && (factors.codes || factors.passkeys)) {
    const refused = await stepProblem(p, user, factors)
    if (refused) return consentPage(p, user, request, query, { factors, state: refused }, 401)
  }
  const to =
    decision === 'deny'
      ? deny(p.ctx, request)
      : decision === 'approve' || (await rememberedGrant(p.ctx, user.id, request))
        ? await approve(p.ctx, user.id, request)
        : undefined
  if (to) return p.reply.code(303).header('location', to).header('cache-control', 'no-store').send()
  return consentPage(p, user, request, query, { factors, state: {} })
}

/**
 * The second step sent with an approval (a code, or a passkey's answer), checked and used up,
 * counted as a sign-in attempt; what its form shows when it is refused.
 */
async function stepProblem(p: PageInput<User | undefined>, user: User, factors: SecondFactors): Promise<StepState | undefined> {
  await countSignIn(p.ctx, p.req.ip, user.email)
  try {
    await useCases.secondFactor.check(p.ctx, user.id, answerOf(p, factors))
    return undefined
  } catch (err) {
    return stepStateOf(fieldErrorsOf(err))
  }
}

/**
 * A client_id URL never seen before is fetched and stored, as a registration would be: it counts
 * against the same per-address limit as POST /oauth/register.
 */
async function tooManyNewClients(p: PageInput<User | undefined>, clientId: unknown): Promise<boolean> {
  if (typeof clientId !== 'string' || !oauthClients.isMetadataUrl(clientId)) return false
  if (await oauthClients.isKnown(p.ctx, clientId)) return false
  const verdict = await takeAddressLimit(p.ctx, p.req, 'oauthRegistration')
  if (!verdict || verdict.allowed) return false
  p.reply.header('retry-after', String(retryAfterSeconds(verdict)))
  p.render(
    {
      title: 'Too many applications',
      narrow: true,
      body: h`<h1>Too many new applications from this address</h1>
<p class="notice bad" role="alert">Try again in ${retryAfterSeconds(verdict)} seconds.</p>`,
    },
    429,
  )
  return true
}

function consentPage(
  p: PageInput<User | undefined>,
  user: User,
  request: AuthorizationRequest,
  query: Record<string, unknown>,
  second: { factors: SecondFactors; state: StepState },
  status = 200,
) {
  const host = new URL(request.redirectUri).host || request.redirectUri
  const hidden = REQUEST_FIELDS.filter((k) => typeof query[k] === 'string').map((k) => h`<input type="hidden" name="${k}" value="${query[k] as string}">`)
  return p.render(
    {
      title: `Connect ${request.client.name}`,
      narrow: true,
      // Approve and Deny both end in a redirect to the application.
      formActions: [cspSourceOf(request.redirectUri)].filter((s) => s !== undefined),
      own: second.factors.passkeys ? passkeyScript : undefined,
      body: h`<h1>Allow <q>${request.client.name}</q> to use your Slotline account?</h1>
<p>Signed in as <strong>${user.email}</strong>. The application will return to <strong>${host}</strong>${request.client.metadataUrl ? h` (described at <code>${request.client.metadataUrl}</code>)` : ''}.</p>
<p>It asks to:</p>
<ul>${request.scopes.map((s) => h`<li>${SCOPE_TEXT[s]} <span class="muted">(<code>${s}</code>)</span></li>`)}</ul>
<p class="hint">It never sees your password. You can disconnect it at any time in <a href="/settings/apps">Connected apps</a>; its very next request then fails.</p>
${decisionForms(p, hidden, second)}`,
    },
    status,
  )
}

/**
 * Approve and Deny. With a second factor, approving is the account's second step (its own forms,
 * as at sign-in), and Deny stands alone; without one, both buttons share one form.
 */
function decisionForms(p: PageInput<User | undefined>, hidden: SafeHtml[], second: { factors: SecondFactors; state: StepState }) {
  const deny = h`<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>`
  const { factors, state } = second
  if (!factors.codes && !factors.passkeys) {
    return h`<form method="post" action="/oauth/authorize">
${csrfField(p.csrf())}
${hidden}
<p class="actions"><button type="submit" name="decision" value="approve">Approve</button> ${deny}</p>
</form>`
  }
  const choices = secondStepChoices(p, factors, {
    passkey: { action: '/oauth/authorize', options: CONFIRM_PASSKEY_OPTIONS, submit: 'Approve with your passkey' },
    code: { action: '/oauth/authorize', submit: 'Approve' },
    fields: [...hidden, h`<input type="hidden" name="decision" value="approve">`],
    state,
  })
  return h`<p>To approve, your account asks for ${factorWords(factors)}, as when you sign in.</p>
${choices}<form method="post" action="/oauth/authorize">
${csrfField(p.csrf())}
${hidden}
<p class="actions">${deny}</p>
</form>`
}
