import type { ParseArgsConfig } from 'node:util'
import type { AppContext } from '../context.ts'

export type Options = NonNullable<ParseArgsConfig['options']>

/** One CLI command: `npm run --silent cli -- <name> [--option value]`. */
export interface Command {
  name: string
  summary: string
  options: Options
  /** Options that must be given. */
  required?: string[]
  run: (ctx: AppContext, values: Record<string, string | boolean | undefined>) => Promise<void>
}

export const defineCommand = (c: Command) => c
