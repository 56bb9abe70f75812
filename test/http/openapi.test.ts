import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { errorTable } from '../../src/kernel/errors.ts'
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

  it('is OpenAPI 3.1 with document version 1.0.0, bearer and OAuth security and every error response', async () => {
    const res = await t.request('GET', '/v1/openapi.json', { token })
    assert.equal(res.status, 200)
    const doc = res.body
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '1.0.0')
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer')
    const me = doc.paths['/me'].get
    assert.deepEqual(me.security, [{ bearerAuth: [] }, { oauth2: ['profile:read'] }])
    const oauth2 = doc.components.securitySchemes.oauth2.flows.authorizationCode
    assert.equal(oauth2.authorizationUrl, `${t.url}/oauth/authorize`)
    assert.equal(oauth2.tokenUrl, `${t.url}/oauth/token`)
    assert.deepEqual(Object.keys(oauth2.scopes), ['profile:read', 'profile:write'])
    assert.ok(me.responses['401'] && me.responses['429'])
    const create = doc.paths['/profiles'].post
    for (const code of ['201', '204', '401', '403', '409', '422']) assert.ok(create.responses[code], `POST /profiles documents ${code}`)
    assert.ok(create.parameters.some((p: any) => p.name === 'Idempotency-Key'))
    assert.deepEqual(doc.paths['/'].get.security, [])
  })

  it('documents request bodies with the very schema that validates them', async () => {
    const { StoreProfileRequest } = await import('../../src/profiles/profile-schemas.ts')
    const { renderNextStepsIn } = await import('../../src/kernel/next-step.ts')
    const { restNextSteps } = await import('../../src/http/route-next-steps.ts')
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    // The same schema, its next steps ({{profiles.checkLogin}}) named as the API's routes.
    assert.deepEqual(
      doc.paths['/profiles'].post.requestBody.content['application/json'].schema,
      renderNextStepsIn(JSON.parse(JSON.stringify(StoreProfileRequest)), restNextSteps),
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
    // The recommended rules, errors and warnings alike.
    assert.deepEqual(
      report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`),
      [],
      stderr,
    )
  })

  it('names the schemas a client imports and tells new slots apart by type', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const schemas = doc.components.schemas
    for (const name of ['Profile', 'Slot', 'Error', 'SlotData', 'ButtonData', 'EventData', 'FormData', 'TextData']) assert.ok(schemas[name], name)
    assert.equal(schemas.SlotData.discriminator.propertyName, 'type')
    assert.equal(schemas.SlotData.discriminator.mapping.button, '#/components/schemas/ButtonSlotData')
    assert.deepEqual(schemas.ButtonSlotData.properties.data, { $ref: '#/components/schemas/ButtonData' })
    const batchItems = doc.paths['/profiles/{profileKey}/slots/batch'].post.requestBody.content['application/json'].schema.properties.slots.items
    assert.deepEqual(batchItems, { $ref: '#/components/schemas/SlotData' })
    const create = doc.paths['/profiles/{profileKey}/slots'].post
    const variants = create.requestBody.content['application/json'].schema.oneOf
    assert.ok(variants.some((v: any) => v.allOf[0].$ref === '#/components/schemas/TextSlotData' && v.allOf[1].properties.order))
    assert.deepEqual(create.responses['201'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Slot' })
  })

  it('declares every status a slot route answers, dry runs and bad path parameters included, and the headers', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const getSlot = doc.paths['/profiles/{profileKey}/slots/{slot}'].get
    for (const code of ['200', '401', '404', '422', '429']) assert.ok(getSlot.responses[code], `getSlot ${code}`)
    const create = doc.paths['/profiles/{profileKey}/slots'].post
    for (const code of ['201', '204', '400', '401', '403', '404', '409', '413', '415', '422', '429']) assert.ok(create.responses[code], `createSlot ${code}`)
    assert.match(create.responses['204'].description, /Dry run/)
    assert.ok(create.responses['204'].headers['Precognition-Success'])
    assert.ok(create.responses['201'].headers['Idempotent-Replayed'])
    assert.ok(create.responses['201'].headers['RateLimit-Remaining'])
    assert.ok(doc.paths['/profiles/{profileKey}/markdown'].get.responses['200'].headers['X-Markdown-Tokens'])
    assert.ok(doc.components.responses.E429.headers['Retry-After'])
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(ops)) assert.match(op.operationId, /^[a-z][a-zA-Z]+$/, path)
    }

    // What the document says is what the server does: a non-numeric slot id is a 422.
    const profile = await t.request('POST', '/v1/profiles', { token, body: { login: 'documented.page' } })
    assert.equal((await t.request('GET', `/v1/profiles/${profile.body.data.id}/slots/abc`, { token })).status, 422)
  })
})

describe('GET /v1/docs', () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('serves the reference as one page of our own, without a token, with an errors table', async () => {
    const res = await t.request('GET', '/v1/docs')
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
    // Nothing to load: no script, no stylesheet, no image, nothing framed.
    assert.doesNotMatch(res.text, /<script|<link|<img|<iframe|\ssrc=/)
    for (const code of Object.keys(errorTable)) assert.match(res.text, new RegExp(`<tr id="error-${code}">`), code)
    // Swagger UI's bundle is gone with it.
    assert.equal((await t.request('GET', '/-/docs/swagger-ui-bundle.js')).status, 404)
  })

  it('has one section per operation of the document, with its examples', async () => {
    const token = (await makeAccount(t)).token
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const html = (await t.request('GET', '/v1/docs')).text
    for (const ops of Object.values<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(ops)) assert.match(html, new RegExp(`<article id="op-${op.operationId}"`), op.operationId)
    }
    assert.match(html, /<h2 id="getting-started-title">Getting started<\/h2>/)
    assert.ok(html.includes(`${t.url}/mcp`), 'names the MCP connector')
  })
})
