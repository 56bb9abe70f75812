import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import { buildApp, closeContext, createContext } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import type { AppContext } from '../../src/context.ts'
import { STORE } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function admin(query: string) {
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  await client.query(query)
  await client.end()
}

/**
 * Two service instances on one store, as a deployment behind a load balancer runs them: on
 * PostgreSQL + Redis (sessions in Redis), or on one SQLite file (sessions in its table).
 */
describe(`two instances share dashboard sessions (${STORE === 'postgres' ? 'PostgreSQL + Redis' : 'one SQLite file'})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-two-'))
  const id = randomBytes(6).toString('hex')
  const schema = STORE === 'postgres' ? `t_${id}` : undefined
  const instances: Array<{ ctx: AppContext; app: FastifyInstance; url: string }> = []

  before(async () => {
    if (schema) await admin(`CREATE SCHEMA ${schema}`)
    const env: Record<string, string> = { DATA_DIR: dataDir, PORT: '0', RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '0' }
    if (schema) Object.assign(env, { DATABASE_URL: pgUrl, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' })
    for (let i = 0; i < 2; i++) {
      // One after the other: the first runs the migrations the second then finds done.
      const ctx = await createContext(loadConfig(env), { logger: pino({ level: 'silent' }), schema, redisPrefix: `test:${id}:` })
      const app = await buildApp(ctx)
      await app.listen({ host: '127.0.0.1', port: 0 })
      const address = app.server.address()
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
      ctx.config.publicUrl = url
      instances.push({ ctx, app, url })
    }
  })
  after(async () => {
    const redis = instances[0]?.ctx.redis
    if (redis) {
      const keys = await redis.keys('*')
      if (keys.length) await redis.del(...keys.map((k) => k.slice(`test:${id}:`.length)))
    }
    for (const { app, ctx } of instances) {
      await app.close()
      await closeContext(ctx)
    }
    if (schema) await admin(`DROP SCHEMA ${schema} CASCADE`)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('signs in on one instance, is signed in on the other, and signs out of both at once', async () => {
    const [a, b] = instances
    if (STORE === 'postgres') assert.ok(a.ctx.redis && b.ctx.redis, 'both instances use Redis')
    const onA = new Visitor(a.url)
    await onA.register({ name: 'Two Instances', email: freshEmail() })
    const onB = new Visitor(b.url)
    onB.cookies.set('slotline_session', onA.cookies.get('slotline_session')!)
    const settings = await onB.get('/settings')
    assert.equal(settings.status, 200)
    assert.match(settings.text, /value="Two Instances"/)
    // A form shown by one instance is accepted by the other (the CSRF secret lives in the session).
    const formOnA = await onA.get('/settings/tokens')
    const issued = await onB.post('/settings/tokens', { _csrf: csrfOf(formOnA.text), name: 'from b', abilities: 'profile:read' })
    assert.equal(issued.status, 200)
    const out = await onB.post('/logout', { _csrf: csrfOf(settings.text) })
    assert.equal(out.status, 303)
    assert.equal((await onA.get('/settings')).status, 303)
  })
})
