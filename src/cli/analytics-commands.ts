import * as useCases from '../core/use-cases.ts'
import { limits } from '../kernel/limits.ts'
import { defineCommand } from './command.ts'

export const analyticsPurge = defineCommand({
  name: 'analytics purge',
  summary: `Drop analytics older than the ${limits.analyticsRetentionDays}-day retention (the service also does it daily).`,
  options: {},
  async run(ctx) {
    const { before, removed } = await useCases.operator.purgeAnalytics(ctx)
    console.log(`Removed ${removed} analytics rows dated before ${before}.`)
  },
})

const wholeNumber = (name: string, raw: unknown, min: number, max: number): number => {
  const n = Number(raw)
  if (!/^\d+$/.test(String(raw)) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}".`)
  return n
}

export const analyticsSeed = defineCommand({
  name: 'analytics seed',
  summary: "Fill a page's analytics with realistic history (replaces those days) for demos and benchmarks.",
  options: {
    login: { type: 'string', value: 'L', description: 'the page to fill' },
    days: { type: 'string', value: 'N', description: `days of history back from today, 1 to ${limits.analyticsRetentionDays} (default 365)` },
    events: { type: 'string', value: 'N', description: 'views and clicks to spread over them (default 100000)' },
  },
  required: ['login'],
  async run(ctx, v) {
    const days = wholeNumber('days', v.days ?? '365', 1, limits.analyticsRetentionDays)
    const events = wholeNumber('events', v.events ?? '100000', 0, 100_000_000)
    const started = performance.now()
    const r = await useCases.operator.seedAnalytics(ctx, { login: String(v.login), days, events })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `Seeded ${r.login} from ${r.from} to ${r.to}: ${r.views} views, ${r.clicks} clicks (${r.blockClicks} on blocks, ${r.socialClicks} on social links) in ${seconds} s.`,
    )
  },
})
