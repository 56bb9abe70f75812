import { after, before, describe, it } from 'node:test'
import { type Browser, chromium } from 'playwright-core'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { CHROMIUM } from '../helpers/browser.ts'
import { auditPanels, TYPES } from '../helpers/editor-views-audit.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'

// The second half of the block types (the first half and a refused avatar: editor-views).

describe(`every view of the editor's block panel passes axe: the second half of the types (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let fakes: FakeUpstreams

  before(async () => {
    // Network rule: the music lookup reaches our fakes on 127.0.0.1 over real HTTP.
    fakes = await startFakeUpstreams()
    t = await startApp({ ...fakes.env })
    browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await browser?.close()
    await t?.close()
    await fakes?.close()
  })

  const types = TYPES.slice(Math.ceil(TYPES.length / 2))
  it(`audits the add and the edit panel of ${types.join(', ')} at 375 and 1280 px, light and dark`, () => auditPanels(t, browser, types))
})
