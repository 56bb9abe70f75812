import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { freePort } from './helpers/process.ts'
import { entryArgs } from './helpers/process.ts'

const dir = mkdtempSync(join(tmpdir(), 'slotline-startup-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** Starts src/main.ts with `env` and waits for it to give up. */
function start(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      entryArgs('main'),
      { env: { ...process.env, DATA_DIR: join(dir, 'data'), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
      (err, _stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
    )
  })
}

/** One line on stderr naming the variable, exit code 2 (the documented "configuration" code). */
function assertOneLine(res: { code: number; stderr: string }, variable: string, detail: RegExp) {
  assert.equal(res.code, 2, res.stderr)
  const lines = res.stderr.trim().split('\n')
  assert.equal(lines.length, 1, res.stderr)
  assert.match(lines[0], new RegExp(`^Configuration error: ${variable}: `))
  assert.match(lines[0], detail)
}

describe('start-up configuration errors', () => {
  it('an unreachable DATABASE_URL is one line naming the variable', async () => {
    const port = await freePort()
    const res = await start({ DATABASE_URL: `postgres://slotline:secret-pw@127.0.0.1:${port}/slotline`, PORT: String(await freePort()) })
    assertOneLine(res, 'DATABASE_URL', new RegExp(`127\\.0\\.0\\.1:${port}/slotline: .*ECONNREFUSED`))
    assert.doesNotMatch(res.stderr, /secret-pw/, 'the password is not printed')
  })

  it('a DATABASE_URL naming a missing database is one line naming the variable', {
    skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (a PostgreSQL server)',
  }, async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.pathname = `/no_such_database_${process.pid}`
    const res = await start({ DATABASE_URL: url.href, PORT: String(await freePort()) })
    assertOneLine(res, 'DATABASE_URL', /database "no_such_database_\d+" does not exist \(3D000\)/)
  })

  it('REDIS_URL with no Redis behind it is one line naming the variable', async () => {
    const port = await freePort()
    const res = await start({ REDIS_URL: `redis://127.0.0.1:${port}`, PORT: String(await freePort()) })
    assertOneLine(res, 'REDIS_URL', new RegExp(`127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`))
  })

  it('a DATA_DIR that cannot hold the SQLite store is one line naming the variable', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    const res = await start({ DATA_DIR: join(file, 'data'), PORT: String(await freePort()) })
    assertOneLine(res, 'DATA_DIR', /ENOTDIR/)
  })
})
