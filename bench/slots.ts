import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { slotService } from '../src/slots/slot-service.ts'
import { nowIso } from '../src/store/db.ts'
import { slotsRepository } from '../src/store/slots.ts'
import { makeAccount, makeProfile, startApp, type TestApp } from '../test/helpers/app.ts'
import { report } from './lib.ts'

type Store = 'sqlite' | 'postgres'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Runs `measure` `rounds` times after `warmup` untimed runs; each gets a fresh `prepare()` result. */
async function timed<T>(rounds: number, warmup: number, prepare: () => Promise<T>, measure: (input: T) => Promise<void>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < warmup + rounds; i++) {
    const input = await prepare()
    const start = performance.now()
    await measure(input)
    if (i >= warmup) times.push(performance.now() - start)
  }
  return median(times)
}

// One of each writable type a batch usually carries, repeated to 50.
const MIX = [
  { type: 'button', data: { title: 'Book a session', subtitle: 'Free call', link: 'example.com/book' } },
  { type: 'text', data: { title: 'About', description: '<p>I shoot <strong>film</strong>.</p><ul><li>Portraits</li></ul>' } },
  { type: 'youtube', data: { title: 'Reel', link: 'https://youtu.be/dQw4w9WgXcQ' } },
  {
    type: 'faq',
    data: {
      items: [
        { title: 'Do you travel?', text: 'Yes.' },
        { title: 'Prints?', text: 'On request.' },
      ],
    },
  },
  { type: 'music', data: { album: 'Blue', artist: 'Jane', links: [{ link: 'https://open.spotify.com/album/1' }, { link: 'https://tidal.com/album/1' }] } },
  { type: 'divider', data: {} },
]
const BATCH = Array.from({ length: 50 }, (_, i) => MIX[i % MIX.length])

async function page(t: TestApp) {
  const { user, token } = await makeAccount(t)
  const profile = await makeProfile(t, user)
  return { token, profile, base: `${t.url}/v1/profiles/${profile.id}/slots` }
}

async function send(method: string, url: string, token: string, body: unknown, expect: number) {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await res.text()
  if (res.status !== expect) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`)
}

/**
 * POST …/slots/batch with 50 slots (auth, validation, rules, one locked transaction, the answer)
 * against a bare transaction inserting the same 50 stored rows through the same driver.
 */
export async function benchSlotsBatchCreate(store: Store) {
  const t = await startApp({}, { store })
  try {
    // The rows exactly as the endpoint stores them, for the baseline to write.
    const probe = await page(t)
    await send('POST', `${probe.base}/batch`, probe.token, { slots: BATCH }, 201)
    const rows = (await slotsRepository.listByProfile(t.ctx.db, probe.profile.id)).map((s) => ({
      type: s.type,
      data: JSON.stringify(s.data),
      position: s.position,
    }))

    const api = await timed(
      25,
      5,
      () => page(t),
      (p) => send('POST', `${p.base}/batch`, p.token, { slots: BATCH }, 201),
    )
    const bare = await timed(
      25,
      5,
      () => page(t),
      (p) =>
        t.ctx.db.transaction().execute(async (trx) => {
          const now = nowIso()
          await trx
            .insertInto('slots')
            .values(rows.map((r) => ({ profile_id: p.profile.id, type: r.type, position: r.position, data: r.data, created_at: now, updated_at: now })))
            .execute()
        }),
    )
    // The write path alone: what the handler runs inside the route's transaction.
    const service = await timed(
      25,
      5,
      () => page(t),
      (p) =>
        t.ctx.db
          .transaction()
          .execute((trx) => slotService.createMany(trx, p.profile, BATCH))
          .then(() => undefined),
    )
    report(
      `slots batch create, 50 slots (${store})`,
      `${(api / bare).toFixed(1)}× bare insert`,
      `(endpoint ${api.toFixed(1)} ms, bare transaction ${bare.toFixed(2)} ms)`,
    )
    report(`slots batch create, service only (${store})`, `${(service / bare).toFixed(1)}× bare insert`, `(validate + lock + insert ${service.toFixed(2)} ms)`)
    return { ratio: api / bare, serviceRatio: service / bare, api, service, bare }
  } finally {
    await t.close()
  }
}

/**
 * PUT …/slots/order on a 500-slot page (every id, shuffled) against a bare transaction that
 * writes the same 500 positions with one UPDATE per row through the same driver.
 */
export async function benchSlotsReorder(store: Store) {
  const t = await startApp({}, { store })
  try {
    const p = await page(t)
    for (let i = 0; i < 10; i++) await send('POST', `${p.base}/batch`, p.token, { slots: BATCH }, 201)
    const ids = (await slotsRepository.listByProfile(t.ctx.db, p.profile.id)).map((s) => s.id)
    let seed = 7
    const shuffled = () => {
      const order = [...ids]
      for (let i = order.length - 1; i > 0; i--) {
        seed = (seed * 48271) % 2147483647
        const j = seed % (i + 1)
        ;[order[i], order[j]] = [order[j], order[i]]
      }
      return order
    }
    const api = await timed(
      15,
      3,
      async () => shuffled(),
      (order) => send('PUT', `${p.base}/order`, p.token, { order }, 200),
    )
    const bare = await timed(
      15,
      3,
      async () => shuffled(),
      (order) =>
        t.ctx.db.transaction().execute(async (trx) => {
          for (let i = 0; i < order.length; i++) await sql`UPDATE slots SET position = ${i} WHERE id = ${order[i]}`.execute(trx)
        }),
    )
    report(
      `slots reorder, 500-slot page (${store})`,
      `${(api / bare).toFixed(2)}× bare updates`,
      `(endpoint ${api.toFixed(1)} ms, bare transaction ${bare.toFixed(1)} ms)`,
    )
    return { ratio: api / bare, api, bare }
  } finally {
    await t.close()
  }
}
