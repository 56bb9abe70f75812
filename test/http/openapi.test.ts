import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

const run = promisify(execFile)

describe(`GET /openapi.json (${STORE})`, () => {
  let t: TestApp
  let token: string
  before(async () => {
    t = await startApp()
    token = (await makeAccount(t)).token
  })
  after(() => t.close())

  it('requires a token', async () => {
    assert.equal((await t.request('GET', '/v1/openapi.json')).status, 401)
  })

  it('is OpenAPI 3.1 with document version 1.0.0, bearer security and every error response', async () => {
    const res = await t.request('GET', '/v1/openapi.json', { token })
    assert.equal(res.status, 200)
    const doc = res.body
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '1.0.0')
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer')
    const me = doc.paths['/me'].get
    assert.deepEqual(me.security, [{ bearerAuth: [] }])
    assert.ok(me.responses['401'] && me.responses['429'])
    const create = doc.paths['/profiles'].post
    for (const code of ['201', '204', '401', '403', '409', '422']) assert.ok(create.responses[code], `POST /profiles documents ${code}`)
    assert.ok(create.parameters.some((p: any) => p.name === 'Idempotency-Key'))
    assert.deepEqual(doc.paths['/'].get.security, [])
  })

  it('documents request bodies with the very schema that validates them', async () => {
    const { StoreProfileRequest } = await import('../../src/profiles/schemas.ts')
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    assert.deepEqual(
      doc.paths['/profiles'].post.requestBody.content['application/json'].schema,
      JSON.parse(JSON.stringify(StoreProfileRequest)),
    )
  })

  it('lints with zero errors in Redocly (offline, telemetry off)', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).text
    const dir = mkdtempSync(join(tmpdir(), 'slotline-openapi-'))
    const file = join(dir, 'openapi.json')
    writeFileSync(file, doc)
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' }
    const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly')
    const { stdout, stderr } = await run(bin, ['lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format', 'json'], {
      env,
      maxBuffer: 32 * 1024 * 1024,
    }).catch((err) => ({ stdout: err.stdout as string, stderr: err.stderr as string }))
    const report = JSON.parse(stdout)
    const errors = report.problems.filter((p: any) => p.severity === 'error')
    assert.deepEqual(
      errors.map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`),
      [],
      stderr,
    )
  })
})

describe('GET /v1/docs', () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('serves the interactive reference with local assets only and an errors table', async () => {
    const res = await t.request('GET', '/v1/docs')
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
    assert.doesNotMatch(res.text, /https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/)
    assert.match(res.text, /id="error-validation_failed"/)
    const js = await t.request('GET', '/-/docs/swagger-ui-bundle.js')
    assert.equal(js.status, 200)
  })
})
