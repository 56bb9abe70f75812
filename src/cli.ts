import { parseArgs } from 'node:util'
import pino from 'pino'
import { closeContext, createContext } from './app.ts'
import { migrate, tokensCreate, usersCreate } from './cli/accounts.ts'
import { analyticsPurge, analyticsSeed } from './cli/analytics.ts'
import type { Command } from './cli/command.ts'
import { formsSubmissions } from './cli/forms.ts'
import { demo } from './cli/demo.ts'
import { filesPurge } from './cli/files.ts'
import { ConfigError, loadConfig } from './config.ts'
import { AppError } from './http/errors.ts'

const commands: Command[] = [usersCreate, tokensCreate, migrate, demo, filesPurge, analyticsPurge, analyticsSeed, formsSubmissions]

function usage(): string {
  return ['Usage: npm run --silent cli -- <command> [options]', '', ...commands.map((c) => `  ${c.name.padEnd(22)} ${c.summary}`)].join('\n')
}

async function main(argv: string[]) {
  const command = commands
    .filter((c) => c.name.split(' ').every((word, i) => argv[i] === word))
    .sort((a, b) => b.name.length - a.name.length)[0]
  if (!command) {
    console.error(usage())
    return 2
  }
  const rest = argv.slice(command.name.split(' ').length)
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values as typeof values
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage()}`)
    return 2
  }
  const missing = (command.required ?? []).filter((k) => values[k] === undefined)
  if (missing.length) {
    console.error(`Missing ${missing.map((m) => `--${m}`).join(', ')} for "${command.name}".`)
    return 2
  }
  const ctx = await createContext(loadConfig(), { logger: pino({ level: 'warn' }, process.stderr) })
  try {
    await command.run(ctx, values)
    return 0
  } finally {
    await closeContext(ctx)
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof AppError) {
      const fields = err.errors ? ` ${Object.entries(err.errors).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ')}` : ''
      console.error(`${err.message}${fields && fields !== ` ${err.message}` ? fields : ''}`)
    } else if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`)
    else console.error(err)
    process.exit(1)
  },
)
