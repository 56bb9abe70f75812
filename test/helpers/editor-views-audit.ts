import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before } from 'node:test'
import { type Browser, chromium, type Page } from 'playwright-core'
import { ownerPrincipal, type Principal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { recordKey } from '../../src/dashboard/editor/schema-fields.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import type { SlotType } from '../../src/slots/types.ts'
import { solid } from '../media/images.ts'
import { DISCOVERY_UPC } from '../music/fakes/fixtures.ts'
import { startApp, type TestApp } from './app.ts'
import { CHROMIUM } from './browser.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'
import { addBlock, audit, newContext, openPage, signUpWithPage } from './editor-browser.ts'

// Every view of the editor's block panel, for every type the registry holds: a type added tomorrow
// is audited with no change here (a type backed by its own record needs a maker below). The types
// are shared out between files so the runner audits them side by side.

export const TYPES = Object.keys(slotTypes) as SlotType[]

/** The suite's app, browser and music fakes, started before its tests and closed after them. */
export function appWithMusicFakes(): { t: TestApp; browser: Browser } {
  const started = {} as { t: TestApp; browser: Browser; fakes: FakeUpstreams }
  before(async () => {
    // Network rule: the music lookup reaches our fakes on 127.0.0.1 over real HTTP.
    started.fakes = await startFakeUpstreams()
    started.t = await startApp({ ...started.fakes.env })
    started.browser = await chromium.launch(CHROMIUM)
  })
  after(async () => {
    await started.browser?.close()
    await started.t?.close()
    await started.fakes?.close()
  })
  return started
}
const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const quiet = { screenshots: 'on-failure' } as const

/** The blocks whose data points at a record of their own (an event, a form): made the way the editor makes them. */
const RECORD_MAKERS: Partial<Record<SlotType, (t: TestApp, principal: Principal, profileId: number, data: Record<string, unknown>) => Promise<unknown>>> = {
  event: (t, principal, profileId) =>
    useCases.editor.createEvent(t.ctx, principal, profileId, { event: { title: 'Opening night', startsAt: '2027-05-01T19:30', location: 'Galeria, Lisbon' } }),
  form: (t, principal, profileId, data) =>
    useCases.editor.createForm(t.ctx, principal, profileId, {
      form: {
        title: 'Say hello',
        fields: [
          { label: 'Your name', type: 'text', required: true },
          { label: 'Message', type: 'textarea', required: false },
        ],
      },
      data,
    }),
}

/** Sets `value` at a dotted path (`items.1.path`) of a plain object. */
function setAt(target: Record<string, any>, path: string, value: unknown) {
  const keys = path.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) node = node[key]
  node[keys[keys.length - 1]] = value
}

/** A block of `type` on the page, from the type's own example; its images real uploads of this person. */
async function createBlock(t: TestApp, principal: Principal, profileId: number, type: SlotType, shade: number) {
  const def = slotTypes[type]
  const data = structuredClone(def.example) as Record<string, unknown>
  const key = recordKey(def)
  if (key) {
    const make = RECORD_MAKERS[type]
    assert.ok(make, `${type} keeps a record of its own: give it a maker in RECORD_MAKERS`)
    delete data[key]
    return make(t, principal, profileId, data)
  }
  for (const [i, ref] of (def.files?.(def.example as never) ?? []).entries()) {
    const bytes = await solid(240, 160, 'png', `#${(0x204060 + shade * 0x1000 + i * 0x30).toString(16)}`)
    const file = await useCases.files.upload(t.ctx, principal, { stream: Readable.from(bytes), length: bytes.length })
    setAt(data, ref.field, file!.path)
  }
  return useCases.slots.create(t.ctx, principal, profileId, { type, data })
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true })

/**
 * A page holding one block of every type; then, for each of `types`, its add panel and its edit
 * panel audited at 375 and 1280 px, light and dark (a music release also refused and found).
 */
export async function auditPanels(t: TestApp, browser: Browser, types: SlotType[]) {
  const context = await newContext(browser)
  const { page, problems } = await openPage(context)
  const { user } = await signUpWithPage(t, page)
  const principal = ownerPrincipal(user)
  const profileId = Number(/\/my-links\/(\d+)\/editor/.exec(page.url())![1])
  for (const [i, type] of TYPES.entries()) await createBlock(t, principal, profileId, type, i)
  await page.reload()
  assert.equal(
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /^Edit/ }) })
      .count(),
    TYPES.length,
  )

  for (const type of types) {
    const { title } = slotTypes[type]
    await addBlock(page, title)
    await region(page, `Add a block: ${title}`).waitFor()
    await audit(page, problems, `add-${type}`, quiet)

    if (type === 'music') {
      // The automatic section: a title no platform knows, refused beside the field; then a UPC looked
      // up, the release found and put in the form below, not yet saved.
      const adding = region(page, `Add a block: ${title}`)
      await adding.getByRole('textbox', { name: 'Link, UPC, ISRC or title' }).fill('a title nobody released')
      await adding.getByRole('button', { name: 'Look up' }).click()
      await adding.getByRole('alert').waitFor()
      assert.equal(await adding.getByRole('textbox', { name: 'Link, UPC, ISRC or title' }).getAttribute('aria-invalid'), 'true')
      await audit(page, problems, 'add-music-not-found', quiet)
      await adding.getByRole('textbox', { name: 'Link, UPC, ISRC or title' }).fill(DISCOVERY_UPC)
      await adding.getByRole('button', { name: 'Look up' }).click()
      await adding
        .getByRole('status')
        .filter({ hasText: /^Found Discovery by Daft Punk on \d+ platforms?\. Check the block below/ })
        .waitFor()
      assert.equal(await adding.getByRole('textbox', { name: /^Album/ }).inputValue(), 'Discovery')
      await audit(page, problems, 'add-music-found', quiet)
    }

    await page.getByRole('link', { name: new RegExp(`^Edit\\s?: ${literally(title)},`) }).click()
    await region(page, `Edit block: ${title}`).waitFor()
    await audit(page, problems, `edit-${type}`, quiet)
  }
  assert.deepEqual(problems, [])
  await context.close()
}
