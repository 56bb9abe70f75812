import { ownerPrincipal } from '../auth/principal.ts'
import type { User } from '../core/use-cases.ts'
import { AppError, type FieldErrors, notFound } from '../kernel/errors.ts'
import { ABILITIES, type Ability, type TokenRecord, tokenNameProblem } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import { limits } from '../kernel/limits.ts'
import { h, raw } from '../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { when } from './format.ts'
import { type PageInput, type PageRow, text, values } from './page-routes.ts'
import { csrfField } from './layout.ts'
import { parseId } from '../kernel/ids.ts'

export const tokenPages: PageRow[] = [
  { method: 'GET', url: '/settings/tokens', signedIn: true, handler: async (p) => tokensPage(p, {}) },
  { method: 'POST', url: '/settings/tokens', signedIn: true, handler: issue },
  { method: 'GET', url: '/settings/tokens/:tokenId/revoke', signedIn: true, handler: confirmRevoke },
  { method: 'POST', url: '/settings/tokens/:tokenId/revoke', signedIn: true, handler: revoke },
]

const ABILITY_TEXT: Record<Ability, string> = {
  'profile:read': 'Read pages, blocks and statistics',
  'profile:write': 'Change pages and blocks, upload files',
}

interface State {
  /** The token just issued: shown on this answer only, never again. */
  issued?: { token: string; record: TokenRecord }
  form?: { name: string; abilities: string[]; errors: FieldErrors }
}

async function tokensPage(p: PageInput<User>, s: State, status = 200) {
  const tokens = await useCases.tokens.list(p.ctx, ownerPrincipal(p.user))
  const full = tokens.length >= limits.tokensPerUser
  const base = `${p.ctx.config.publicUrl}/v1`
  // Read-only unless write is ticked on purpose: a leaked read token cannot change a page.
  const chosen = s.form?.abilities ?? ['profile:read']
  return p.render(
    {
      title: 'API tokens',
      active: 'tokens',
      body: h`<h1>API tokens</h1>
<p>Personal tokens let your own scripts and tools use the <a href="/v1/docs">Slotline API</a> as you. Send one as <code>Authorization: Bearer &lt;token&gt;</code>. Anyone holding a token can act as you, so keep it secret and revoke it when it is no longer needed.</p>
${
  s.issued
    ? h`<section class="card" aria-labelledby="issued-h">
<h2 id="issued-h">Your new token “${s.issued.record.name}”</h2>
<p><strong>Copy it now: it is shown only this once.</strong> Slotline keeps only a fingerprint of it.</p>
<code class="secret" id="new-token">${s.issued.token}</code>
<p class="actions"><button type="button" class="secondary" data-copy="new-token" hidden>Copy the token</button></p>
<p>Try it:</p>
<code class="secret" id="curl-example">curl -H "Authorization: Bearer ${s.issued.token}" ${base}/me</code>
<p class="actions"><button type="button" class="secondary" data-copy="curl-example" hidden>Copy the command</button></p>
</section>`
    : ''
}
<section class="card" aria-labelledby="list-h">
<h2 id="list-h">Your tokens (${tokens.length} of ${limits.tokensPerUser})</h2>
${
  tokens.length
    ? h`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Name</th><th scope="col">Abilities</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${tokens.map(
  (
    t,
  ) => h`<tr><td>${t.name}</td><td data-label="Abilities">${t.abilities.join(', ')}</td><td data-label="Created">${when(p.user, t.createdAt)}</td><td data-label="Last used">${when(p.user, t.lastUsedAt)}</td>
<td><a class="button secondary" href="/settings/tokens/${t.id}/revoke" aria-label="Revoke ${t.name}…">Revoke…</a></td></tr>
`,
)}</tbody>
</table></div>
<p class="hint">A revoked token stops working on its very next request.</p>`
    : h`<p class="muted">You have no tokens yet.</p>`
}
</section>
${formCard({
  id: 'new',
  title: 'Issue a token',
  intro: full ? h`<p class="notice bad" role="status">You hold ${limits.tokensPerUser} tokens, the most allowed. Revoke one above to issue another.</p>` : '',
  action: '/settings/tokens',
  csrf: p.csrf(),
  errors: s.form?.errors,
  fields: [
    field({
      name: 'name',
      label: 'Name',
      value: s.form?.name ?? '',
      errors: s.form?.errors,
      hint: 'Where it will be used, e.g. “backup script”.',
      attrs: raw(`maxlength="${limits.tokenNameLength}"`),
    }),
    h`<fieldset class="checks"${s.form?.errors.abilities ? raw(' aria-describedby="f-abilities-error"') : ''}>
<legend>Abilities</legend>
<p class="hint">Read-only unless you tick <code>profile:write</code>: give write only to a token that must change your pages.</p>
${ABILITIES.map((a) => h`<label><input type="checkbox" name="abilities" value="${a}"${chosen.includes(a) ? raw(' checked') : ''}> <code>${a}</code>: ${ABILITY_TEXT[a]}</label>\n`)}
${s.form?.errors.abilities ? h`<p class="error" id="f-abilities-error">${s.form.errors.abilities.join(' ')}</p>` : ''}
</fieldset>`,
  ],
  submit: 'Issue the token',
})}`,
    },
    status,
  )
}

async function issue(p: PageInput<User>) {
  const name = text(p.form, 'name').trim()
  const abilities = values(p.form, 'abilities')
  const errors: FieldErrors = {}
  // The use case refuses a long name too; checked here as well so the form names every problem at once.
  const nameProblem = tokenNameProblem(name)
  if (nameProblem) errors.name = [nameProblem]
  if (!abilities.length) errors.abilities = ['Choose at least one ability.']
  else if (abilities.some((a) => !ABILITIES.includes(a as Ability))) errors.abilities = [`Abilities are ${ABILITIES.join(' and ')}.`]
  if (Object.keys(errors).length) return tokensPage(p, { form: { name, abilities, errors } }, 422)
  try {
    const issued = await useCases.tokens.issue(p.ctx, ownerPrincipal(p.user), { name, abilities: abilities as Ability[] })
    return tokensPage(p, { issued })
  } catch (err) {
    if (err instanceof AppError && err.code === 'limit_reached') {
      const message = `You already hold ${limits.tokensPerUser} tokens, the most allowed. Revoke one, then issue the new one.`
      return tokensPage(p, { form: { name, abilities, errors: { name: [message] } } }, 409)
    }
    return tokensPage(p, { form: { name, abilities, errors: fieldErrorsOf(err) } }, 422)
  }
}

/** Revoking asks first, on a page of its own: works without script, and names what stops working. */
async function confirmRevoke(p: PageInput<User>) {
  const id = /^[1-9]\d{0,15}$/.test(p.params.tokenId) ? Number(p.params.tokenId) : 0
  const token = (await useCases.tokens.list(p.ctx, ownerPrincipal(p.user))).find((t) => t.id === id)
  if (!token) throw notFound('token')
  return p.render({
    title: `Revoke ${token.name}?`,
    active: 'tokens',
    narrow: true,
    body: h`<h1>Revoke “${token.name}”?</h1>
<p>Every script or tool that uses this token is refused from its very next request. This cannot be undone; you can issue a new token afterwards.</p>
<p class="muted">Abilities: ${token.abilities.join(', ')}. Last used: ${when(p.user, token.lastUsedAt)}.</p>
<form method="post" action="/settings/tokens/${token.id}/revoke" class="actions">${csrfField(p.csrf())}<button type="submit" class="danger">Revoke “${token.name}”</button><a href="/settings/tokens">Keep it</a></form>`,
  })
}

async function revoke(p: PageInput<User>) {
  const id = parseId(p.params.tokenId) ?? 0
  // Another user's token id is simply not found: whether it exists is not ours to say.
  if (!id) throw notFound('token')
  await useCases.tokens.revoke(p.ctx, ownerPrincipal(p.user), { tokenId: id })
  return p.redirect('/settings/tokens', 'The token is revoked; requests with it are refused from now on.')
}
