import { h } from '../slots/shared/html.ts'
import * as useCases from '../core/use-cases.ts'
import { fieldErrorsOf } from './form-fields.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { startSignedInSession } from './signed-in-session.ts'

// Where the link mailed to a new e-mail leads. Opening it shows a button and only the button's
// POST changes anything: mail scanners that fetch every link must not confirm on their own.
// Any browser may confirm, signed in or not: the link alone proves the new address is the owner's.

export const emailConfirmationPages: PageRow[] = [
  { method: 'GET', url: '/settings/email/confirm', signedIn: false, handler: showConfirmation },
  { method: 'POST', url: '/settings/email/confirm', signedIn: false, handler: confirm },
]

function gone(p: PageInput<any>) {
  return p.render(
    {
      title: 'This link no longer works',
      narrow: true,
      body: h`<h1>This link no longer works</h1><p>It expired, was used already, or a newer link was sent. Your e-mail has not changed. To change it, <a href="/settings">ask again under Account</a>.</p>`,
    },
    410,
  )
}

async function showConfirmation(p: PageInput<any>) {
  const token = p.query.token ?? ''
  const email = await useCases.account.emailChangeOf(p.ctx, token)
  if (!email) return gone(p)
  return p.render({
    title: 'Confirm your new e-mail',
    narrow: true,
    body: h`<h1>Confirm your new e-mail</h1>
<p>Your Slotline account will use <strong>${email}</strong> from now on: to sign in, and for every mail about the account. Every other browser signed in to the account is signed out.</p>
<form method="post" action="/settings/email/confirm" class="card">
${csrfField(p.csrf())}<input type="hidden" name="token" value="${token}">
<button type="submit">Use ${email}</button>
</form>`,
  })
}

async function confirm(p: PageInput<any>) {
  const session = p.req.session
  let done: Awaited<ReturnType<typeof useCases.account.confirmEmailChange>>
  try {
    done = await useCases.account.confirmEmailChange(p.ctx, { token: text(p.form, 'token'), keep: { sessionId: session.sessionId, userId: session.userId } })
  } catch (err) {
    const errors = fieldErrorsOf(err)
    if (errors.token) return gone(p)
    return p.render(
      {
        title: 'This e-mail cannot be used',
        narrow: true,
        body: h`<h1>This e-mail cannot be used</h1><p>${errors.email?.join(' ') ?? ''} Your e-mail has not changed. <a href="/settings">Choose another under Account</a>.</p>`,
      },
      422,
    )
  }
  const signedOut = 'Every other browser signed in to your account was signed out; API tokens and connected apps keep working.'
  if (session.userId === done.user.id) {
    // This browser stays signed in, under a fresh session id, as after a new password
    // (regenerate() puts a new session on the request).
    await startSignedInSession(p.req, done.user.id, true)
    return p.redirect('/settings', `Your e-mail is now ${done.user.email}. ${signedOut}`)
  }
  return p.render({
    title: 'Your e-mail is changed',
    narrow: true,
    body: h`<h1>Your e-mail is changed</h1>
<p>Your account now uses <strong>${done.user.email}</strong>. Every browser signed in to it was signed out; API tokens and connected apps keep working.</p>
<p><a class="button" href="/login">Sign in</a></p>`,
  })
}
