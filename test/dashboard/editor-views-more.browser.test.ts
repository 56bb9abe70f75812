import { describe, it } from 'node:test'
import { STORE } from '../helpers/app.ts'
import { appWithMusicFakes, auditPanels, TYPES } from '../helpers/editor-views-audit.ts'

// The second half of the block types (the first half and a refused avatar: editor-views).

describe(`every view of the editor's block panel passes axe: the second half of the types (${STORE})`, () => {
  const s = appWithMusicFakes()

  const types = TYPES.slice(Math.ceil(TYPES.length / 2))
  it(`audits the add and the edit panel of ${types.join(', ')} at 375 and 1280 px, light and dark`, () => auditPanels(s.t, s.browser, types))
})
