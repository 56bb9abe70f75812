import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FastifyReply } from 'fastify'
import { tokensCss } from '../profiles/design-tokens.ts'
import { themePickerCss } from './theme-picker-css.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8').trim()
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

const css = `${tokensCss}${read('./dashboard.css')}\n${themePickerCss}`
const script = read('./dashboard.js')

/** The hidden field every dashboard form posts its CSRF token in. */
export const csrfField = (token: string) => h`<input type="hidden" name="_csrf" value="${token}">`

/**
 * Every dashboard answer: the stylesheet and the one script inlined and allowed by hash, forms
 * only to ourselves, no framing, never cached (pages show tokens and personal data).
 */
export const DASHBOARD_HEADERS = Object.freeze({
  'content-security-policy': [
    "default-src 'none'",
    `style-src ${sha256(css)}`,
    `script-src ${sha256(script)}`,
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
})

export type Section = 'my-links' | 'tokens' | 'apps' | 'webhooks' | 'settings'

const SECTIONS: Array<{ id: Section; href: string; label: string }> = [
  { id: 'my-links', href: '/my-links', label: 'My links' },
  { id: 'tokens', href: '/settings/tokens', label: 'API tokens' },
  { id: 'apps', href: '/settings/apps', label: 'Connected apps' },
  { id: 'webhooks', href: '/settings/webhooks', label: 'Webhooks' },
  { id: 'settings', href: '/settings', label: 'Account' },
]

export interface Flash {
  text: string
  bad?: boolean
}

export interface PageOptions {
  title: string
  body: SafeHtml
  /** The signed-in user: shows the navigation and the sign-out button. */
  user?: User
  /** The CSRF token of this answer (csrfToken(reply)); needed with `user` for sign-out. */
  csrf?: string
  /** Which navigation entry is this page. */
  active?: Section
  /** A one-column form page (sign-in, register, consent). */
  narrow?: boolean
  flash?: Flash
  /**
   * Where this page's forms may lead besides ourselves. OAuth consent answers with a redirect to
   * the application, and browsers hold a form's redirects to the page's form-action too.
   */
  formActions?: string[]
  /** A page's own stylesheet and script (the editor's), inlined after the dashboard's and allowed by hash. */
  own?: { css: string; script: string; frameSelf?: boolean }
}

/** The whole HTML document of a dashboard page; every value in it is escaped by `h`. */
export function layout(o: PageOptions): string {
  const nav = o.user
    ? h`<nav aria-label="Dashboard"><ul>
${SECTIONS.map((s) => h`<li><a href="${s.href}"${s.id === o.active ? raw(' aria-current="page"') : ''}>${s.label}</a></li>\n`)}<li><form method="post" action="/logout">${csrfField(o.csrf ?? '')}<button type="submit" class="link">Sign out</button></form></li>
</ul></nav>`
    : h`<nav aria-label="Account"><ul><li><a href="/login">Sign in</a></li></ul></nav>`
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${o.title} · Slotline</title>
<style>${raw(css)}</style>${o.own ? h`<style>${raw(o.own.css)}</style>` : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar"><div class="bar-inner"><a class="brand" href="${o.user ? '/my-links' : '/login'}">Slotline</a>${nav}</div></header>
<main id="main"${o.narrow ? raw(' class="narrow"') : ''}>
${o.flash ? h`<p class="notice${o.flash.bad ? ' bad' : ''}" role="status">${o.flash.text}</p>\n` : ''}${o.body}
</main>
<script>${raw(script)}</script>${o.own ? h`<script>${raw(o.own.script)}</script>` : ''}
</body>
</html>
`.html
}

/** Sends a page with the dashboard's headers; status 200 unless given. */
export function sendPage(reply: FastifyReply, o: PageOptions, status = 200): FastifyReply {
  let csp = o.formActions?.length
    ? DASHBOARD_HEADERS['content-security-policy'].replace("form-action 'self'", `form-action 'self' ${o.formActions.join(' ')}`)
    : DASHBOARD_HEADERS['content-security-policy']
  if (o.own) {
    csp = csp
      .replace(`style-src ${sha256(css)}`, `style-src ${sha256(css)} ${sha256(o.own.css)}`)
      .replace(`script-src ${sha256(script)}`, `script-src ${sha256(script)} ${sha256(o.own.script)}`)
    if (o.own.frameSelf) csp += "; frame-src 'self'"
  }
  return reply
    .code(status)
    .headers({ ...DASHBOARD_HEADERS, 'content-security-policy': csp })
    .type('text/html; charset=utf-8')
    .send(layout(o))
}
