import type { FieldErrors } from '../kernel/errors.ts'
import { passwordReset, RESET_MINUTES } from '../core/use-cases.ts'
import { h } from '../slots/shared/html.ts'
import { errorSummary, field, fieldErrorsOf } from './form-fields.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { countSignIn } from './sign-in-limits.ts'

// The first page a stranger sees (`/` signed out), and where a forgotten password leads.

export const welcomePages: PageRow[] = [
  { method: 'GET', url: '/login/forgot', signedIn: false, handler: forgotPassword },
  { method: 'POST', url: '/login/forgot', signedIn: false, handler: sendResetLink },
  { method: 'GET', url: '/login/reset', signedIn: false, handler: showReset },
  { method: 'POST', url: '/login/reset', signedIn: false, handler: reset },
]

/** With password sign-in off a new password opens nothing: the reset pages say so instead. */
function noPasswords(p: PageInput<any>) {
  return p.render(
    {
      title: 'Passwords are not used here',
      narrow: true,
      body: h`<h1>Passwords are not used here</h1><p>This service signs you in through your organisation's sign-in service, so there is no password to reset. <a href="/login">Sign in</a> with it instead.</p>`,
    },
    403,
  )
}

/** `/` for a visitor: what this is, how to get in, and where programs connect. */
export function welcomePage(p: PageInput<any>) {
  const open = p.ctx.config.registration === 'open'
  const base = p.ctx.config.publicUrl
  return p.render({
    title: 'Welcome',
    narrow: true,
    body: h`<h1>Slotline</h1>
<p>One page for all your links: buttons, music, videos, events and forms under one short address you can share or print as a QR code. You see how many people visit and what they click, without cookies.</p>
<p class="actions"><a class="button" href="/login">Sign in</a>${open ? h`<a class="button secondary" href="/register">Create an account</a>` : ''}</p>
${open ? '' : h`<p class="muted">New accounts are created by the operator of this service.</p>`}
<section class="card" aria-labelledby="programs-h">
<h2 id="programs-h">For programs and AI assistants</h2>
<p>Scripts use the <a href="/v1/docs">API reference</a> (base address <code>${base}/v1</code>) with a token from your account.</p>
<p>AI assistants connect through MCP at <code>${base}/mcp</code>; they ask you to approve them first.</p>
</section>`,
  })
}

/** With SMTP_URL a link is mailed; without, the service cannot prove an address is yours: the operator resets it. */
async function forgotPassword(p: PageInput<any>) {
  if (!p.ctx.config.passwordSignIn) return noPasswords(p)
  if (passwordReset.canMail(p.ctx)) {
    return p.render({
      title: 'Forgot your password?',
      narrow: true,
      body: h`<h1>Forgot your password?</h1>
<p>Enter the e-mail of your account. We send a link to choose a new password; it works once, for ${RESET_MINUTES} minutes.</p>
<form method="post" action="/login/forgot" class="card" novalidate>
${csrfField(p.csrf())}
${field({ name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username', required: true })}
<button type="submit">Send the link</button>
</form>
<p><a href="/login">Back to sign in</a></p>`,
    })
  }
  return p.render({
    title: 'Forgot your password?',
    narrow: true,
    body: h`<h1>Forgot your password?</h1>
<p>This service does not send e-mail, so it cannot send you a link to choose a new password.</p>
<p>Ask the operator of this service to set a new one for you. They run:</p>
<code class="secret">npm run --silent cli -- users set-password --email you@example.com</code>
<p>Then <a href="/login">sign in</a> with the new password and change it under Account.</p>`,
  })
}

/** The same answer whether or not the address has an account. */
async function sendResetLink(p: PageInput<any>) {
  if (!p.ctx.config.passwordSignIn) return noPasswords(p)
  const email = text(p.form, 'email').trim()
  if (!passwordReset.canMail(p.ctx)) return forgotPassword(p)
  if (email) {
    // Counted like sign-in attempts: nobody may mail-bomb an address through this form.
    await countSignIn(p.ctx, p.req.ip, email)
    await passwordReset.request(p.ctx, email, (token) => `${p.ctx.config.publicUrl}/login/reset?token=${token}`)
  }
  return p.render({
    title: 'Check your mail',
    narrow: true,
    body: h`<h1>Check your mail</h1>
<p>If ${email || 'that address'} belongs to an account here, a link to choose a new password is on its way. It works once, for ${RESET_MINUTES} minutes. Nothing arrived? Look in the spam folder, or <a href="/login/forgot">ask again</a>.</p>`,
  })
}

function resetForm(p: PageInput<any>, token: string, errors?: FieldErrors, status = 200) {
  return p.render(
    {
      title: 'Choose a new password',
      narrow: true,
      body: h`<h1>Choose a new password</h1>
${errorSummary(errors)}<form method="post" action="/login/reset" class="card" novalidate>
${csrfField(p.csrf())}<input type="hidden" name="token" value="${token}">
${field({ name: 'newPassword', label: 'New password', type: 'password', errors, autocomplete: 'new-password', required: true, hint: 'At least 8 characters. Every browser signed in to your account is signed out.' })}
<button type="submit">Set the new password</button>
</form>`,
    },
    status,
  )
}

function expired(p: PageInput<any>) {
  return p.render(
    {
      title: 'This link no longer works',
      narrow: true,
      body: h`<h1>This link no longer works</h1><p>It expired or was used already. <a href="/login/forgot">Ask for a new one</a>.</p>`,
    },
    410,
  )
}

async function showReset(p: PageInput<any>) {
  if (!p.ctx.config.passwordSignIn) return noPasswords(p)
  const token = p.query.token ?? ''
  if (!(await passwordReset.isTokenValid(p.ctx, token))) return expired(p)
  return resetForm(p, token)
}

async function reset(p: PageInput<any>) {
  if (!p.ctx.config.passwordSignIn) return noPasswords(p)
  const token = text(p.form, 'token')
  let userId: number
  try {
    userId = await passwordReset.reset(p.ctx, token, text(p.form, 'newPassword'))
  } catch (err) {
    const errors = fieldErrorsOf(err)
    if (errors.token) return expired(p)
    return resetForm(p, token, errors, 422)
  }
  // Whoever holds a session of the account (who may know the old password) is signed out.
  await p.ctx.sessions.endAllFor(userId)
  return p.redirect('/login', 'Your password is changed and every browser was signed out. Sign in with the new password.')
}
