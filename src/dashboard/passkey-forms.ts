import { readFileSync } from 'node:fs'
import { AppError } from '../kernel/errors.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import { csrfField } from './layout.ts'
import type { PageInput } from './page-routes.ts'

/**
 * The passkey script, sent only with the pages that hold a passkey form (as a page's own script,
 * allowed by hash), so every other page stays as light as it was.
 */
export const passkeyScript = { css: '', script: readFileSync(new URL('./passkey-ceremony.js', import.meta.url), 'utf8').trim() }

export const NEEDS_SCRIPT = 'Passkeys need JavaScript, which is off in this browser. Everything else here works without it.'

/**
 * A form the passkey script completes: it asks `options` for a challenge, lets the device answer
 * and posts the answer in `credential`. Without JavaScript it still posts, and the answer says
 * passkeys need it; the noscript line says so before.
 */
export function passkeyForm(o: {
  kind: 'create' | 'get'
  action: string
  options: string
  csrf: string
  submit: string
  fields?: SafeHtml[]
  problem?: string
  className?: string
  /** A destructive step: a red button. */
  danger?: boolean
}): SafeHtml {
  return h`<form method="post" action="${o.action}" data-passkey="${o.kind}" data-options="${o.options}"${o.className ? h` class="${o.className}"` : ''} novalidate>
${csrfField(o.csrf)}<input type="hidden" name="credential" value="">
${(o.fields ?? []).map((f) => h`${f}\n`)}<p class="notice bad" role="alert" data-passkey-problem${o.problem ? '' : raw(' hidden')}>${o.problem ?? ''}</p>
<noscript><p class="notice">${NEEDS_SCRIPT}</p></noscript>
<button type="submit"${o.danger ? raw(' class="danger"') : ''}>${o.submit}</button>
</form>`
}

/** Answers a passkey script's request for options as JSON; a refusal carries a message it can show. */
export async function sendOptions(p: PageInput<any>, make: () => Promise<unknown>) {
  try {
    const options = await make()
    return p.reply.code(200).header('cache-control', 'no-store').type('application/json').send(JSON.stringify(options))
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err
    const message = Object.values(err.errors ?? {})[0]?.[0] ?? err.message
    return p.reply.code(err.status).headers(err.headers).header('cache-control', 'no-store').type('application/json').send(JSON.stringify({ message }))
  }
}
