import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'

const script = new URL('../../scripts/ensure-chromium.mjs', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'slotline-pretest-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the pretest step with `PATH` limited to `bin` and the browser looked for at `browser`. */
function pretest(bin: string, browser: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script], { env: { PATH: bin, SLOTLINE_CHROMIUM_CHECK_PATH: browser } }, (err, _stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stderr }),
    )
  })
}

describe('npm test: pretest obtains the browser', () => {
  it('says in one line which browser the tests use when it is there', async () => {
    const res = await pretest(join(dir, 'nothing'), process.execPath)
    assert.equal(res.code, 0)
    assert.equal(res.stderr, `pretest: ${process.execPath} for the browser tests\n`)
  })

  it('fails loudly, naming the packages, when the browser is missing and cannot be installed', async () => {
    const res = await pretest(join(dir, 'nothing'), join(dir, 'no-chromium'))
    assert.equal(res.code, 1)
    assert.match(
      res.stderr,
      /no-chromium is missing and (apt-get is not available|this is not root); install Debian's packages yourself: apt-get install chromium fonts-dejavu-core/,
    )
  })

  it('installs Debian chromium with apt-get when run as root, and says so', async () => {
    // A stand-in apt-get on PATH: records its arguments and "installs" the browser.
    const bin = join(dir, 'bin')
    const browser = join(dir, 'chromium')
    const calls = join(dir, 'apt-calls')
    rmSync(bin, { recursive: true, force: true })
    mkdirSync(bin)
    writeFileSync(
      join(bin, 'apt-get'),
      `#!/bin/sh\necho "$*" >> ${calls}\n[ "$1" = install ] && printf '#!/bin/sh\\n' > ${browser} && chmod +x ${browser}\nexit 0\n`,
    )
    chmodSync(join(bin, 'apt-get'), 0o755)
    const res = await pretest(`${bin}:/bin:/usr/bin`, browser)
    if (process.getuid?.() !== 0) {
      assert.equal(res.code, 1)
      assert.match(res.stderr, /this is not root/)
      return
    }
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stderr, /^pretest: installed chromium fonts-dejavu-core with apt-get for the browser tests \(\d+ s\)\n$/)
    assert.deepEqual(readFileSync(calls, 'utf8').trim().split('\n'), ['--version', 'update -qq', 'install -y -qq chromium fonts-dejavu-core'])
  })
})
