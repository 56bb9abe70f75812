import { createHash } from 'node:crypto'
import { CATALOGUES, directionOf, messagesFor } from '../i18n/catalogue.ts'
import { h, raw } from '../slots/shared/html.ts'

const CSS = `body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f3f1ec;color:#1d1d22;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;text-align:center}main{padding:24px;max-width:28em}.code{font-size:4rem;font-weight:800;letter-spacing:-.04em;margin:0;color:#6b6b75}h1{font-size:1.375rem;margin:.25em 0 .5em}p{color:#5b5b66;margin:0 0 .5em}a{display:inline-block;margin-top:1em;padding:.6em 1.2em;border-radius:999px;background:#1d1d22;color:#fff;font-weight:600;text-decoration:none}`

const styleHash = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`

/** Headers of every notice page: its one stylesheet by hash, nothing else runs or loads. */
const NOTICE_HEADERS = Object.freeze({
  'content-security-policy': `default-src 'none'; style-src ${styleHash}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
})

export interface Notice {
  /** The big mark above the title ("404", "✓"). */
  code: string
  title: string
  lines: string[]
  /** A same-origin path to offer as the way back (the page the visitor came from). */
  back?: string
  backLabel?: string
  /** The language the words are in (`<html lang>`, and `dir` for right-to-left scripts). */
  lang?: string
}

/**
 * A small standalone HTML page for answers a visitor reads in a browser: a missing page, a form
 * received or refused. Everything in it is escaped; it needs no script. Callers add the status,
 * Content-Type and caching.
 */
export function noticePage(n: Notice): { body: Buffer; headers: Record<string, string> } {
  const back = n.back?.startsWith('/') && !n.back.startsWith('//') ? n.back : undefined
  const body = h`<!doctype html>
<html lang="${n.lang ?? 'en'}" dir="${directionOf(n.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${n.title}</title>
<style>${raw(CSS)}</style>
</head>
<body>
<main>
<p class="code" aria-hidden="true">${n.code}</p>
<h1>${n.title}</h1>
${n.lines.map((line) => h`<p>${line}</p>\n`)}${back ? h`<a href="${back}">${n.backLabel ?? 'Back to the page'}</a>\n` : ''}</main>
</body>
</html>
`
  return { body: Buffer.from(body.html), headers: { ...NOTICE_HEADERS } }
}

/**
 * The answer for an address no page holds: unknown logins, unpublished pages and old logins
 * (spec: a login change makes the old address stop working at once, with no redirect).
 * The login is not echoed back: the page is the same for every missing address.
 */
const notFoundIn = (lang: string) => {
  const t = messagesFor(lang)
  return Object.freeze({ ...noticePage({ code: '404', title: t.notFoundTitle, lines: [t.notFoundHint], lang }), contentType: 'text/html; charset=utf-8' })
}

// Built once per language: a 404 costs no rendering.
const notFoundPages = new Map(Object.keys(CATALOGUES).map((lang) => [lang, notFoundIn(lang)]))

export const notFoundPage = notFoundPages.get('en')!

/** The 404 page in a language of ours (English for any other code). */
export const notFoundPageIn = (lang: string) => notFoundPages.get(lang) ?? notFoundPage
