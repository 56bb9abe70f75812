import { ownerPrincipal } from '../auth/principal.ts'
import type { User } from '../core/use-cases.ts'
import { notFound } from '../kernel/errors.ts'
import type { ConnectedApp } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { when } from './format.ts'
import type { PageInput, PageRow } from './page-routes.ts'
import { csrfField } from './layout.ts'
import { parseId } from '../kernel/ids.ts'

/** /settings/apps: the spec's "dashboard API settings" where an application is disconnected. */
export const appPages: PageRow[] = [
  { method: 'GET', url: '/settings/apps', signedIn: true, handler: appsPage },
  { method: 'POST', url: '/settings/apps/:grantId/disconnect', signedIn: true, handler: disconnect },
]

async function appsPage(p: PageInput<User>) {
  const apps = await useCases.grants.list(p.ctx, ownerPrincipal(p.user))
  return p.render({
    title: 'Connected apps',
    active: 'apps',
    body: h`<h1>Connected apps</h1>
<p>Applications you allowed to use your Slotline account through OAuth, such as an AI assistant connected to <code>${p.ctx.config.publicUrl}/mcp</code>. Each sees only your own pages, with the access you granted.</p>
<section class="card" aria-labelledby="apps-h">
<h2 id="apps-h">Applications (${apps.length})</h2>
${appsTable(p.user, apps, p.csrf())}
</section>`,
  })
}

/** The table, or what will appear in it once an application is connected. */
export function appsTable(user: User, apps: ConnectedApp[], csrf: string): SafeHtml {
  if (!apps.length) {
    return h`<p class="muted">No application is connected. When you approve one in your browser, it appears here with its name, the address it returns you to, its client id or metadata address, the access it has, when you connected it and when it last used your account, and a Disconnect button: its very next request after that fails.</p>`
  }
  return h`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Application</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${apps.map(
  (
    a,
  ) => h`<tr><td><strong>${a.name}</strong><br><span class="muted">Returns you to ${returnsTo(a)}</span><br><span class="muted">${a.metadataUrl ?? a.clientId}</span></td><td data-label="Access">${a.scopes.join(', ')}</td><td data-label="Connected">${when(user, a.authorisedAt)}</td><td data-label="Last used">${when(user, a.lastUsedAt)}</td>
<td><form method="post" action="/settings/apps/${a.grantId}/disconnect">${csrfField(csrf)}<button type="submit" class="secondary" aria-label="Disconnect ${a.name} at ${returnsTo(a)}, connected ${when(user, a.authorisedAt)}">Disconnect</button></form></td></tr>
`,
)}</tbody>
</table></div>`
}

/** Two applications may register one name; where each sends you back after approving tells them apart. */
const returnsTo = (a: ConnectedApp) => a.redirectHosts.join(', ') || 'no address'

async function disconnect(p: PageInput<User>) {
  const id = parseId(p.params.grantId) ?? 0
  if (!id) throw notFound('application')
  await useCases.grants.disconnect(p.ctx, ownerPrincipal(p.user), { grantId: id })
  return p.redirect('/settings/apps', 'The application is disconnected; its next request will be refused.')
}
