import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config.ts'

// src/cli/ or dist/cli/: the project root is two levels up either way.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const compiled = fileURLToPath(import.meta.url).endsWith('.js')

const quote = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`)

/** Variables the CLI must share with the server to reach the same store and hand out the same URLs. */
const SHARED = ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE']

/**
 * The CLI, spelled so that it works from any shell and directory against the store this
 * process uses: its DATA_DIR (absolute) and PUBLIC_URL, the store and Redis URLs and S3
 * settings it was given, and the project by path. Compiled (the container), `node dist/cli.js`;
 * otherwise `npm --prefix <project> run --silent cli --`.
 */
export function cliInvocation(config: Config, env: Record<string, string | undefined> = process.env): string {
  const vars = [`DATA_DIR=${quote(config.dataDir)}`, `PUBLIC_URL=${quote(config.publicUrl)}`]
  for (const name of SHARED) if (env[name]) vars.push(`${name}=${quote(env[name])}`)
  const program = compiled ? `node ${quote(join(root, 'dist', 'cli.js'))}` : `npm --prefix ${quote(root)} run --silent cli --`
  return `${vars.join(' ')} ${program}`
}
