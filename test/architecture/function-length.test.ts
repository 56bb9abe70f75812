import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')
const MAX_LINES = 80

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/** Every function-like node with a body (declarations, methods, arrows, accessors) longer than `max` lines. */
export function longFunctions(file: string, text: string, max: number): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: { name: string; lines: number }[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)'
      if (last - first + 1 > max) found.push({ name, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('functions under src/', () => {
  // A function read in one screen is understood in one reading; a longer one is split into
  // steps whose names say what each does.
  it(`are at most ${MAX_LINES} lines long`, () => {
    const over: string[] = []
    for (const file of filesUnder(SRC).filter((f) => f.endsWith('.ts'))) {
      for (const fn of longFunctions(file, readFileSync(file, 'utf8'), MAX_LINES)) over.push(`${relative(SRC, file)} ${fn.name}: ${fn.lines} lines`)
    }
    assert.deepEqual(over, [])
  })

  it('measures arrows, methods and nested functions, not only declarations', () => {
    const body = Array.from({ length: 81 }, (_, i) => `  x${i}()`).join('\n')
    const text = `export const a = () => {\n${body}\n}\nclass C {\n  m() {\n${body}\n  }\n}\nfunction outer() {\n  function inner() {\n${body}\n  }\n}\n`
    assert.deepEqual(
      longFunctions('x.ts', text, MAX_LINES).map((f) => f.name),
      ['(anonymous)', 'm', 'outer', 'inner'],
    )
  })
})
