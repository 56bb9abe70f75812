import { ownerPrincipal } from './auth/principal.ts'
import { randomPassword } from './auth/secrets.ts'
import { buildApp, closeContext, createContext } from './app.ts'
import { cliInvocation } from './cli/invocation.ts'
import { ConfigError, loadConfig } from './config.ts'
import * as useCases from './core/use-cases.ts'
import { backgroundFailed } from './jobs/background.ts'

async function main() {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`)
      process.exit(2)
    }
    throw err
  }
  const ctx = await createContext(config)
  // Last line of defence: an error in work outside any request is logged and counted, and the
  // service goes on serving everyone else (a visitor hanging up once ended the whole process).
  process.on('uncaughtException', (err) => backgroundFailed(ctx, 'uncaught', err))
  process.on('unhandledRejection', (err) => backgroundFailed(ctx, 'unhandled-rejection', err))
  const app = await buildApp(ctx)

  // First start on an empty store: an owner account and a token, printed once.
  if (await useCases.operator.isEmpty(ctx)) {
    const password = randomPassword()
    const user = await useCases.account.register(ctx, { email: 'owner@slotline.local', password, name: 'Owner' })
    const { token } = await useCases.tokens.issue(ctx, ownerPrincipal(user), { name: 'Created at first start' })
    console.log(
      [
        '',
        'Slotline created an owner account on this empty store (shown once):',
        `  sign in:   ${config.publicUrl}/login   e-mail: ${user.email}   password: ${password}`,
        `  dashboard: your pages ${config.publicUrl}/my-links, API tokens ${config.publicUrl}/settings/tokens, password ${config.publicUrl}/settings`,
        `  token:     ${token}`,
        `  try it:    curl -H "Authorization: Bearer ${token}" ${config.publicUrl}/v1/me`,
        // Spelled out in full: run from another shell, a bare `npm run cli` would open ./data.
        `  demo:      ${cliInvocation(config)} demo --email ${user.email} --login demo.page`,
        '',
      ].join('\n'),
    )
  }

  await app.listen({ host: config.host, port: config.port })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    ctx.log.info({ signal }, 'shutting down: finishing in-flight requests')
    // app.close() waits for in-flight requests, then runs onClose hooks (flushes included).
    await app.close()
    await closeContext(ctx)
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`)
    process.exit(2)
  }
  console.error(err)
  process.exit(1)
})
