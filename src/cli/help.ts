import { parseArgs } from 'node:util'
import type { Command } from './command.ts'

export const INVOCATION = 'npm run --silent cli --'

const EXIT_CODES = [
  'Exit codes:',
  '  0  done',
  '  1  the command failed; the reason is on stderr',
  '  2  fix the call or the environment: unknown command or option, missing option, or a bad or',
  '     unreachable DATABASE_URL, REDIS_URL, DATA_DIR (or another variable, named in the message)',
]

const ENVIRONMENT = 'Every command reads the environment `npm start` reads (DATA_DIR, DATABASE_URL, REDIS_URL, ...).'

function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`)
}

/** The top-level help: every command, then how to get more. */
export function overview(commands: Command[]): string {
  return [
    `Usage: ${INVOCATION} <command> [options]`,
    '',
    'Commands:',
    ...table(commands.map((c) => [c.name, c.summary])),
    '',
    `Run \`${INVOCATION} <command> --help\` for a command's options.`,
    ENVIRONMENT,
    '',
    ...EXIT_CODES,
  ].join('\n')
}

/** The subcommands of a group such as `users`. */
export function groupHelp(group: string, commands: Command[]): string {
  const members = commands.filter((c) => c.name.startsWith(`${group} `))
  return [`Usage: ${INVOCATION} ${group} <subcommand> [options]`, '', 'Subcommands:', ...table(members.map((c) => [c.name, c.summary]))].join('\n')
}

const optionUsage = (name: string, c: Command) => {
  const spec = c.options[name]
  return spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value ?? 'VALUE'}`
}

/** One command's usage line, summary and options. */
export function commandHelp(c: Command): string {
  const names = Object.keys(c.options)
  const required = names.filter((n) => c.required?.includes(n))
  const optional = names.filter((n) => !c.required?.includes(n))
  const usage = [INVOCATION, c.name, ...required.map((n) => optionUsage(n, c)), ...optional.map((n) => `[${optionUsage(n, c)}]`)].join(' ')
  const rows: Array<[string, string]> = names.map((n) => [optionUsage(n, c), `${c.required?.includes(n) ? '(required) ' : ''}${c.options[n].description}`])
  rows.push(['-h, --help', 'show this help'])
  return [
    `Usage: ${usage}`,
    '',
    c.summary,
    '',
    'Options:',
    ...table(rows),
    '',
    ENVIRONMENT,
    `Exit codes: 0 done, 1 failed, 2 bad call or environment (\`${INVOCATION} --help\`).`,
  ].join('\n')
}

export type Parsed =
  | { kind: 'run'; command: Command; values: Record<string, string | boolean | undefined> }
  | { kind: 'help'; text: string }
  | { kind: 'usage-error'; text: string }

const isHelp = (arg: string) => arg === '--help' || arg === '-h'

/**
 * Reads argv into a command and its options, or the help asked for, or a usage error that
 * names what was wrong (the unknown command or option, the missing value or option).
 */
export function parseCommandLine(argv: string[], commands: Command[]): Parsed {
  const wordsOf = (c: Command) => c.name.split(' ')
  const command = commands.filter((c) => wordsOf(c).every((word, i) => argv[i] === word)).sort((a, b) => b.name.length - a.name.length)[0]
  if (!command) {
    if (argv.length === 0) return { kind: 'usage-error', text: overview(commands) }
    if (isHelp(argv[0]) || argv[0] === 'help') return { kind: 'help', text: overview(commands) }
    const group = argv[0]
    const inGroup = commands.some((c) => wordsOf(c)[0] === group && wordsOf(c).length > 1)
    if (inGroup) {
      if (argv.length === 1 || isHelp(argv[1])) {
        if (argv.length === 1) return { kind: 'usage-error', text: `"${group}" needs a subcommand.\n\n${groupHelp(group, commands)}` }
        return { kind: 'help', text: groupHelp(group, commands) }
      }
      return { kind: 'usage-error', text: `Unknown command "${group} ${argv[1]}".\n\n${groupHelp(group, commands)}` }
    }
    return { kind: 'usage-error', text: `Unknown command "${argv[0]}".\n\n${overview(commands)}` }
  }
  const rest = argv.slice(wordsOf(command).length)
  if (rest.some(isHelp)) return { kind: 'help', text: commandHelp(command) }
  const seeHelp = `\`${INVOCATION} ${command.name} --help\` lists its options.`
  let values: Record<string, string | boolean | undefined>
  try {
    const options = Object.fromEntries(Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type }]))
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values
  } catch (err) {
    const e = err as Error & { code?: string }
    const option = /'(-[^' ]+)/.exec(e.message)?.[1]
    const text =
      e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `Unknown option ${option} for "${command.name}".`
        : e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
          ? `Option ${option} of "${command.name}" ${command.options[option?.replace(/^--/, '') ?? '']?.type === 'boolean' ? 'takes no value' : 'needs a value'}.`
          : e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
            ? `Unexpected argument "${/'([^']*)'/.exec(e.message)?.[1] ?? ''}" for "${command.name}": every value follows its --option.`
            : e.message
    return { kind: 'usage-error', text: `${text} ${seeHelp}` }
  }
  const missing = (command.required ?? []).filter((k) => values[k] === undefined)
  if (missing.length) return { kind: 'usage-error', text: `Missing ${missing.map((m) => `--${m}`).join(', ')} for "${command.name}". ${seeHelp}` }
  return { kind: 'run', command, values }
}
