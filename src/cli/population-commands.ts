import { operator } from '../core/use-cases.ts'
import { defineCommand } from './command.ts'

const wholeNumber = (name: string, raw: unknown, min: number, max: number): number => {
  const n = Number(raw)
  if (!/^\d+$/.test(String(raw)) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}".`)
  return n
}

export const populationGenerate = defineCommand({
  name: 'population generate',
  summary: 'Fill the store with generated pages, accounts and analytics for capacity measurements.',
  options: {
    pages: { type: 'string', value: 'N', description: 'pages to make, on N/5 accounts (default 1000000 on PostgreSQL, 10000 on SQLite)' },
    days: { type: 'string', value: 'N', description: 'days of analytics history, 1 to 365 (default 90)' },
  },
  async run(ctx, v) {
    const fallback = ctx.config.databaseUrl ? '1000000' : '10000'
    const pages = wholeNumber('pages', v.pages ?? fallback, 1, 10_000_000)
    const days = wholeNumber('days', v.days ?? '90', 1, 365)
    const r = await operator.generatePopulation(ctx, { pages, days })
    console.log(
      `Generated run ${r.run} in ${r.seconds} s: ${Object.entries(r.rows)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}.`,
    )
    console.log(
      `Steps (ms): ${Object.entries(r.timings)
        .map(([k, ms]) => `${k} ${ms}`)
        .join(', ')}.`,
    )
    console.log(`Hottest page: ${r.hottestLogin}; coldest: ${r.coldLogin}; template: ${r.templateLogin}.`)
  },
})
