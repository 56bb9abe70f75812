// `npm test`'s first step: the browser suite drives Debian's chromium at /usr/bin/chromium
// (never a browser downloaded from a vendor). When it is missing and we are root on a Debian-like
// system, install it with apt-get; otherwise stop the run with what to do, rather than letting the
// browser suite be cancelled or skipped.
import { execFileSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const browser = process.env.SLOTLINE_CHROMIUM_CHECK_PATH ?? '/usr/bin/chromium'
const packages = ['chromium', 'fonts-dejavu-core']

function executable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function hasAptGet() {
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function fail(why) {
  console.error(`pretest: ${browser} is missing and ${why}; install Debian's packages yourself: apt-get install ${packages.join(' ')}`)
  process.exit(1)
}

if (executable(browser)) {
  console.error(`pretest: browser tests use ${browser}`)
  process.exit(0)
}
if (process.getuid?.() !== 0) fail('this is not root')
if (!hasAptGet()) fail('apt-get is not available')

const started = Date.now()
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env })
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env })
} catch (err) {
  fail(`apt-get failed (${err.message.split('\n')[0]})`)
}
if (!executable(browser)) fail('apt-get installed chromium without it')
console.error(`pretest: installed ${packages.join(' ')} with apt-get for the browser tests (${Math.round((Date.now() - started) / 1000)} s)`)
