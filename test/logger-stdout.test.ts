import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { describe, it } from 'node:test'

/**
 * A child process with the service's logger on stdout (createLogger without a destination), run
 * with `script` after `log` is made; its stdout is collected.
 */
function childLogging(script: string) {
  const source = `import { createLogger, logRequestLine } from './src/observability/logger.ts'
const log = createLogger('info')
${script}`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8')
  let waiting: Array<{ pattern: RegExp; resolve: () => void }> = []
  const check = () => {
    waiting = waiting.filter((w) => {
      if (!w.pattern.test(out)) return true
      w.resolve()
      return false
    })
  }
  child.stdout.on('data', (d: string) => {
    out += d
    check()
  })
  const exited = new Promise<number | null>((r) => child.once('exit', r))
  return {
    child,
    exited,
    out: () => out,
    /** Resolves once stdout holds `pattern`, while the child may still run. */
    shows: (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        waiting.push({ pattern, resolve })
        check()
      }),
  }
}

describe('The log on stdout', () => {
  it('writes every line, in order, by the time the process exits', async () => {
    // Far more than one chunk, mixing pino's own lines and the hand-built request lines, then an
    // exit straight after the last: whatever is held must still come out.
    const c = childLogging(`for (let i = 0; i < 20000; i++) {
  if (i % 2) log.info({ i }, 'line')
  else logRequestLine(log.child({ reqId: 'r' + i }), 'GET', '/x?i=' + i, 200, 1)
}
process.exit(0)`)
    assert.equal(await c.exited, 0)
    const lines = c.out().trim().split('\n')
    assert.equal(lines.length, 20000)
    lines.forEach((line, i) => {
      const fields = JSON.parse(line)
      if (i % 2) assert.equal(fields.i, i)
      else assert.equal(fields.url, `/x?i=${i}`)
    })
  })

  it('shows a line within the flush interval while the service runs', { timeout: 30_000 }, async () => {
    // One short line, far below a chunk, and a process that stays up until stdin closes: the
    // periodic flush, not the exit, has to bring it out.
    const c = childLogging(`log.info('quiet hour')
process.stdin.resume()
process.stdin.on('end', () => process.exit(0))`)
    try {
      await c.shows(/"msg":"quiet hour"/)
      assert.equal(c.child.exitCode, null, 'the line came out while the process was still running')
    } finally {
      c.child.stdin.end()
      await c.exited
    }
  })
})
