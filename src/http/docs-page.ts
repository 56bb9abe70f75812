import { createHash } from 'node:crypto'
import { errorTable } from '../kernel/errors.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import { type OpenApiOperation, operationExamples } from './docs-examples.ts'

type Schema = Record<string, any>

/** The OpenAPI document as the page reads it (what buildOpenApi makes). */
export interface ReferenceDocument {
  info: { title: string; description?: string; summary?: string }
  servers?: Array<{ url: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, Schema>; responses?: Record<string, { description: string }> }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/**
 * Light and dark by prefers-color-scheme, every pair of colours at 4.5:1 or more (axe checks it
 * in the browser test). One column on a phone, contents beside the text from 64rem.
 */
const STYLE = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#4b4b57;--line:#d0d0d8;--code:#f3f3f6;--link:#0a57c2;--mark:#fff3c4}
@media (prefers-color-scheme:dark){:root{--bg:#141519;--fg:#ececf1;--muted:#b8b8c4;--line:#3a3b44;--code:#1f2026;--link:#8ab4f8;--mark:#4a3f12}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,sans-serif}
a{color:var(--link)}a:focus-visible,pre:focus-visible,summary:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem}.skip:focus{left:0;z-index:1}
header,main,nav{padding:0 1rem}header{border-bottom:1px solid var(--line)}h1{margin:.8rem 0 .3rem;font-size:1.7rem}
nav ul,.ops{list-style:none;padding-left:0;margin:.2rem 0}nav ul ul{padding-left:.8rem}nav li,.ops li{margin:.25rem 0}nav a{text-decoration:none}nav a:hover{text-decoration:underline}
nav h2{font-size:1rem;margin:1rem 0 .4rem}.ops a{display:flex;gap:.5rem;align-items:baseline;text-decoration:none}.ops a:hover{text-decoration:underline}.ops .method{flex:none;min-width:3.6rem}
@media (max-width:63.99rem){nav .ops{display:none}}main{max-width:62rem;min-width:0}
code,pre{font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}code{overflow-wrap:anywhere}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.7rem;margin:.3rem 0 1rem;overflow:auto;max-height:26rem;white-space:pre}
article{border-top:1px solid var(--line);padding-top:.4rem;margin-top:1.6rem}h2{margin-top:2.4rem}h3{margin-bottom:.3rem}h4{margin:1rem 0 .3rem}
.method{display:inline-block;min-width:4.2rem;padding:0 .4rem;border-radius:4px;color:#fff;font:700 .8rem/1.7 ui-monospace,monospace;text-align:center;vertical-align:.1em}
.get{background:#0b6b34}.post{background:#0a57c2}.put{background:#6a3d9a}.patch{background:#8a4600}.delete{background:#b3261e}
.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;margin:.3rem 0 1rem}caption{text-align:left;font-weight:600;padding:.2rem 0}
td:first-child{width:min(38%,16rem)}td,th{border-bottom:1px solid var(--line);padding:.35rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
tr:target{background:var(--mark)}figure{margin:0}figcaption{font-weight:600;margin-top:.6rem}
@media (min-width:64rem){body{display:grid;grid-template-columns:19rem minmax(0,1fr);grid-template-rows:auto 1fr}header{grid-column:1/3}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;border-right:1px solid var(--line)}main{padding:0 2rem}}`

const anchor = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
const refName = (ref: string) => ref.split('/').pop() ?? ref

/** Description text: plain text with `code` spans, nothing else taken as markup. */
function prose(text: string | undefined): SafeHtml {
  if (!text) return raw('')
  return h`${text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? h`<code>${part}</code>` : part))}`
}

/** The fields an inline object adds to a named schema (`order` beside a slot's own). */
const inlineFields = (schema: Schema) => h`${Object.keys(schema.properties).map((k, i) => h`${i ? ', ' : ''}<code>${k}</code>`)}`

/** A schema's type in a few words, with named schemas linked to their table. */
function typeOf(schema: Schema | undefined): SafeHtml {
  if (!schema) return h`any`
  if (schema.$ref) return h`<a href="#schema-${refName(schema.$ref)}">${refName(schema.$ref)}</a>`
  if (schema.const !== undefined) return h`<code>${JSON.stringify(schema.const)}</code>`
  if (schema.enum) return h`one of ${schema.enum.map((v: unknown, i: number) => h`${i ? ', ' : ''}<code>${JSON.stringify(v)}</code>`)}`
  const variants = schema.oneOf ?? schema.anyOf
  if (variants) return h`${variants.map((v: Schema, i: number) => h`${i ? ' or ' : ''}${typeOf(v)}`)}`
  if (schema.allOf) return h`${schema.allOf.map((v: Schema, i: number) => h`${i ? ' with ' : ''}${v.properties && !v.$ref ? inlineFields(v) : typeOf(v)}`)}`
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['any']
  return h`${types.map((t, i) => h`${i ? ' or ' : ''}${t === 'array' ? h`array of ${typeOf(schema.items)}` : t}`)}${schema.format ? ` (${schema.format})` : ''}`
}

/** One row per property of an object schema: name, type, whether it is required, what it means. */
function fieldsTable(caption: string, schema: Schema | undefined): SafeHtml {
  const properties = Object.entries<Schema>(schema?.properties ?? {})
  if (!properties.length) return h`<p>${caption}: ${typeOf(schema)}</p>`
  const required = new Set<string>(schema?.required ?? [])
  return h`<table><caption>${caption}</caption><thead><tr><th scope="col">field</th><th scope="col">description</th></tr></thead><tbody>
${properties.map(
  ([name, p]) =>
    h`<tr><td>${nameCell(name, typeOf(p), required.has(name) ? 'required' : '')}</td><td>${prose(p.description)}${
      p.default !== undefined ? h` <span class="muted">Default <code>${JSON.stringify(p.default)}</code>.</span>` : ''
    }</td></tr>`,
)}
</tbody></table>`
}

/** Name, type and the rest in one cell: two columns still read on a phone. */
const nameCell = (name: string, type: SafeHtml, notes: string) => h`<code>${name}</code><br><span class="muted">${type}${notes ? `, ${notes}` : ''}</span>`

function parametersTable(op: OpenApiOperation): SafeHtml {
  const params = op.parameters ?? []
  if (!params.length) return raw('')
  return h`<table><caption>Parameters</caption><thead><tr><th scope="col">name</th><th scope="col">description</th></tr></thead><tbody>
${params.map((p) => h`<tr><td>${nameCell(p.name, typeOf(p.schema), `in ${p.in}${p.required ? ', required' : ''}`)}</td><td>${prose(p.description)}</td></tr>`)}
</tbody></table>`
}

function responsesTable(op: OpenApiOperation, doc: ReferenceDocument): SafeHtml {
  return h`<table><caption>Answers</caption><thead><tr><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>
${Object.entries(op.responses).map(([status, r]) => {
  const description = r.$ref ? doc.components.responses?.[refName(r.$ref)]?.description : r.description
  const schema = Object.values(r.content ?? {})[0]?.schema as Schema | undefined
  const body = r.$ref ? h` <a href="#schema-Error">Error</a>` : schema?.properties?.data ? h` <code>data</code>: ${typeOf(schema.properties.data)}` : ''
  return h`<tr><td>${status}</td><td>${prose(description)}${body}</td></tr>`
})}
</tbody></table>`
}

const example = (caption: string, code: string) => h`<figure><figcaption>${caption}</figcaption><pre tabindex="0"><code>${code}</code></pre></figure>`

function operationSection(doc: ReferenceDocument, method: string, path: string, op: OpenApiOperation): SafeHtml {
  const id = `op-${op.operationId}`
  const examples = operationExamples(doc, method, path, op)
  const ability = op['x-required-ability']
  const body = op.requestBody?.content
  const bodyMedia = Object.values(body ?? {})[0]
  return h`<article id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="method ${method}">${method.toUpperCase()}</span> ${op.summary}</h3>
<p><code>${new URL(doc.servers?.[0]?.url ?? 'http://x/v1').pathname}${path}</code></p>
<p>${prose(op.description)}</p>
<p class="muted">${ability ? h`Needs a token with <code>${String(ability)}</code>.` : 'No token needed.'}</p>
${parametersTable(op)}
${bodyMedia ? fieldsTable(`Request body (${Object.keys(body ?? {}).join(' or ')})`, bodyMedia.schema as Schema) : ''}
${responsesTable(op, doc)}
<h4>Examples</h4>
${example('curl', examples.curl)}
${example('TypeScript', examples.typescript)}
${example('Python', examples.python)}
${example(`Answer (${examples.answer.status})`, examples.answer.body || 'No body.')}
</article>`
}

/** Links to a group's operations: in the contents beside the text, and atop the group's section. */
const operationLinks = (ops: Array<[string, string, OpenApiOperation]>) =>
  h`<ul class="ops">${ops.map(
    ([method, , op]) => h`<li><a href="#op-${op.operationId}"><span class="method ${method}">${method.toUpperCase()}</span> ${op.summary}</a></li>`,
  )}</ul>`

/** Operations grouped under their tags, in the document's order. */
function operationsByTag(doc: ReferenceDocument): Array<{ tag: string; description?: string; ops: Array<[string, string, OpenApiOperation]> }> {
  const groups = (doc.tags ?? []).map((t) => ({ tag: t.name, description: t.description, ops: [] as Array<[string, string, OpenApiOperation]> }))
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Other'
      let group = groups.find((g) => g.tag === tag)
      if (!group) groups.push((group = { tag, description: undefined, ops: [] }))
      group.ops.push([method, path, op])
    }
  }
  return groups.filter((g) => g.ops.length)
}

function findOperation(doc: ReferenceDocument, operationId: string): [string, string, OpenApiOperation] {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]?.operationId === operationId) return [method, path, item[method]]
  }
  throw new Error(`The OpenAPI document has no operation ${operationId}`)
}

/** The first steps, each one request built from the document's own examples. */
function gettingStarted(doc: ReferenceDocument, publicUrl: string): SafeHtml {
  const curlOf = (operationId: string) => {
    const [method, path, op] = findOperation(doc, operationId)
    return operationExamples(doc, method, path, op).curl
  }
  const [, , createProfile] = findOperation(doc, 'createProfile')
  const profileBody = createProfile.requestBody?.content['application/json']?.schema as Schema | undefined
  const login = String(profileBody?.examples?.[0]?.login ?? 'jane.doe')
  const base = doc.servers?.[0]?.url ?? `${publicUrl}/v1`
  return h`<section id="getting-started" aria-labelledby="getting-started-title">
<h2 id="getting-started-title">Getting started</h2>
<p>Every request goes to <code>${base}</code> with a token in <code>Authorization: Bearer …</code>. Answers are <code>{data, meta?}</code>; errors are <code>{message, code, errors, documentation}</code> (see <a href="#errors">Errors</a>).</p>
<ol>
<li><h3>Get a token</h3><p>Sign in and create a personal token at <a href="${publicUrl}/settings/tokens">${publicUrl}/settings/tokens</a> (allow writing), or on the server run <code>npm run --silent cli -- tokens create --email you@example.com</code>. Keep it in your shell:</p>
${example('shell', 'export SLOTLINE_TOKEN=slp_...')}</li>
<li><h3>Read your account</h3><p><a href="#op-getMe">GET /me</a> answers who the token belongs to, what it may do and your limits.</p>${example('curl', curlOf('getMe'))}</li>
<li><h3>Create a page</h3><p><a href="#op-createProfile">POST /profiles</a> with the login that becomes its address.</p>${example('curl', curlOf('createProfile'))}</li>
<li><h3>Add a block</h3><p><a href="#op-createSlot">POST /profiles/{profileKey}/slots</a> with a type and its data (<a href="#op-listSlotTypes">GET /slot-types</a> lists every type and its fields).</p>${example('curl', curlOf('createSlot'))}</li>
<li><h3>See it at its address</h3><p>The page is public at <a href="${publicUrl}/${login}">${publicUrl}/${login}</a>. Programs can ask for it as markdown:</p>${example('curl', `curl -sS -H 'Accept: text/markdown' '${publicUrl}/${login}'`)}</li>
</ol>
<p>Every operation below shows the same request in curl, TypeScript and Python. The TypeScript examples use <a href="https://openapi-ts.dev/openapi-fetch/">openapi-fetch</a> with types generated from this API's document; the Python ones use <a href="https://www.python-httpx.org/">httpx</a>:</p>
${example(
  'Set up TypeScript and Python',
  `npm install openapi-fetch
npx openapi-typescript ${base}/openapi.json -o schema.ts \\
  --default-non-nullable false --header "Authorization: Bearer $SLOTLINE_TOKEN"

pip install httpx`,
)}
</section>`
}

/** Connecting an agent: the connector's address and what each client takes. */
function mcpSection(publicUrl: string): SafeHtml {
  const mcp = `${publicUrl}/mcp`
  return h`<section id="mcp" aria-labelledby="mcp-title">
<h2 id="mcp-title">Connect an AI agent (MCP)</h2>
<p>Slotline is also an MCP server: an agent builds and edits pages and reads their statistics through tools. The connector's address is</p>
${example('Connector address', mcp)}
<p>Clients that support MCP sign-in need only that address: they register themselves, open the sign-in and consent page in your browser, and appear under <a href="${publicUrl}/settings/apps">${publicUrl}/settings/apps</a>, where Disconnect ends their access. A client that takes headers can use a personal token instead.</p>
<h3>Claude</h3><p>In Claude (web or desktop): Settings, Connectors, Add custom connector; paste the address and approve on the consent page. In Claude Code:</p>
${example('Claude Code', `claude mcp add --transport http slotline ${mcp}`)}
<h3>ChatGPT</h3><p>Settings, Apps and Connectors, Advanced settings: turn on developer mode, then Create; paste the address and choose OAuth.</p>
<h3>Cursor</h3><p>Add to <code>~/.cursor/mcp.json</code> (or <code>.cursor/mcp.json</code> in a project):</p>
${example('Cursor', JSON.stringify({ mcpServers: { slotline: { url: mcp } } }, null, 2))}
<h3>VS Code</h3><p>Add to <code>.vscode/mcp.json</code>:</p>
${example('VS Code', JSON.stringify({ servers: { slotline: { type: 'http', url: mcp } } }, null, 2))}
<h3>With a personal token</h3><p>For a client that takes a header (or a script):</p>
${example('JSON configuration', JSON.stringify({ mcpServers: { slotline: { type: 'http', url: mcp, headers: { Authorization: 'Bearer slp_...' } } } }, null, 2))}
</section>`
}

function errorsSection(): SafeHtml {
  return h`<section id="errors" aria-labelledby="errors-title"><h2 id="errors-title">Errors</h2>
<p>Every error answers <code>{message, code, errors, documentation}</code>. <code>errors</code> maps field keys (<code>data.items.0.path</code>, <code>slots.3.data.link</code>) to messages; <code>documentation</code> links to the code's row here.</p>
<table><caption>Error codes</caption><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>
${Object.entries(errorTable).map(([code, e]) => h`<tr id="error-${code}"><td><code>${code}</code></td><td>${e.status}</td><td>${e.message}</td></tr>`)}
</tbody></table></section>`
}

function schemasSection(doc: ReferenceDocument): SafeHtml {
  return h`<section id="schemas" aria-labelledby="schemas-title"><h2 id="schemas-title">Schemas</h2>
${Object.entries(doc.components.schemas).map(
  ([name, schema]) => h`<section id="schema-${name}" aria-labelledby="schema-${name}-title"><h3 id="schema-${name}-title">${name}</h3>
<p>${prose(schema.description)}</p>${fieldsTable(`${name} fields`, schema)}</section>`,
)}
</section>`
}

/**
 * `/v1/docs` as one server-rendered page, made from the OpenAPI document: no script, its one
 * stylesheet inline by hash, so the policy forbids everything else.
 */
export function renderReference(doc: ReferenceDocument, publicUrl: string): { html: string; csp: string } {
  const groups = operationsByTag(doc)
  const html = h`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} reference</title><style>${raw(STYLE)}</style></head>
<body><a class="skip" href="#main">Skip to the reference</a>
<header><h1>${doc.info.title} reference</h1><p>${doc.info.summary ?? ''} Base address <code>${doc.servers?.[0]?.url ?? ''}</code>; the machine-readable document is <code>GET /openapi.json</code> (with a token).</p></header>
<nav aria-label="Contents"><h2>Contents</h2><ul>
<li><a href="#getting-started">Getting started</a></li><li><a href="#mcp">Connect an AI agent (MCP)</a></li>
${groups.map((g) => h`<li><a href="#tag-${anchor(g.tag)}">${g.tag}</a>${operationLinks(g.ops)}</li>`)}
<li><a href="#errors">Errors</a></li><li><a href="#schemas">Schemas</a></li></ul></nav>
<main id="main">
${gettingStarted(doc, publicUrl)}
${mcpSection(publicUrl)}
${groups.map(
  (
    g,
  ) => h`<section id="tag-${anchor(g.tag)}" aria-labelledby="tag-${anchor(g.tag)}-title"><h2 id="tag-${anchor(g.tag)}-title">${g.tag}</h2><p>${prose(g.description)}</p>
${operationLinks(g.ops)}
${g.ops.map(([method, path, op]) => operationSection(doc, method, path, op))}</section>`,
)}
${errorsSection()}
${schemasSection(doc)}
</main></body></html>`.html
  const csp = ["default-src 'none'", `style-src ${hashOf(STYLE)}`, "img-src 'self'", "form-action 'none'", "base-uri 'none'", "frame-ancestors 'none'"].join(
    '; ',
  )
  return { html, csp }
}
