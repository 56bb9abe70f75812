import { ownerPrincipal } from '../auth/principal.ts'
import type { FormSubmission, SubmissionsFormView, SubmissionsPage } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import { FORM_SLOT_TYPE } from '../slots/shared/form-submission.ts'
import { h } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { csv } from './csv.ts'
import { when, zonedStamp } from './format.ts'
import { csrfField } from './layout.ts'
import type { PageInput, PageRow } from './page-routes.ts'

// Leads: per page, what visitors sent through its form blocks. Reads and deletes go through
// the core's form-submission use cases, the same the API and the MCP tool call.

export const leadsPages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId/leads', signedIn: true, handler: formsOfPage },
  { method: 'GET', url: '/my-links/:profileId/leads/:slotId', signedIn: true, handler: inbox },
  { method: 'GET', url: '/my-links/:profileId/leads/:slotId/submissions.csv', signedIn: true, handler: exportCsv },
  { method: 'POST', url: '/my-links/:profileId/leads/:slotId/:submissionId/delete', signedIn: true, handler: remove },
]

const PER_PAGE = 25
/** Enough for any inbox a person keeps; a bigger export is the API's job (cursor-paged). */
const CSV_MAX_ROWS = 50_000

const idOf = (s: string | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : 0)

async function page(p: PageInput<User>) {
  return useCases.profiles.get(p.ctx, ownerPrincipal(p.user), idOf(p.params.profileId))
}

/** The form blocks of the page, each leading to its inbox. */
async function formsOfPage(p: PageInput<User>) {
  const principal = ownerPrincipal(p.user)
  const profile = await page(p)
  const forms = (await useCases.slots.list(p.ctx, principal, profile.id)).filter((s) => s.type === FORM_SLOT_TYPE)
  const rows = await Promise.all(
    forms.map(async (s) => ({ slot: s, first: await useCases.formSubmissions.list(p.ctx, principal, profile.id, s.id, { limit: 1 }) })),
  )
  const name = profile.title || profile.login
  const base = `/my-links/${profile.id}`
  return p.render({
    title: `Form submissions · ${name}`,
    active: 'my-links',
    body: h`<p><a href="${base}">← ${name}</a></p>
<h1>Form submissions</h1>
<p>What visitors sent through the form blocks of ${name}. Only you can read them.</p>
${
  rows.length
    ? h`<ul class="pages">
${rows.map(
  ({ slot, first }) =>
    h`<li><a href="${base}/leads/${slot.id}">${first.form?.title || `Form block ${slot.id}`}</a> <span class="muted">(${
      first.submissions.length ? `latest ${when(p.user, first.submissions[0].createdAt)}` : 'nothing yet'
    })</span></li>\n`,
)}</ul>`
    : h`<p class="muted">This page has no form block. Add one in the page editor; what visitors send through it appears here.</p>`
}`,
  })
}

/** One form block's submissions, newest first, a page at a time. */
async function inbox(p: PageInput<User>) {
  const profile = await page(p)
  const slotId = idOf(p.params.slotId)
  const cursor = p.query.cursor || undefined
  const list = await useCases.formSubmissions.list(p.ctx, ownerPrincipal(p.user), profile.id, slotId, { cursor, limit: PER_PAGE })
  const columns = columnsOf(list, list.submissions)
  const base = `/my-links/${profile.id}/leads/${slotId}`
  const title = list.form?.title || `Form block ${slotId}`
  return p.render({
    title: `${title} · submissions`,
    active: 'my-links',
    body: h`<p><a href="/my-links/${profile.id}/leads">← Form submissions of ${profile.title || profile.login}</a></p>
<h1>${title}</h1>
<p class="actions"><a class="button secondary" href="${base}/submissions.csv" download>Download all as CSV</a></p>
<section class="card" aria-labelledby="subs-h">
<h2 id="subs-h">${cursor ? 'Older submissions' : 'Newest submissions'}</h2>
${
  list.submissions.length
    ? h`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Received</th>${columns.map((c) => h`<th scope="col">${c.label}</th>`)}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${list.submissions.map(
  (s) => h`<tr><td>${when(p.user, s.createdAt)}</td>${columns.map((c) => h`<td data-label="${c.label}">${s.data[c.name] ?? ''}</td>`)}
<td><form method="post" action="${base}/${s.id}/delete">${csrfField(p.csrf())}<button type="submit" class="secondary" aria-label="Delete the submission of ${when(p.user, s.createdAt)}">Delete</button></form></td></tr>
`,
)}</tbody>
</table></div>`
    : h`<p class="muted">${cursor ? 'No older submissions.' : 'Nothing has been sent through this form yet.'}</p>`
}
<nav aria-label="Submission pages"><p class="actions">${cursor ? h`<a href="${base}">Newest</a>` : ''}${
      list.nextCursor ? h`<a href="${base}?cursor=${list.nextCursor}">Older submissions</a>` : ''
    }</p></nav>
</section>`,
  })
}

/**
 * The form's current fields, then any other names found in the submissions (a field removed
 * since): what was sent is never hidden because the form changed.
 */
function columnsOf(list: { form: SubmissionsFormView }, submissions: FormSubmission[]): Array<{ name: string; label: string }> {
  const columns = (list.form?.fields ?? []).map((f) => ({ name: f.name, label: f.label || f.name }))
  const known = new Set(columns.map((c) => c.name))
  for (const s of submissions) {
    for (const name of Object.keys(s.data)) {
      if (!known.has(name)) {
        known.add(name)
        columns.push({ name, label: name })
      }
    }
  }
  return columns
}

async function exportCsv(p: PageInput<User>) {
  const principal = ownerPrincipal(p.user)
  const profile = await page(p)
  const slotId = idOf(p.params.slotId)
  const all: FormSubmission[] = []
  let first: SubmissionsPage | undefined
  let cursor: string | undefined
  do {
    const next = await useCases.formSubmissions.list(p.ctx, principal, profile.id, slotId, { cursor, limit: 100 })
    first ??= next
    all.push(...next.submissions)
    cursor = next.nextCursor ?? undefined
  } while (cursor && all.length < CSV_MAX_ROWS)
  const columns = columnsOf(first!, all)
  const body = csv([
    [`Received (${p.user.timezone || 'UTC'})`, ...columns.map((c) => c.label)],
    ...all.map((s) => [zonedStamp(s.createdAt, p.user.timezone || 'UTC'), ...columns.map((c) => s.data[c.name] ?? '')]),
  ])
  return p.reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="${profile.login}-form-${slotId}.csv"`)
    .type('text/csv; charset=utf-8')
    .send(body)
}

async function remove(p: PageInput<User>) {
  const profile = await page(p)
  const slotId = idOf(p.params.slotId)
  await useCases.formSubmissions.remove(p.ctx, ownerPrincipal(p.user), profile.id, slotId, idOf(p.params.submissionId))
  return p.redirect(`/my-links/${profile.id}/leads/${slotId}`, 'The submission is deleted.')
}
