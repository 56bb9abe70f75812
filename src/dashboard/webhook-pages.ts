import { ownerPrincipal } from '../auth/principal.ts'
import type { User, WebhookEndpoint } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { notFound } from '../kernel/errors.ts'
import { plainErrors } from './plain-words.ts'
import { parseId } from '../kernel/ids.ts'
import { h, raw } from '../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { when } from './format.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text, values } from './page-routes.ts'

// Webhooks in the dashboard: where an owner sends news of their pages to their other tools.

export const webhookPages: PageRow[] = [
  { method: 'GET', url: '/settings/webhooks', signedIn: true, handler: async (p) => listPage(p, {}) },
  { method: 'POST', url: '/settings/webhooks', signedIn: true, handler: add },
  { method: 'GET', url: '/settings/webhooks/:endpointId', signedIn: true, handler: async (p) => endpointPage(p, await own(p)) },
  { method: 'POST', url: '/settings/webhooks/:endpointId/test', signedIn: true, handler: sendTest },
  { method: 'POST', url: '/settings/webhooks/:endpointId/secret', signedIn: true, handler: rotate },
  { method: 'POST', url: '/settings/webhooks/:endpointId/switch', signedIn: true, handler: toggle },
  { method: 'GET', url: '/settings/webhooks/:endpointId/remove', signedIn: true, handler: confirmRemove },
  { method: 'POST', url: '/settings/webhooks/:endpointId/remove', signedIn: true, handler: remove },
  { method: 'POST', url: '/settings/webhooks/:endpointId/deliveries/:deliveryId/again', signedIn: true, handler: sendAgain },
]

/** What each event means, in the owner's words. */
const EVENT_TEXT: Record<string, string> = {
  'form.submitted': 'Someone sends one of your forms',
  'page.updated': 'A page or its blocks change',
  'page.published': 'A page is added',
  'page.unpublished': 'A page is removed',
  'block.schedule_started': 'A scheduled block starts showing',
  'block.schedule_ended': 'A scheduled block stops showing',
  'analytics.daily': 'A page’s figures for the day, each morning',
  'webhook.test': 'Test',
}

const STATUS_TEXT: Record<string, string> = { pending: 'Waiting', sending: 'Sending', succeeded: 'Delivered', failed: 'Failed' }

const principal = (p: PageInput<User>) => ownerPrincipal(p.user)

async function own(p: PageInput<User>): Promise<WebhookEndpoint> {
  const id = parseId(p.params.endpointId)
  if (!id) throw notFound('webhook endpoint')
  return useCases.webhooks.get(p.ctx, principal(p), id)
}

function secretCard(secret: string, heading: string) {
  return h`<section class="card" aria-labelledby="secret-h">
<h2 id="secret-h">${heading}</h2>
<p><strong>Copy it now: it is shown only this once.</strong> Paste it where your tool asks for the signing secret, so it can tell deliveries really come from Slotline.</p>
<code class="secret" id="new-secret">${secret}</code>
<p class="actions"><button type="button" class="secondary" data-copy="new-secret" hidden>Copy the secret</button></p>
</section>`
}

const stateOf = (e: WebhookEndpoint) =>
  e.enabled ? 'On' : e.disabledReason === 'gone' ? 'Off: the address said it is gone' : e.disabledReason === 'failing' ? 'Off: it failed for five days' : 'Off'

interface ListState {
  form?: { url: string; description: string; eventTypes: string[]; errors: FieldErrors }
  created?: { endpoint: WebhookEndpoint; secret: string }
}

async function listPage(p: PageInput<User>, s: ListState, status = 200) {
  const endpoints = await useCases.webhooks.list(p.ctx, principal(p))
  const chosen = s.form?.eventTypes ?? ['form.submitted']
  return p.render(
    {
      title: 'Webhooks',
      active: 'webhooks',
      body: h`<h1>Webhooks</h1>
<p>Send news of your pages to your other tools as it happens: new form answers, page changes, daily figures. Tools such as Zapier, Make or n8n give you an address to paste here.</p>
${s.created ? secretCard(s.created.secret, `The signing secret of “${s.created.endpoint.description || s.created.endpoint.url}”`) : ''}
<section class="card" aria-labelledby="list-h">
<h2 id="list-h">Where news is sent</h2>
${
  endpoints.length
    ? h`<ul class="plain">${endpoints.map(
        (e) =>
          h`<li><a href="/settings/webhooks/${e.id}">${e.description || e.url}</a> <span class="muted">${e.description ? h`${e.url} · ` : ''}${stateOf(e)} · ${e.eventTypes.length} kinds of news</span></li>\n`,
      )}</ul>`
    : h`<p class="muted">Nothing is sent anywhere yet.</p>`
}
</section>
${formCard({
  id: 'new',
  title: 'Send news to a new address',
  action: '/settings/webhooks',
  csrf: p.csrf(),
  errors: s.form?.errors,
  fields: [
    field({
      name: 'url',
      label: 'Address',
      value: s.form?.url ?? '',
      errors: s.form?.errors,
      hint: 'The web address your tool gave you, copied whole.',
      attrs: raw('maxlength="2000" inputmode="url"'),
    }),
    field({
      name: 'description',
      label: 'Name (optional)',
      value: s.form?.description ?? '',
      errors: s.form?.errors,
      hint: 'To recognise it by, e.g. “Leads to my mailing list”.',
      attrs: raw('maxlength="200"'),
    }),
    h`<fieldset class="checks"${s.form?.errors.eventTypes ? raw(' aria-describedby="f-eventTypes-error"') : ''}>
<legend>Send news when</legend>
${Object.entries(EVENT_TEXT)
  .filter(([type]) => type !== 'webhook.test')
  .map(
    ([type, label]) => h`<label><input type="checkbox" name="eventTypes" value="${type}"${chosen.includes(type) ? raw(' checked') : ''}> ${label}</label>\n`,
  )}
${s.form?.errors.eventTypes ? h`<p class="error" id="f-eventTypes-error">${s.form.errors.eventTypes.join(' ')}</p>` : ''}
</fieldset>`,
  ],
  submit: 'Add the address',
})}`,
    },
    status,
  )
}

async function add(p: PageInput<User>) {
  const form = { url: text(p.form, 'url').trim(), description: text(p.form, 'description').trim(), eventTypes: values(p.form, 'eventTypes') }
  if (!form.eventTypes.length) return listPage(p, { form: { ...form, errors: { eventTypes: ['Choose at least one kind of news.'] } } }, 422)
  try {
    const created = await useCases.webhooks.create(p.ctx, principal(p), { url: form.url, description: form.description, eventTypes: form.eventTypes as never })
    return listPage(p, { created })
  } catch (err) {
    const errors = plainErrors(fieldErrorsOf(err))
    if (Object.keys(errors).some((k) => k.startsWith('eventTypes'))) errors.eventTypes = ['Choose among the kinds of news listed.']
    return listPage(p, { form: { ...form, errors } }, 422)
  }
}

async function endpointPage(p: PageInput<User>, e: WebhookEndpoint, secret?: string) {
  const { deliveries } = await useCases.webhooks.deliveries(p.ctx, principal(p), e.id, { limit: 25 })
  const action = (path: string, label: string, cls = 'secondary') =>
    h`<form method="post" action="/settings/webhooks/${e.id}/${path}">${csrfField(p.csrf())}<button type="submit" class="${cls}">${label}</button></form>`
  return p.render({
    title: e.description || e.url,
    active: 'webhooks',
    body: h`<p><a href="/settings/webhooks">All webhooks</a></p>
<h1>${e.description || e.url}</h1>
${secret ? secretCard(secret, 'Your new signing secret') : ''}
<section class="card" aria-labelledby="about-h">
<h2 id="about-h">About this address</h2>
<p>${e.url}</p>
<p>${stateOf(e)}. Sends news when: ${e.eventTypes.map((t) => EVENT_TEXT[t] ?? t).join('; ')}.</p>
${e.secretRotatedUntil ? h`<p class="muted">The previous secret still works until ${when(p.user, e.secretRotatedUntil)}.</p>` : ''}
<div class="actions">${action('test', 'Send a test')}${action('secret', 'Make a new secret')}${action('switch', e.enabled ? 'Pause sending' : 'Start sending again')}<a class="button danger" href="/settings/webhooks/${e.id}/remove">Remove…</a></div>
</section>
<section class="card" aria-labelledby="log-h">
<h2 id="log-h">Latest news sent</h2>
${
  deliveries.length
    ? h`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">News</th><th scope="col">Result</th><th scope="col">Tries</th><th scope="col">Last try</th><th scope="col">Answer</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${deliveries.map(
  (
    d,
  ) => h`<tr><td>${EVENT_TEXT[d.eventType] ?? d.eventType}</td><td data-label="Result">${STATUS_TEXT[d.status]}${d.lastStatus ? h` (${d.lastStatus})` : ''}</td><td data-label="Tries">${d.attempts}</td><td data-label="Last try">${when(p.user, d.lastAttemptAt)}</td><td data-label="Answer">${(d.lastError ?? d.lastResponse ?? '').slice(0, 120)}</td>
<td>${d.status === 'succeeded' || d.status === 'failed' ? h`<form method="post" action="/settings/webhooks/${e.id}/deliveries/${d.id}/again">${csrfField(p.csrf())}<button type="submit" class="secondary" aria-label="Send again: ${EVENT_TEXT[d.eventType] ?? d.eventType}, ${when(p.user, d.createdAt)}">Send again</button></form>` : ''}</td></tr>
`,
)}</tbody>
</table></div>`
    : h`<p class="muted">Nothing sent yet. Send a test to see it arrive.</p>`
}
</section>`,
  })
}

async function sendTest(p: PageInput<User>) {
  const e = await own(p)
  await useCases.webhooks.sendTest(p.ctx, principal(p), e.id)
  return p.redirect(`/settings/webhooks/${e.id}`, 'A test is on its way.')
}

async function rotate(p: PageInput<User>) {
  const e = await own(p)
  const { endpoint, secret } = await useCases.webhooks.rotateSecret(p.ctx, principal(p), e.id, {})
  return endpointPage(p, endpoint, secret)
}

async function toggle(p: PageInput<User>) {
  const e = await own(p)
  await useCases.webhooks.update(p.ctx, principal(p), e.id, { enabled: !e.enabled })
  return p.redirect(`/settings/webhooks/${e.id}`, e.enabled ? 'Paused: nothing is sent until you start it again.' : 'Sending again.')
}

async function confirmRemove(p: PageInput<User>) {
  const e = await own(p)
  return p.render({
    title: `Remove ${e.description || e.url}?`,
    active: 'webhooks',
    narrow: true,
    body: h`<h1>Remove “${e.description || e.url}”?</h1>
<p>Nothing more is sent to ${e.url}, and its list of news sent is deleted. This cannot be undone.</p>
<form method="post" action="/settings/webhooks/${e.id}/remove" class="actions">${csrfField(p.csrf())}<button type="submit" class="danger">Remove it</button><a href="/settings/webhooks/${e.id}">Keep it</a></form>`,
  })
}

async function remove(p: PageInput<User>) {
  const e = await own(p)
  await useCases.webhooks.remove(p.ctx, principal(p), e.id)
  return p.redirect('/settings/webhooks', 'Removed: nothing more is sent there.')
}

async function sendAgain(p: PageInput<User>) {
  const e = await own(p)
  const deliveryId = parseId(p.params.deliveryId)
  if (!deliveryId) throw notFound('delivery')
  await useCases.webhooks.redeliver(p.ctx, principal(p), e.id, deliveryId)
  return p.redirect(`/settings/webhooks/${e.id}`, 'It is being sent again.')
}
