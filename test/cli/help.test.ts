import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { EXIT } from '../../src/cli/command.ts'
import { commands } from '../../src/cli/commands.ts'
import { commandHelp, parseCommandLine } from '../../src/cli/help.ts'
import { cli } from '../helpers/process.ts'

describe('cli --help', () => {
  it('describes every option of every command, and marks the required ones', () => {
    for (const c of commands) {
      assert.ok(c.summary.trim(), c.name)
      for (const [name, spec] of Object.entries(c.options)) assert.ok(spec.description.trim().length > 5, `${c.name} --${name}`)
      for (const name of c.required ?? []) assert.ok(c.options[name], `${c.name}: required --${name} is an option`)
      const help = commandHelp(c)
      for (const name of Object.keys(c.options)) assert.match(help, new RegExp(`--${name}\\b`))
      for (const name of c.required ?? []) assert.match(help, new RegExp(`--${name}\\b[^\\n]*\\(required\\)`))
    }
  })

  it('answers --help and -h for the whole CLI, each group and each command, before checking anything else', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const parsed = parseCommandLine(argv, commands)
      assert.equal(parsed.kind, 'help')
      for (const c of commands) assert.ok(parsed.kind === 'help' && parsed.text.includes(c.name), c.name)
      assert.match(parsed.kind === 'help' ? parsed.text : '', /Exit codes:\n {2}0 {2}done\n {2}1 .*\n {2}2 /)
    }
    const group = parseCommandLine(['users', '--help'], commands)
    assert.equal(group.kind, 'help')
    assert.match(group.kind === 'help' ? group.text : '', /users create[\s\S]*users set-password/)
    for (const c of commands) {
      // Even with a required option missing, --help wins.
      const parsed = parseCommandLine([...c.name.split(' '), '--help'], commands)
      assert.equal(parsed.kind, 'help', c.name)
      assert.match(parsed.kind === 'help' ? parsed.text : '', new RegExp(`^Usage: npm run --silent cli -- ${c.name}`))
    }
  })

  it('names an unknown command, subcommand or option, a missing value and a stray argument', () => {
    const error = (argv: string[]) => {
      const parsed = parseCommandLine(argv, commands)
      assert.equal(parsed.kind, 'usage-error', argv.join(' '))
      return parsed.kind === 'usage-error' ? parsed.text.split('\n')[0] : ''
    }
    assert.equal(error(['frobnicate']), 'Unknown command "frobnicate".')
    assert.equal(error(['users', 'frobnicate']), 'Unknown command "users frobnicate".')
    assert.equal(error(['users']), '"users" needs a subcommand.')
    assert.match(error(['demo', '--email', 'a@b.c', '--login', 'demo.page', '--colour', 'red']), /^Unknown option --colour for "demo"\. .*demo --help/)
    assert.match(error(['demo', '--email']), /^Option --email of "demo" needs a value\./)
    assert.match(error(['files', 'purge', '--unused=yes', '--older-than', '7d']), /^Option --unused of "files purge" takes no value\./)
    assert.match(error(['demo', 'demo.page']), /^Unexpected argument "demo\.page" for "demo"/)
    assert.match(error(['tokens', 'create']), /^Missing --email for "tokens create"\./)
    assert.match(error([]), /^Usage: /)
  })

  it('exits 0 for help, 2 for a bad call, as documented', async () => {
    const help = await cli(['demo', '--help'], {})
    assert.equal(help.code, EXIT.ok)
    assert.match(help.stdout, /^Usage: npm run --silent cli -- demo --email E --login L \[--theme ID\]/)
    const unknown = await cli(['frobnicate'], {})
    assert.equal(unknown.code, EXIT.usage)
    assert.match(unknown.stderr, /^Unknown command "frobnicate"\./)
    const badEnv = await cli(['migrate'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' })
    assert.equal(badEnv.code, EXIT.usage)
    assert.match(badEnv.stderr, /^Configuration error: DATABASE_URL: /)
  })
})
