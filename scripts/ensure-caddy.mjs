// `npm test`'s third step: the custom-domain suite puts Debian's Caddy in front of the service to
// see on-demand TLS ask it before issuing a certificate.
import { execFileSync } from 'node:child_process'
import { ensureDebianPackages } from './debian-packages.mjs'

const caddy = process.env.SLOTLINE_CADDY ?? 'caddy'

ensureDebianPackages({
  tool: caddy,
  packages: ['caddy'],
  aptArgs: ['--no-install-recommends'],
  purpose: 'the custom-domain TLS test',
  found: () => {
    try {
      return `Caddy ${execFileSync(caddy, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(' ')[0]}`
    } catch {
      return undefined
    }
  },
})
