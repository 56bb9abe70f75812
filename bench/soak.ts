import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { closeContext } from '../src/app.ts'
import { accounts } from '../src/auth/accounts.ts'
import { analyticsRepository } from '../src/store/analytics.ts'
import { profileService } from '../src/profiles/profile-service.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { separateStore } from '../test/helpers/separate-store.ts'
import { freePort, startService } from '../test/helpers/process.ts'
import { report } from './lib.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024

/**
 * `npm run bench -- soak` (SOAK_SECONDS, default 300): one `npm start`-style service under mixed
 * traffic — page views and clicks as fast as 8 clients go, API reads and writes and an upload
 * now and then, within the default per-token limits (5/s, 60/min). Prints requests, 5xx, views
 * answered vs counted (read from the store after a SIGTERM, so the final flush is included) and
 * the service's RSS after warm-up and at the end. Pass: 0 5xx, equal views, RSS within 20 %.
 */
export async function benchSoak(store: 'sqlite' | 'postgres') {
  const seconds = Number(process.env.SOAK_SECONDS ?? 300)
  const outside = await separateStore(store, 'slotline-soak', { HOST: '127.0.0.1', PORT: String(await freePort()), RATE_LIMIT_ADDRESS_PER_MINUTE: '0' })
  try {
    let ctx = await outside.open()
    const user = await accounts.createUser(ctx.db, { email: 'soak@example.test', password: 'correct horse battery', name: 'Soak' })
    const { token } = await accounts.createToken(ctx.db, user.id, {})
    const page = await profileService.create(ctx.db, user.id, 'soak.page')
    await profilesRepository.update(ctx.db, page.id, { socials: [{ link: 'https://instagram.com/soak', order: 0 }] })
    await closeContext(ctx)

    const svc = await startService(outside.env)
    const base = `http://127.0.0.1:${outside.env.PORT}`
    const auth = { authorization: `Bearer ${token}` }
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/v1${path}`, {
        method,
        headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    const created = await api('POST', `/profiles/${page.id}/slots/batch`, {
      slots: [
        { type: 'button', data: { title: 'Shop', link: 'https://example.com/shop' } },
        { type: 'text', data: { title: 'About', description: '<p>Soak</p>' } },
      ],
    })
    if (created.status !== 201) throw new Error(`seed batch answered ${created.status}`)

    const counts = { requests: 0, errors5xx: 0, views: 0, clicks: 0, limited: 0 }
    const tally = (status: number) => {
      counts.requests++
      if (status >= 500) counts.errors5xx++
      if (status === 429) counts.limited++
      return status
    }
    const end = Date.now() + seconds * 1000
    const visitor = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const ip = `10.${n}.${(i >> 8) & 255}.${i & 255}`
        const headers = { 'user-agent': BROWSER, 'x-soak-visitor': ip }
        if (i % 5 === 4) {
          const res = await fetch(`${base}/-/go/${page.id}/s0`, { headers, redirect: 'manual' })
          await res.arrayBuffer()
          if (tally(res.status) === 302) counts.clicks++
        } else {
          const res = await fetch(`${base}/soak.page`, { headers })
          await res.arrayBuffer()
          if (tally(res.status) === 200) counts.views++
        }
      }
    }
    // One API call a second: reads, a title write, and an upload every 30th.
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer()
    const client = async () => {
      for (let i = 0; Date.now() < end; i++) {
        let res: Response
        if (i % 30 === 29) {
          const form = new FormData()
          form.append('file', new Blob([png], { type: 'image/png' }), 'soak.png')
          res = await fetch(`${base}/v1/files`, { method: 'POST', headers: auth, body: form })
        } else if (i % 3 === 0) res = await api('PATCH', `/profiles/${page.id}`, { title: `Soak ${i}` })
        else res = await api('GET', `/profiles/${page.id}?include=slots`)
        await res.arrayBuffer()
        tally(res.status)
        await new Promise((r) => setTimeout(r, 1000))
      }
    }
    const warm = Date.now() + Math.min(30_000, (seconds * 1000) / 5)
    let rssStart = 0
    const sampler = (async () => {
      while (Date.now() < warm) await new Promise((r) => setTimeout(r, 500))
      rssStart = rssOf(svc.child.pid!)
    })()
    await Promise.all([...Array.from({ length: 8 }, (_, n) => visitor(n)), client(), sampler])
    const rssEnd = rssOf(svc.child.pid!)
    svc.child.kill('SIGTERM')
    const exit = await svc.exited

    ctx = await outside.open()
    const days = await analyticsRepository.readDailyCounts(ctx.db, [page.id], '2000-01-01', '2100-01-01')
    await closeContext(ctx)
    const counted = { views: days.reduce((n, d) => n + d.views, 0), clicks: days.reduce((n, d) => n + d.clicks, 0) }
    const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`
    const growth = rssStart ? (rssEnd - rssStart) / rssStart : 0
    report(
      `soak ${seconds} s (${store})`,
      `${counts.requests} requests, ${counts.errors5xx} 5xx`,
      `views sent ${counts.views} / counted ${counted.views}; clicks ${counts.clicks} / ${counted.clicks}; 429s ${counts.limited}; RSS ${mb(rssStart)} after warm-up → ${mb(rssEnd)} (${(growth * 100).toFixed(1)} %); exit ${exit}`,
    )
    const ok = counts.errors5xx === 0 && counted.views === counts.views && counted.clicks === counts.clicks && Math.abs(growth) <= 0.2 && exit === 0
    console.log(ok ? 'soak: PASS' : 'soak: FAIL')
    return ok
  } finally {
    await outside.remove()
  }
}
