import { ownerPrincipal } from '../auth/principal.ts'
import type { CustomDomain, User } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { parseId } from '../kernel/ids.ts'
import { h, raw } from '../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { when } from './format.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { plainErrors } from './plain-words.ts'

// A page on its owner's own domain: connect it, see the records to create at the domain's
// provider, check them, remove it. Plain forms: it all works without JavaScript.

export const domainPages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId/domain', signedIn: true, handler: async (p) => domainPage(p, {}) },
  { method: 'POST', url: '/my-links/:profileId/domain', signedIn: true, handler: connect },
  { method: 'POST', url: '/my-links/:profileId/domain/check', signedIn: true, handler: check },
  { method: 'POST', url: '/my-links/:profileId/domain/remove', signedIn: true, handler: remove },
]

const principal = (p: PageInput<User>) => ownerPrincipal(p.user)
const pageId = (p: PageInput<User>) => parseId(p.params.profileId) ?? 0

const STATE_TEXT: Record<CustomDomain['state'], string> = {
  pending: 'Waiting for its records',
  active: 'Working: your page is shown there',
  failing: 'Not working: its records changed',
  removed: 'Removed',
}

const PURPOSE_TEXT = { ownership: 'Proves the domain is yours', routing: 'Sends visitors here' } as const

function recordsTable(d: CustomDomain) {
  return h`<div class="table-wrap"><table class="stack">
<caption>Records to create where you bought the domain</caption>
<thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th><th scope="col">Why</th></tr></thead>
<tbody>
${d.records.map(
  (r) =>
    h`<tr><td>${r.type}</td><td data-label="Name"><code>${r.name}</code></td><td data-label="Value"><code>${r.value}</code></td><td data-label="Why">${PURPOSE_TEXT[r.purpose]}</td></tr>\n`,
)}</tbody>
</table></div>
<p class="muted">For a subdomain (such as links.example.com) create the CNAME; for the domain itself (example.com) create the A or AAAA records instead. Changes can take an hour to reach everyone.</p>`
}

function domainCard(p: PageInput<User>, d: CustomDomain) {
  const base = `/my-links/${pageId(p)}/domain`
  const button = (path: string, label: string, cls: string) =>
    h`<form method="post" action="${base}${path}">${csrfField(p.csrf())}<button type="submit" class="${cls}">${label}</button></form>`
  return h`<section class="card" aria-labelledby="domain-h">
<h2 id="domain-h">${d.domain}</h2>
<p><strong>${STATE_TEXT[d.state]}</strong>${d.state === 'active' ? h` at <a href="${d.url}">${d.url}</a>` : ''}</p>
${d.problem && d.state !== 'active' ? h`<p role="status">${d.problem}</p>` : ''}
${d.releaseAt ? h`<p>Fix the records before ${when(p.user, d.releaseAt)}, or the domain is let go and your page goes back to its usual address.</p>` : ''}
${d.checkedAt ? h`<p class="muted">Last checked ${when(p.user, d.checkedAt)}.</p>` : ''}
${d.state === 'active' ? '' : recordsTable(d)}
<div class="actions">${button('/check', 'Check the records now', 'secondary')}${button('/remove', 'Remove the domain', 'danger')}</div>
</section>`
}

interface State {
  form?: { domain: string; errors: FieldErrors }
}

async function domainPage(p: PageInput<User>, s: State, status = 200) {
  const profile = await useCases.profiles.get(p.ctx, principal(p), pageId(p))
  const { domain } = await useCases.domains.get(p.ctx, principal(p), profile.id)
  const live = domain && domain.state !== 'removed' ? domain : undefined
  const name = profile.title || profile.login
  return p.render(
    {
      title: `Your own domain for ${name}`,
      active: 'my-links',
      body: h`<p><a href="/my-links/${profile.id}">← ${name}</a></p>
<h1>Your own domain</h1>
<p>Show this page at a domain you own, such as links.example.com, with a secure connection set up for you. Its QR code and link previews use the domain while it works.</p>
${
  live
    ? domainCard(p, live)
    : formCard({
        id: 'connect',
        title: 'Connect a domain',
        action: `/my-links/${profile.id}/domain`,
        csrf: p.csrf(),
        errors: s.form?.errors,
        fields: [
          field({
            name: 'domain',
            label: 'Domain',
            value: s.form?.domain ?? '',
            errors: s.form?.errors,
            hint: 'A domain or subdomain you bought, e.g. links.example.com. You will then add two records where you bought it.',
            required: true,
            attrs: raw('maxlength="300" autocomplete="off" spellcheck="false" inputmode="url"'),
          }),
        ],
        submit: 'Connect the domain',
      })
}`,
    },
    status,
  )
}

async function connect(p: PageInput<User>) {
  const domain = text(p.form, 'domain').trim()
  try {
    await useCases.domains.connect(p.ctx, principal(p), pageId(p), { domain })
  } catch (err) {
    const errors = plainErrors(fieldErrorsOf(err))
    return domainPage(p, { form: { domain, errors } }, 422)
  }
  return p.redirect(`/my-links/${pageId(p)}/domain`, 'Connected. Now create the records below where you bought the domain, then check them.')
}

async function check(p: PageInput<User>) {
  const { domain } = await useCases.domains.check(p.ctx, principal(p), pageId(p))
  const good = domain?.state === 'active'
  return p.redirect(
    `/my-links/${pageId(p)}/domain`,
    good ? `Working: your page is shown at ${domain!.url}.` : 'Not yet: see what is still missing below.',
    !good,
  )
}

async function remove(p: PageInput<User>) {
  await useCases.domains.remove(p.ctx, principal(p), pageId(p))
  return p.redirect(`/my-links/${pageId(p)}/domain`, 'Removed: your page is back at its usual address.')
}
