import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { apiModules } from '../../src/api/api-modules.ts'
import { compileBody } from '../../src/kernel/validation.ts'
import { isWrite, type RouteRow } from '../../src/http/routes.ts'
import { makeAccount, makeProfile, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** A body the row's schema accepts (its example, else the smallest value TypeBox makes), so only the guard can refuse. */
function validBody(row: RouteRow): unknown {
  if (!row.body) return undefined
  const schema = row.body as TSchema & { examples?: unknown[] }
  const body = schema.examples?.[0] ?? Value.Create(schema)
  assert.ok(compileBody(schema)(body), `${row.operationId}: give its body schema an example that validates`)
  return body
}

/** Query strings the row requires: each one's smallest valid value, else its first example. */
function validQuery(row: RouteRow): string {
  if (!row.query) return ''
  const schema = row.query as TSchema & { properties: Record<string, TSchema & { pattern?: string; examples?: unknown[] }>; required?: string[] }
  const pairs = (schema.required ?? []).map((key): [string, unknown] => {
    const p = schema.properties[key]
    // TypeBox makes no value for a pattern; an empty string is not one the row accepts either.
    const made = p.pattern ? undefined : Value.Create(p)
    return [key, made === undefined || made === '' ? (p.examples?.[0] ?? 'guard.check') : made]
  })
  return pairs.length ? `?${new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()}` : ''
}

const rows = apiModules.flatMap((mod) => mod.rows.map((row) => ({ row, url: mod.prefix + row.url || '/' })))
const guarded = rows.filter(({ row }) => row.scope !== 'public')

// One test walks every route table: each guarded row refuses a missing token (401), a
// read-only token on a write (403) and another account's page (404), before it does anything.
describe(`every API route is guarded (${STORE})`, () => {
  let t: TestApp
  let reader: string
  let writer: string
  let foreignProfile: number
  before(async () => {
    t = await startApp()
    const me = await makeAccount(t)
    writer = me.token
    reader = await makeToken(t, me.user, ['profile:read'])
    await makeProfile(t, me.user)
    const other = await makeAccount(t)
    foreignProfile = (await makeProfile(t, other.user)).id
  })
  after(() => t.close())

  const path = (url: string, profileKey: number) => url.replace(':profileKey', String(profileKey)).replace(':slot', '1')

  it('covers the tables: every row is guarded or public on purpose', () => {
    assert.ok(guarded.length >= 20, `only ${guarded.length} guarded rows found`)
    assert.deepEqual(
      rows.filter(({ row }) => row.scope === 'public').map(({ row }) => row.operationId),
      ['getApiIndex', 'getPageDocumentSchema'],
    )
  })

  for (const { row, url } of guarded) {
    const name = `${row.method} ${url}`
    it(`${name}: 401 without a token`, async () => {
      const res = await t.request(row.method, path(url, foreignProfile) + validQuery(row), { body: validBody(row) })
      assert.equal(res.status, 401, res.text)
      assert.equal(res.body.code, 'unauthenticated')
    })

    if (isWrite(row.method)) {
      it(`${name}: 403 for a read-only token`, async () => {
        const res = await t.request(row.method, path(url, foreignProfile) + validQuery(row), { token: reader, body: validBody(row) })
        assert.equal(res.status, 403, res.text)
        assert.equal(res.body.code, 'forbidden')
      })
    }

    if (url.includes(':profileKey')) {
      it(`${name}: 404 for another account's page, by id and by login`, async () => {
        const foreign = (await t.ctx.db.selectFrom('profiles').select('login').where('id', '=', foreignProfile).executeTakeFirstOrThrow()).login
        for (const key of [String(foreignProfile), foreign]) {
          const res = await t.request(row.method, path(url, key as never) + validQuery(row), { token: writer, body: validBody(row) })
          assert.equal(res.status, 404, `${key}: ${res.text}`)
          assert.equal(res.body.code, 'not_found')
        }
      })
    }
  }
})
