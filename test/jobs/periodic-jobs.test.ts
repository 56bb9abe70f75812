import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { closeContext } from '../../src/app.ts'
import { schedulePeriodic } from '../../src/jobs/periodic-job.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { separateStore } from '../helpers/separate-store.ts'

describe(`background jobs (${STORE})`, () => {
  let t: TestApp
  const lines: Array<Record<string, any>> = []
  before(async () => {
    const log = new PassThrough()
    log.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
    })
    t = await startApp({ LOG_LEVEL: 'info' }, { logTo: log })
  })
  after(() => t.close())

  it('schedules the purges of the service', () => {
    const names = [...t.ctx.jobs.keys()]
    for (const name of ['idempotency-purge', 'analytics-purge']) assert.ok(names.includes(name), name)
  })

  it('logs a failed run at error with the job name and its cause, never dropping it', async () => {
    // A real fault: the tables the jobs work on are gone.
    await sql`DROP TABLE analytics_daily`.execute(t.ctx.db)
    if (!t.ctx.redis) await sql`DROP TABLE idempotency_keys`.execute(t.ctx.db)
    const jobs = t.ctx.jobs
    await jobs.get('analytics-purge')!()
    await jobs.get('idempotency-purge')!()
    const failed = lines.filter((l) => l.level === 50)
    const expected = t.ctx.redis ? ['analytics-purge'] : ['analytics-purge', 'idempotency-purge']
    assert.deepEqual(
      failed.map((l) => l.job),
      expected,
    )
    for (const line of failed) {
      assert.match(line.msg, /failed; retrying in \d+ min/)
      assert.match(line.err.message, /analytics_daily|idempotency_keys/)
    }
  })
})

describe(`periodic jobs across instances on one store (${STORE}${STORE === 'postgres' ? ' + Redis' : ''})`, () => {
  it('runs a job once per period in the whole fleet, however many instances tick', async () => {
    const redis: Record<string, string> = STORE === 'postgres' ? { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}
    const store = await separateStore(STORE, 'slotline-fleet-jobs', redis)
    const prefix = `test:fleet:${randomBytes(6).toString('hex')}:`
    const instances = [await store.open(prefix), await store.open(prefix), await store.open(prefix)]
    try {
      const runs: number[] = []
      const everyMs = 1000
      const ticks = instances.map((ctx, i) =>
        schedulePeriodic(ctx, {
          name: 'fleet-test',
          everyMs,
          run: async () => {
            runs.push(i)
            return undefined
          },
        }),
      )
      const period = () => Math.floor(Date.now() / everyMs)
      // Wait for the start of a period, so that all ticks below fall inside one.
      const start = period()
      while (period() === start) await new Promise((r) => setTimeout(r, 10))
      for (let round = 0; round < 3; round++) await Promise.all(ticks.map((t) => t.runNow()))
      assert.equal(runs.length, 1)
      const next = period() + 1
      while (period() < next) await new Promise((r) => setTimeout(r, 10))
      await Promise.all(ticks.map((t) => t.runNow()))
      assert.equal(runs.length, 2)
    } finally {
      for (const ctx of instances) await closeContext(ctx)
      await store.remove()
    }
  })
})
