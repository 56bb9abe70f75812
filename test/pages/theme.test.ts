import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { THEMES, themeTokensCss } from '../../src/profiles/design-tokens.ts'
import { pageScript, pageStyle } from '../../src/rendering/theme.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import { SLOT_TYPES } from '../../src/slots/types.ts'

const types = Object.values(slotTypes)
const pageWide = readFileSync(new URL('../../src/rendering/theme.css', import.meta.url), 'utf8').trim()
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
const occurrences = (text: string, part: string) => text.split(part).length - 1

/** The slot types whose classes (`slot-music`, `slot-music-link`) a sheet's selectors name. */
function typesStyled(sheet: string): Set<string> {
  const selectors = sheet.replace(/\/\*[\s\S]*?\*\//g, '').match(/[^{}]+(?=\{)/g) ?? []
  const names = new Set<string>()
  for (const selector of selectors) {
    for (const [, type] of selector.matchAll(new RegExp(`\\.slot-(${SLOT_TYPES.join('|')})(?![a-z])`, 'g'))) names.add(type)
  }
  return names
}

describe('the public page stylesheet', () => {
  it('is the theme tokens, then theme.css, then every type’s sheets in registry order, each shared sheet once', () => {
    for (const theme of THEMES) {
      const { css, hash } = pageStyle(theme.id)
      assert.ok(css.startsWith(`${themeTokensCss(theme)}\n${pageWide}\n`), `theme ${theme.id}`)
      assert.equal(hash, sha256(css))
      let last = css.indexOf(pageWide)
      for (const def of types) {
        for (const sheet of def.css) assert.equal(occurrences(css, sheet), 1, `${def.type}: ${sheet.slice(0, 60)}`)
        // A type's own sheet comes last in its list, and after the type before it.
        const own = css.indexOf(def.css.at(-1)!)
        assert.ok(own > last, `${def.type} comes after the type before it`)
        last = own
      }
    }
  })

  it('lets a type style another type’s classes only through a sheet both of them list', () => {
    for (const def of types) {
      assert.ok(def.css.length > 0, def.type)
      for (const sheet of def.css) {
        for (const other of typesStyled(sheet)) {
          if (other === def.type) continue
          assert.ok(slotTypes[other as keyof typeof slotTypes].css.includes(sheet), `${def.type} styles .slot-${other} in a sheet ${other} does not list`)
        }
      }
      assert.ok(typesStyled(def.css.at(-1)!).has(def.type), `${def.type}'s own sheet styles its own classes`)
    }
  })

  it('cannot close its <style> element early', () => {
    for (const def of types) for (const sheet of def.css) assert.doesNotMatch(sheet, /<\/style/i, def.type)
    assert.doesNotMatch(pageWide, /<\/style/i)
  })
})

describe('the public page script', () => {
  it('runs each type’s script in a function of its own after the page-wide part, allowed by its hash', () => {
    const { script, hash } = pageScript
    assert.equal(hash, sha256(script))
    assert.ok(script.startsWith(readFileSync(new URL('../../src/rendering/page-script.js', import.meta.url), 'utf8').trim()))
    const scripted = types.filter((def) => def.script)
    assert.ok(
      scripted.some((def) => def.type === 'youtube'),
      'click-to-load video is a script',
    )
    for (const def of scripted) {
      assert.ok(script.includes(`;(() => {\n${def.script!.trim()}\n})()`), def.type)
      assert.doesNotMatch(def.script!, /<\/script/i, def.type)
    }
  })

  it('is one script the browser can parse', () => {
    // Parsed, never run: a syntax error in one type's script would stop every other's.
    assert.doesNotThrow(() => new Function(pageScript.script))
  })
})
