// `npm test`'s second step: test/examples/client.test.ts lints the live OpenAPI document with
// Spectral. Spectral is a tool, not a dependency of the service (hundreds of packages that no
// deployment needs), so it lives in .tools/spectral, installed from the npm registry at a fixed
// version the first time the tests run, and the lint never skips for want of it.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SPECTRAL_VERSION = '6.15.0'
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const prefix = join(root, '.tools/spectral')
const bin = join(prefix, 'node_modules/.bin/spectral')

if (existsSync(bin)) {
  console.error(`pretest: OpenAPI lint uses ${bin}`)
  process.exit(0)
}
const started = Date.now()
try {
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `@stoplight/spectral-cli@${SPECTRAL_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
} catch (err) {
  console.error(`pretest: could not install Spectral into ${prefix} (${err.message.split('\n')[0]}); the OpenAPI lint needs it`)
  process.exit(1)
}
console.error(`pretest: installed @stoplight/spectral-cli@${SPECTRAL_VERSION} into .tools/spectral for the OpenAPI lint (${Math.round((Date.now() - started) / 1000)} s)`)
