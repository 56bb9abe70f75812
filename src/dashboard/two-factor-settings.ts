import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import type { User } from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h, raw } from '../slots/shared/html.ts'
import { fieldErrorsOf, formCard } from './form-fields.ts'
import { addSignInRows, confirmedToAdd, confirmToAddCard, providerFormActions } from './owner-proof-forms.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { passkeyScript } from './passkey-forms.ts'
import { codeField } from './second-step.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'

export const twoFactorPages: PageRow[] = [
  { method: 'GET', url: '/settings/two-factor', signedIn: true, handler: async (p) => twoFactorPage(p, {}) },
  { method: 'POST', url: '/settings/two-factor/start', signedIn: true, handler: start },
  { method: 'POST', url: '/settings/two-factor/confirm', signedIn: true, handler: confirm },
  { method: 'POST', url: '/settings/two-factor/disable', signedIn: true, handler: disable },
  { method: 'POST', url: '/settings/two-factor/recovery-codes', signedIn: true, handler: renewCodes },
  // The owner confirms first (owner-proof-forms.ts): codes could confirm anything after.
  ...addSignInRows({ base: '/settings/two-factor', show: (p, errors) => twoFactorPage(p, { ownerErrors: errors }, 422) }),
]

interface State {
  ownerErrors?: FieldErrors
  confirmErrors?: FieldErrors
  disableErrors?: FieldErrors
  renewErrors?: FieldErrors
}

const TITLE = 'Two-factor codes'

const OFF = h`<p>Two-factor codes are <strong>off</strong>. With them on, signing in takes your password and a six-digit code from an authenticator app on your phone (such as Aegis, Google Authenticator, Microsoft Authenticator or 1Password). Someone who learns your password still cannot sign in.</p>`

async function qrSvg(uri: string): Promise<string> {
  // Loaded on first use, as the page QR codes load it (rendering/qr-code.ts).
  const { default: QRCode } = await import('qrcode')
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 220 })
}

async function twoFactorPage(p: PageInput<User>, s: State, status = 200) {
  const principal = ownerPrincipal(p.user)
  const state = await useCases.twoFactor.status(p.ctx, principal)
  const way = await useCases.account.confirmation(p.ctx, principal)
  const body = state.enabled
    ? enabledCards(p, state, s)
    : (await confirmedToAdd(p))
      ? await setUpCards(p, s)
      : h`${OFF}\n${confirmToAddCard(p, way, { base: '/settings/two-factor', what: 'two-factor codes', errors: s.ownerErrors ?? {}, problem: s.confirmErrors?.code?.join(' ') })}`
  return p.render(
    {
      title: TITLE,
      active: 'settings',
      own: !state.enabled && way.by === 'second-factor' && way.factors.passkeys ? passkeyScript : undefined,
      // Without a password, confirming may lead to the single sign-on provider.
      formActions: state.enabled ? [] : await providerFormActions(p.ctx, way),
      body: h`<p><a href="/settings">← Account</a></p>\n<h1>${TITLE}</h1>\n${body}`,
    },
    status,
  )
}

/** After the owner's confirmation: the button that makes a seed, then its QR code and the first code. */
async function setUpCards(p: PageInput<User>, s: State) {
  const pending = await useCases.twoFactor.pendingEnrolment(p.ctx, ownerPrincipal(p.user))
  if (!pending) {
    return formCard({
      id: 'two-factor-start',
      title: 'Protect your account with a second step',
      intro: OFF,
      action: '/settings/two-factor/start',
      csrf: p.csrf(),
      fields: [],
      submit: 'Set up two-factor codes',
    })
  }
  const grouped = pending.secret.replace(/(.{4})/g, '$1 ').trim()
  return h`<section class="card" aria-labelledby="scan-h">
<h2 id="scan-h">1. Scan this code with your authenticator app</h2>
<div class="qr" role="img" aria-label="QR code to add your account to an authenticator app">${raw(await qrSvg(pending.uri))}</div>
<p>Cannot scan? In the app, choose to enter a key by hand and type: <code class="secret">${grouped}</code></p>
</section>
${formCard({
  id: 'two-factor-confirm',
  title: '2. Type the code the app shows',
  intro: h`<p>This proves the app is set up. Two-factor codes turn on only then, and other browsers signed in to your account are signed out.</p>`,
  action: '/settings/two-factor/confirm',
  csrf: p.csrf(),
  errors: s.confirmErrors,
  fields: [codeField(s.confirmErrors)],
  submit: 'Turn on two-factor codes',
})}`
}

function enabledCards(p: PageInput<User>, state: useCases.TwoFactorStatus, s: State) {
  return h`<p class="notice" role="status">Two-factor codes are <strong>on</strong>. Signing in asks for a code after your password. You have ${state.recoveryCodesLeft} unused recovery ${state.recoveryCodesLeft === 1 ? 'code' : 'codes'}.</p>
<div class="grid two">
${formCard({
  id: 'two-factor-renew',
  title: 'New recovery codes',
  intro: h`<p>Used most of them, or lost the list? Make ten new ones; the old ones stop working.</p>`,
  action: '/settings/two-factor/recovery-codes',
  csrf: p.csrf(),
  errors: s.renewErrors,
  fields: [codeField(s.renewErrors)],
  submit: 'Make new recovery codes',
})}
${formCard({
  id: 'two-factor-off',
  title: 'Turn off two-factor codes',
  intro: h`<p>Your account will then be protected by your password alone. Other browsers signed in to your account are signed out.</p>`,
  action: '/settings/two-factor/disable',
  csrf: p.csrf(),
  errors: s.disableErrors,
  // Its own name: two code fields on one page need two ids.
  fields: [codeField(s.disableErrors, 'offCode')],
  submit: 'Turn off two-factor codes',
  danger: true,
})}
</div>`
}

async function start(p: PageInput<User>) {
  try {
    await useCases.twoFactor.beginEnrolment(p.ctx, ownerPrincipal(p.user), { sessionId: p.req.session.sessionId })
  } catch (err) {
    return twoFactorPage(p, { confirmErrors: fieldErrorsOf(err) }, 422)
  }
  return p.redirect('/settings/two-factor')
}

/** The recovery codes, shown this once: the page is not stored by the browser (no-store) nor kept by us. */
function recoveryCodesPage(p: PageInput<User>, codes: string[], lead: string) {
  return p.render({
    title: 'Your recovery codes',
    active: 'settings',
    body: h`<h1>Your recovery codes</h1>
<p class="notice" role="status">${lead}</p>
<section class="card" aria-labelledby="codes-h">
<h2 id="codes-h">Keep these somewhere safe</h2>
<p>Each code signs you in once when you do not have your phone. Print them or keep them in a password manager. <strong>They are shown only now</strong>: we keep only a scrambled form we cannot read back.</p>
<ol class="recovery-codes">
${codes.map((c) => h`<li><code>${c}</code></li>\n`)}</ol>
<p><a class="button" href="/settings/two-factor">I have saved them</a></p>
</section>`,
  })
}

async function confirm(p: PageInput<User>) {
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  let codes: string[]
  try {
    ;({ recoveryCodes: codes } = await useCases.twoFactor.confirmEnrolment(p.ctx, ownerPrincipal(p.user), {
      code: text(p.form, 'code'),
      sessionId: p.req.session.sessionId,
      keepSessionId: p.req.session.sessionId,
    }))
  } catch (err) {
    return twoFactorPage(p, { confirmErrors: fieldErrorsOf(err) }, 422)
  }
  await startSignedInSession(p.req, p.user.id, true)
  return recoveryCodesPage(p, codes, 'Two-factor codes are on. Other browsers signed in to your account were signed out.')
}

async function disable(p: PageInput<User>) {
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    await useCases.twoFactor.disable(p.ctx, ownerPrincipal(p.user), { code: text(p.form, 'offCode'), keepSessionId: p.req.session.sessionId })
  } catch (err) {
    return twoFactorPage(p, { disableErrors: fieldErrorsOf(err, { code: 'offCode' }) }, 422)
  }
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect('/settings/two-factor', 'Two-factor codes are off. Other browsers signed in to your account were signed out.')
}

async function renewCodes(p: PageInput<User>) {
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  let codes: string[]
  try {
    ;({ recoveryCodes: codes } = await useCases.twoFactor.renewRecoveryCodes(p.ctx, ownerPrincipal(p.user), { code: text(p.form, 'code') }))
  } catch (err) {
    return twoFactorPage(p, { renewErrors: fieldErrorsOf(err) }, 422)
  }
  return recoveryCodesPage(p, codes, 'Here are your ten new recovery codes. The old ones no longer work.')
}
