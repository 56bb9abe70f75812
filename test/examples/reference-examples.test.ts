import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import { slotService } from '../../src/slots/slot-service.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname
// Inside the project (tmp/ is ignored), so the examples resolve openapi-fetch from node_modules.
const work = join(root, 'tmp', `reference-examples-${process.pid}`)

/** Reads that need a service outside this machine: the music lookup asks its upstreams. */
const NEEDS_UPSTREAM = new Set(['lookupMusic'])

const fromHtml = (s: string) =>
  s.replace(/&(lt|gt|quot|#39|#96|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`', amp: '&' })[e]!)

/** Every operation's examples exactly as the page shows them, by operation id and caption. */
function examplesOnThePage(html: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>()
  for (const article of html.matchAll(/<article id="op-(\w+)"[\s\S]*?<\/article>/g)) {
    const figures: Record<string, string> = {}
    for (const f of article[0].matchAll(/<figcaption>([^<]+)<\/figcaption><pre tabindex="0"><code>([\s\S]*?)<\/code><\/pre>/g)) figures[f[1]] = fromHtml(f[2])
    out.set(article[1], figures)
  }
  return out
}

describe(`/v1/docs examples against a live instance (${STORE})`, () => {
  let t: TestApp
  let token: string
  let document: any
  let examples: Map<string, Record<string, string>>
  const reads: string[] = []
  let slotIds: { any: number; form: number }

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    document = (await t.request('GET', '/v1/openapi.json', { token })).body
    examples = examplesOnThePage((await t.request('GET', '/v1/docs')).text)
    // The page the examples name (the document's own example login), with a block and a form on
    // it (forms are made in the dashboard, never through the API).
    const login = document.paths['/profiles'].post.requestBody.content['application/json'].schema.examples[0].login
    const profile = await makeProfile(t, account.user, login)
    const button = await t.request('POST', `/v1/profiles/${login}/slots`, { token, body: { type: 'button', data: slotTypes.button.example } })
    assert.equal(button.status, 201, button.text)
    const form = await formsRepository.insert(t.ctx.db, { userId: account.user.id, title: 'Contact', description: '', fields: [], submitLabel: 'Send' })
    const [formSlot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    slotIds = { any: button.body.data.id, form: formSlot.id }
    // A webhook endpoint with one delivery, for the webhook reads (the document's ids: 1, the
    // first of a fresh store). Its host is never reached: the test network resolves no name.
    const hook = await t.request('POST', '/v1/webhooks', { token, body: { url: 'https://hooks.example.com/slotline', eventTypes: ['form.submitted'] } })
    assert.equal(hook.status, 201, hook.text)
    assert.equal((await t.request('POST', `/v1/webhooks/${hook.body.data.id}/test`, { token })).status, 202)
    for (const item of Object.values<Record<string, any>>(document.paths)) {
      if (item.get && !NEEDS_UPSTREAM.has(item.get.operationId)) reads.push(item.get.operationId)
    }
    mkdirSync(work, { recursive: true })
  })
  after(async () => {
    await t.close()
    rmSync(work, { recursive: true, force: true })
  })

  /** The example's slot id (the document's: 1) replaced by one that exists here. */
  const withSlots = (operationId: string, code: string) => {
    const id = operationId === 'listFormSubmissions' ? slotIds.form : slotIds.any
    return code.replace(/\/(slots|forms)\/1\b/g, `/$1/${id}`).replace(/\bslot: 1\b/g, `slot: ${id}`)
  }

  it('shows curl, TypeScript, Python and an answer for every operation of the document', () => {
    const operations = Object.values<Record<string, any>>(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId as string))
    assert.deepEqual([...examples.keys()].sort(), operations.sort())
    for (const [id, figures] of examples) {
      assert.deepEqual(Object.keys(figures).slice(0, 3), ['curl', 'TypeScript', 'Python'], id)
      assert.match(Object.keys(figures)[3], /^Answer \(2\d\d\)$/, id)
    }
  })

  it('runs the curl example of every read and gets its success answer', async () => {
    const failures: string[] = []
    for (const id of reads) {
      const command = `cd ${JSON.stringify(work)} && ${withSlots(id, examples.get(id)!.curl)} -w '\\n%{http_code}'`
      const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, SLOTLINE_TOKEN: token }, maxBuffer: 16 * 1024 * 1024 })
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1)
      if (status !== '200') failures.push(`${id}: ${status} ${stdout.slice(0, 300)}`)
    }
    assert.deepEqual(failures, [])
    assert.ok(existsSync(join(work, 'exportProfile.zip')), 'the export example saved its file')
  })

  it('type-checks every TypeScript example against types generated from the document, and runs every read', async () => {
    writeFileSync(join(work, 'schema.ts'), astToString(await openapiTS(document, { defaultNonNullable: false })))
    writeFileSync(join(work, 'package.json'), '{"type":"module"}')
    const tsconfig = JSON.parse(readFileSync(join(root, 'examples/client/tsconfig.json'), 'utf8'))
    tsconfig.files = ['schema.ts', ...[...examples.keys()].map((id) => `${id}.ts`)]
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify(tsconfig))
    for (const [id, figures] of examples) writeFileSync(join(work, `${id}.ts`), withSlots(id, figures.TypeScript))
    const compiled = await run(join(root, 'node_modules/.bin/tsc'), ['-p', join(work, 'tsconfig.json')]).then(
      () => '',
      (err) => `${err.stdout}${err.stderr}`,
    )
    assert.equal(compiled, '', compiled)

    // One process runs the reads one after another, each as the page shows it (top-level await).
    const results = join(work, 'results.json')
    writeFileSync(
      join(work, 'run.ts'),
      `import { writeFileSync } from 'node:fs'
const results: Record<string, string> = {}
for (const id of ${JSON.stringify(reads)}) {
  try { await import(\`./\${id}.ts\`); results[id] = 'ok' } catch (err) { results[id] = String(err) }
}
writeFileSync(${JSON.stringify(results)}, JSON.stringify(results))
`,
    )
    await run(process.execPath, ['--import', 'tsx', join(work, 'run.ts')], {
      cwd: work,
      env: { ...process.env, SLOTLINE_TOKEN: token },
      maxBuffer: 64 * 1024 * 1024,
    })
    const outcome = JSON.parse(readFileSync(results, 'utf8')) as Record<string, string>
    assert.deepEqual(
      Object.entries(outcome).filter(([, r]) => r !== 'ok'),
      [],
    )
    assert.deepEqual(Object.keys(outcome).sort(), [...reads].sort())
  })

  it('writes every Python example as Python that compiles', async (ctx) => {
    const python = await run('python3', ['--version']).then(
      () => true,
      () => false,
    )
    if (!python) return ctx.skip('python3 is not installed')
    const files = [...examples].map(([id, figures]) => {
      const file = join(work, `${id}.py`)
      writeFileSync(file, figures.Python)
      return file
    })
    await run('python3', ['-m', 'py_compile', ...files])
  })
})
