// `npm test`'s first step: the browser suite drives Debian's chromium at /usr/bin/chromium
// (never a browser downloaded from a vendor).
import { accessSync, constants } from 'node:fs'
import { ensureDebianPackages } from './debian-packages.mjs'

const browser = process.env.SLOTLINE_CHROMIUM_CHECK_PATH ?? '/usr/bin/chromium'

ensureDebianPackages({
  tool: browser,
  packages: ['chromium', 'fonts-dejavu-core'],
  purpose: 'the browser tests',
  found: () => {
    try {
      accessSync(browser, constants.X_OK)
      return browser
    } catch {
      return undefined
    }
  },
})
