import { createHash } from 'node:crypto'
import { h, raw } from '../slots/shared/html.ts'
import { strongEtag } from './page-cache.ts'

const CSS = `body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f3f1ec;color:#1d1d22;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;text-align:center}main{padding:24px;max-width:28em}.code{font-size:4rem;font-weight:800;letter-spacing:-.04em;margin:0;color:#8a8a94}h1{font-size:1.375rem;margin:.25em 0 .5em}p{color:#5b5b66;margin:0}`

export const notFoundStyleHash = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`

/**
 * The answer for an address no page holds: unknown logins, unpublished pages and old logins
 * (spec: a login change makes the old address stop working at once, with no redirect).
 * The login is not echoed back: the page is the same for every missing address.
 */
const body = Buffer.from(
  h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Page not found</title>
<style>${raw(CSS)}</style>
</head>
<body>
<main>
<p class="code" aria-hidden="true">404</p>
<h1>This page does not exist</h1>
<p>Check the address. If the owner changed their login, the old address no longer works.</p>
</main>
</body>
</html>
`.html,
)

export const notFoundPage = Object.freeze({ body, etag: strongEtag(body), contentType: 'text/html; charset=utf-8' })
