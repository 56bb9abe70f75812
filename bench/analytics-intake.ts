import { closeContext } from '../src/app.ts'
import { accounts } from '../src/auth/accounts.ts'
import type { AppContext } from '../src/context.ts'
import { profileService } from '../src/profiles/profile-service.ts'
import { analyticsRepository } from '../src/store/analytics.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { makeAccount, makeProfile, startApp } from '../test/helpers/app.ts'
import { startService } from '../test/helpers/process.ts'
import { serviceStore } from '../test/helpers/separate-store.ts'
import { load, report } from './lib.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function storedClicks(ctx: AppContext, profileId: number): Promise<number> {
  const rows = await analyticsRepository.readDailyCounts(ctx.db, [profileId], '2000-01-01', '2100-01-01')
  return rows.reduce((n, r) => n + r.clicks, 0)
}

function click(ctx: AppContext, profileId: number, i: number): boolean {
  return ctx.intake.click({
    profileId,
    ip: ip(i),
    userAgent: BROWSER,
    slotId: i % 10 < 8 ? 1 + (i % 5) : null,
    socialIndex: i % 10 >= 8 ? i % 3 : null,
  })
}

/**
 * The intake on its own, in process: (1) paced at 5,000 clicks/s for 6 s, (2) as fast as one
 * thread can record 200,000. Each run ends when every click is stored; the figure is clicks
 * stored per second of that whole time, and stored must equal sent.
 */
async function direct(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  try {
    const { user } = await makeAccount(t)
    for (const [label, rate, total] of [
      ['paced 5,000/s', 5000, 30_000],
      ['unpaced', 0, 200_000],
    ] as const) {
      const page = await makeProfile(t, user)
      const started = performance.now()
      let sent = 0
      if (rate) {
        // 10 ms ticks, each sending what the schedule owes by now.
        while (sent < total) {
          const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate))
          while (sent < due) if (click(t.ctx, page.id, sent++)) void 0
          await sleep(10)
        }
      } else {
        while (sent < total) {
          for (const end = Math.min(total, sent + 1000); sent < end; ) click(t.ctx, page.id, sent++)
          // Yield like a server between requests, so timed flushes run.
          await new Promise((r) => setImmediate(r))
        }
      }
      const recorded = performance.now()
      await t.ctx.intake.flush()
      const durable = performance.now()
      const stored = await storedClicks(t.ctx, page.id)
      const seconds = (durable - started) / 1000
      report(
        `click intake ${label} (${store})`,
        `${Math.round(stored / seconds)} clicks/s`,
        `sent ${sent}, stored ${stored}, lost ${sent - stored}; last flush ${Math.round(durable - recorded)} ms after the last click`,
      )
      if (stored !== sent) throw new Error(`click intake ${label} (${store}): ${sent - stored} clicks lost`)
    }
  } finally {
    await t.close()
  }
}

/**
 * End to end: a real service process (src/main.ts) answers the click redirect under load, is
 * stopped with SIGTERM, and the store it leaves must hold one click per 302 it answered (read from
 * its own request counter just before the signal).
 */
async function throughRedirect(store: 'sqlite' | 'postgres') {
  const outside = await serviceStore(store, 'slotline-bench')
  const { env, open } = outside
  try {
    let ctx = await open()
    const user = await accounts.createUser(ctx.db, { email: 'bench@example.test', password: 'correct horse battery', name: 'Bench' })
    // The first start prints an owner only on an empty store; this one already has a user.
    const page = await profileService.create(ctx.db, user.id, 'click.bench')
    await profilesRepository.update(ctx.db, page.id, { socials: [{ link: 'https://instagram.com/bench', order: 0 }] })
    await closeContext(ctx)

    const svc = await startService(env)
    const base = `http://127.0.0.1:${env.PORT}`
    const probe = await fetch(`${base}/-/go/${page.id}/s0`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })
    if (probe.status !== 302) {
      svc.child.kill('SIGTERM')
      await svc.exited
      report(`click redirect under load (${store})`, 'skipped', `/-/go/ answered ${probe.status}`)
      return
    }
    const result = await load(`${base}/-/go/${page.id}/s0`, { headers: { 'user-agent': BROWSER }, connections: 32, durationMs: 5000 })
    const metrics = await (await fetch(`${base}/-/metrics`)).text()
    const answered = [...metrics.matchAll(/^slotline_http_requests_total\{([^}]*)\} (\d+)/gm)]
      .filter(([, labels]) => labels!.includes('status="302"') && labels!.includes('/-/go/'))
      .reduce((n, m) => n + Number(m[2]), 0)
    svc.child.kill('SIGTERM')
    const code = await svc.exited
    ctx = await open()
    const stored = await storedClicks(ctx, page.id)
    await closeContext(ctx)
    report(
      `click redirect under load, then SIGTERM (${store})`,
      `${Math.round(result.rps)} clicks/s`,
      `302 answered ${answered}, stored after exit(${code}) ${stored}, lost ${answered - stored}; p50 ${result.p50.toFixed(1)} ms`,
    )
    if (stored !== answered) throw new Error(`click redirect (${store}): ${answered - stored} clicks lost`)
  } finally {
    await outside.remove()
  }
}

export async function benchAnalyticsIntake(store: 'sqlite' | 'postgres') {
  await direct(store)
  await throughRedirect(store)
}
