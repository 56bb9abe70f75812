// What `npm test`'s tools from Debian share: when a tool is missing and we are root on a
// Debian-like system, install its packages with apt-get (never a binary from elsewhere); otherwise
// stop the run with what to do, rather than letting the suites that need it be skipped.
import { execFileSync } from 'node:child_process'

function hasAptGet() {
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * `found()` says what is there (a description) or undefined; `packages` are installed when it is
 * undefined, and `purpose` says in the log which tests need them.
 */
export function ensureDebianPackages({ tool, packages, found, purpose, aptArgs = [] }) {
  const fail = (why) => {
    console.error(`pretest: ${tool} is missing and ${why}; install Debian's packages yourself: apt-get install ${packages.join(' ')}`)
    process.exit(1)
  }
  const present = found()
  if (present) {
    console.error(`pretest: ${present} for ${purpose}`)
    return
  }
  if (process.getuid?.() !== 0) fail('this is not root')
  if (!hasAptGet()) fail('apt-get is not available')
  const started = Date.now()
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env })
    execFileSync('apt-get', ['install', '-y', '-qq', ...aptArgs, ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env })
  } catch (err) {
    fail(`apt-get failed (${err.message.split('\n')[0]})`)
  }
  if (!found()) fail(`apt-get installed ${packages.join(' ')} without it`)
  console.error(`pretest: installed ${packages.join(' ')} with apt-get for ${purpose} (${Math.round((Date.now() - started) / 1000)} s)`)
}
