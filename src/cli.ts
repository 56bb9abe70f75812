import { closeContext, createContext } from './app.ts'
import { EXIT } from './cli/command.ts'
import { commands } from './cli/commands.ts'
import { parseCommandLine } from './cli/help.ts'
import { ConfigError, loadConfig } from './config.ts'
import { AppError } from './kernel/errors.ts'
import { renderNextSteps } from './kernel/next-step.ts'
import { restNextSteps } from './http/route-next-steps.ts'
import { createLogger } from './observability/logger.ts'

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv, commands)
  if (parsed.kind === 'help') {
    console.log(parsed.text)
    return EXIT.ok
  }
  if (parsed.kind === 'usage-error') {
    console.error(parsed.text)
    return EXIT.usage
  }
  const command = parsed.command
  if ('runWithoutContext' in command) {
    await command.runWithoutContext(loadConfig(), parsed.values)
    return EXIT.ok
  }
  const ctx = await createContext(loadConfig(), { logger: createLogger('warn', process.stderr) })
  try {
    await command.run(ctx, parsed.values)
    return EXIT.ok
  } finally {
    await closeContext(ctx)
  }
}

main(process.argv.slice(2)).then(
  // A command that ran but whose outcome is a failure (a test delivery refused, a domain not yet
  // active) says so in process.exitCode; exiting with 0 would hide it from scripts.
  (code) => process.exit(code || Number(process.exitCode ?? 0)),
  (err) => {
    if (err instanceof AppError) {
      // The operator's next steps are the API's (or the dashboard's, for tokens).
      const said = renderNextSteps(err.message, restNextSteps)
      const fields = err.errors
        ? ` ${Object.entries(err.errors)
            .map(([k, v]) => `${k}: ${v.map((m) => renderNextSteps(m, restNextSteps)).join(' ')}`)
            .join('; ')}`
        : ''
      console.error(`${said}${fields && fields !== ` ${said}` ? fields : ''}`)
    } else if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`)
      process.exit(EXIT.usage)
    } else console.error(err)
    process.exit(EXIT.failed)
  },
)
