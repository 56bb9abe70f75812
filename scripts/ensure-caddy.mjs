// `npm test`'s third step: the custom-domain suite puts Debian's Caddy in front of the service to
// see on-demand TLS ask it before issuing a certificate. When `caddy` is missing and we are root on
// a Debian-like system, install Debian's package with apt-get (never a binary from elsewhere);
// otherwise stop the run with what to do, rather than letting that suite be skipped.
import { execFileSync } from 'node:child_process'

const caddy = process.env.SLOTLINE_CADDY ?? 'caddy'

function version() {
  try {
    return execFileSync(caddy, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return undefined
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
  console.error(`pretest: ${caddy} is missing and ${why}; install Debian's package yourself: apt-get install caddy`)
  process.exit(1)
}

const found = version()
if (found) {
  console.error(`pretest: the custom-domain TLS test uses Caddy ${found.split(' ')[0]}`)
  process.exit(0)
}
if (process.getuid?.() !== 0) fail('this is not root')
if (!hasAptGet()) fail('apt-get is not available')

const started = Date.now()
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env })
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'caddy'], { stdio: ['ignore', 'ignore', 'inherit'], env })
} catch (err) {
  fail(`apt-get failed (${err.message.split('\n')[0]})`)
}
if (!version()) fail('apt-get installed caddy without it')
console.error(`pretest: installed caddy with apt-get for the custom-domain TLS test (${Math.round((Date.now() - started) / 1000)} s)`)
