import { describe, it } from 'node:test'
import { STORE } from '../helpers/app.ts'
import { appAndBrowser } from '../helpers/browser.ts'
import { buildByPointer } from '../helpers/editor-build-journey.ts'

// The whole page built on a phone's width (375 px); the other width and the keyboard have files of
// their own, so the runner takes them side by side.

describe(`the editor builds a page the way a person would, at 375 px (${STORE})`, () => {
  const started = appAndBrowser()
  it('all ten types through the picker, one edited in place, one hidden, one scheduled, a theme; the preview ahead of each save', () =>
    buildByPointer(started.t, started.browser, 375))
})
