import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import type { SessionView, User } from '../core/use-cases.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { plural, when } from './format.ts'
import { csrfField } from './layout.ts'
import type { PageInput, PageRow } from './page-routes.ts'

export const sessionListPages: PageRow[] = [
  { method: 'GET', url: '/settings/sessions', signedIn: true, handler: sessionsPage },
  { method: 'POST', url: '/settings/sessions/end-others', signedIn: true, handler: endOthers },
  { method: 'POST', url: '/settings/sessions/:handle/end', signedIn: true, handler: endOne },
]

const DEVICES = { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet' } as const
const regions = new Intl.DisplayNames('en', { type: 'region' })

function placeOf(country: string | undefined): string {
  if (!country || !/^[A-Z]{2}$/.test(country)) return 'Unknown'
  try {
    return regions.of(country) ?? country
  } catch {
    return country
  }
}

const deviceOf = (s: SessionView) =>
  `${s.browser && s.browser !== 'other' ? s.browser : 'A browser'} on ${s.device ? DEVICES[s.device].toLowerCase() : 'an unknown device'}`
const at = (user: User, ms: number | undefined) => when(user, ms === undefined ? null : new Date(ms).toISOString(), 'Unknown')

function sessionRow(user: User, s: SessionView, csrf: string): SafeHtml {
  const name = deviceOf(s)
  return h`<tr><td><strong>${name}</strong>${s.current ? h`<br><span class="muted">This browser</span>` : ''}</td><td data-label="Place (approximate)">${placeOf(s.country)}</td><td data-label="Signed in">${at(user, s.signedInAt)}</td><td data-label="Last seen">${s.current ? 'Now' : at(user, s.lastSeenAt)}</td>
<td>${
    s.current
      ? ''
      : h`<form method="post" action="/settings/sessions/${s.handle}/end">${csrfField(csrf)}<button type="submit" class="secondary" aria-label="Sign out ${name}, last seen ${at(user, s.lastSeenAt)}">Sign out</button></form>`
  }</td></tr>
`
}

async function sessionsPage(p: PageInput<User>) {
  const sessions = await useCases.sessions.list(p.ctx, ownerPrincipal(p.user), { currentSessionId: p.req.session.sessionId })
  const others = sessions.filter((s) => !s.current).length
  return p.render({
    title: 'Where you are signed in',
    active: 'settings',
    body: h`<p><a href="/settings">← Account</a></p>
<h1>Where you are signed in</h1>
<p>Every browser signed in to your account. Don't recognise one? Sign it out, then change your password. Places are approximate, worked out from the internet address when the browser signed in.</p>
<section class="card" aria-labelledby="sessions-h">
<h2 id="sessions-h">${plural(sessions.length, 'browser')}</h2>
<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Device</th><th scope="col">Place (approximate)</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${sessions.map((s) => sessionRow(p.user, s, p.csrf()))}</tbody>
</table></div>
${
  others
    ? h`<form method="post" action="/settings/sessions/end-others">${csrfField(p.csrf())}<button type="submit" class="danger">Sign out everywhere else</button></form>`
    : h`<p class="muted">No other browser is signed in.</p>`
}
</section>`,
  })
}

async function endOne(p: PageInput<User>) {
  await useCases.sessions.end(p.ctx, ownerPrincipal(p.user), { handle: p.params.handle })
  return p.redirect('/settings/sessions', 'That browser is signed out. Its next page asks for a sign-in.')
}

async function endOthers(p: PageInput<User>) {
  const n = await useCases.sessions.endOthers(p.ctx, ownerPrincipal(p.user), { keepSessionId: p.req.session.sessionId })
  return p.redirect('/settings/sessions', `${plural(n, 'other browser was', 'other browsers were')} signed out.`)
}
