import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname
const example = join(root, 'examples/client')
// Inside the project (tmp/ is ignored), so the example resolves openapi-fetch from node_modules.
const work = join(root, 'tmp', `example-client-${process.pid}`)

describe(`examples/client: a generated client against a live server (${STORE})`, () => {
  let t: TestApp
  let token: string
  let document: Record<string, unknown>

  before(async () => {
    t = await startApp()
    token = (await makeAccount(t)).token
    const res = await t.request('GET', '/v1/openapi.json', { token })
    assert.equal(res.status, 200)
    document = res.body
    mkdirSync(work, { recursive: true })
  })
  after(async () => {
    await t.close()
    rmSync(work, { recursive: true, force: true })
  })

  it('generates types from the live document and compiles the example under strict tsc, without casts', async () => {
    // Defaults are filled in by the server, so fields that have one are optional to send.
    const types = astToString(await openapiTS(document as never, { defaultNonNullable: false }))
    writeFileSync(join(work, 'schema.ts'), types)
    for (const file of ['client.ts', 'tsconfig.json']) copyFileSync(join(example, file), join(work, file))
    const tsc = join(root, 'node_modules/.bin/tsc')
    const compiled = await run(tsc, ['-p', join(work, 'tsconfig.json')]).then(
      () => '',
      (err) => `${err.stdout}${err.stderr}`,
    )
    assert.equal(compiled, '', compiled)
    const source = readFileSync(join(example, 'client.ts'), 'utf8')
    // Code only (comments and string literals may say anything).
    const code = source.replace(/\/\/.*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''")
    assert.doesNotMatch(code, /\bas\s+(?!const\b)[\w{[(]|<\w+>\s*\w|\bany\b|@ts-/, 'no casts, any or ts directives')
    for (const name of ['Profile', 'Slot', 'Error', 'SlotData', 'ButtonData', 'TextData']) assert.match(types, new RegExp(`\\b${name}: `), name)
  })

  it('runs the example: a page, a slot, a batch, a new order, read back', async () => {
    const { runExample } = (await import(join(work, 'client.ts'))) as typeof import('../../examples/client/client.ts')
    const { profile, slots } = await runExample(`${t.url}/v1`, token, 'example.client')
    assert.equal(profile.login, 'example.client')
    assert.deepEqual(
      slots.map((s) => [s.order, s.type]),
      [
        [0, 'divider'],
        [1, 'button'],
        [2, 'text'],
      ],
    )
  })

  it('runs against the committed types too (examples/client/schema.ts is current enough to compile)', async () => {
    const tsc = join(root, 'node_modules/.bin/tsc')
    const compiled = await run(tsc, ['-p', join(example, 'tsconfig.json')]).then(
      () => '',
      (err) => `${err.stdout}${err.stderr}`,
    )
    assert.equal(compiled, '', compiled)
  })
})

describe(`/v1/openapi.json under Spectral (${STORE})`, () => {
  const spectral = join(root, '.tools/spectral/node_modules/.bin/spectral')
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('has no spectral:oas errors or warnings', async () => {
    // npm test's pretest installs it (scripts/ensure-spectral.mjs); a run without it is a failed lint, not a skipped one.
    assert.ok(existsSync(spectral), 'Spectral is not installed: run node scripts/ensure-spectral.mjs')
    const token = (await makeAccount(t)).token
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).text
    mkdirSync(work, { recursive: true })
    writeFileSync(join(work, 'openapi.json'), doc)
    writeFileSync(join(work, '.spectral.yaml'), 'extends: ["spectral:oas"]\n')
    const out = await run(spectral, ['lint', join(work, 'openapi.json'), '--ruleset', join(work, '.spectral.yaml'), '--format', 'json', '--quiet'], {
      maxBuffer: 32 * 1024 * 1024,
    }).then(
      (r) => r.stdout,
      (err) => err.stdout as string,
    )
    const results = JSON.parse(out || '[]') as Array<{ code: string; message: string; severity: number; path: string[] }>
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)
    assert.deepEqual(errors, [])
    const warnings = results.filter((r) => r.severity === 1).map((r) => `${r.code} at ${r.path.join('.')}`)
    assert.deepEqual(warnings, [])
  })
})
