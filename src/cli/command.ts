import type { Config } from '../config.ts'
import type { AppContext } from '../context.ts'

/** One option of a command: its kind, and what `--help` says about it. */
export interface OptionSpec {
  type: 'string' | 'boolean'
  description: string
  /** The value's name in the usage line (`--email E`); string options only. */
  value?: string
}

export type OptionValues = Record<string, string | boolean | undefined>

interface CommandInfo {
  name: string
  summary: string
  options: Record<string, OptionSpec>
  /** Options that must be given. */
  required?: string[]
}

/**
 * One CLI command: `npm run --silent cli -- <name> [--option value]`. Most run on an open
 * context (store migrated, Redis connected); a few must not open the store the service's way
 * (restore fills an empty DATA_DIR, backup reads a live file) and get the configuration alone.
 */
export type Command = CommandInfo &
  ({ run: (ctx: AppContext, values: OptionValues) => Promise<void> } | { runWithoutContext: (config: Config, values: OptionValues) => Promise<void> })

export const defineCommand = <C extends Command>(c: C): C => c

/**
 * Exit codes of the CLI and of `npm start`: 0 done; 1 the command failed (the reason is on
 * stderr); 2 the call or its environment must change (unknown command or option, a missing
 * option, a bad or unreachable DATABASE_URL, REDIS_URL, DATA_DIR or other variable).
 */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 })
