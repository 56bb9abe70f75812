import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/** Every comment of a TypeScript or JavaScript file, found through the parser so strings and templates are not mistaken for one. */
function scriptComments(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, extname(file) === '.js' ? ts.ScriptKind.JS : ts.ScriptKind.TS)
  const seen = new Set<number>()
  const found: { line: number; text: string }[] = []
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      found.push({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) })
    }
  }
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()))
    take(ts.getTrailingCommentRanges(text, node.getEnd()))
    ts.forEachChild(node, visit)
  }
  visit(source)
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()))
  return found
}

function cssComments(text: string): { line: number; text: string }[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, text: m[0] }))
}

function commentsOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(file, 'utf8')
  if (file.endsWith('.css')) return cssComments(text)
  if (/\.(ts|js)$/.test(file)) return scriptComments(file, text)
  return []
}

const UNIT = '(?:ns|µs|us|ms|s|KB|MB|GB|KiB|MiB)'
const RULES: [string, RegExp][] = [
  // An issue number means nothing to a reader without the tracker, and the tracker moves.
  // (Colours such as #000 or #424248 are not issue numbers: a bare # takes one or two digits.)
  ['an issue number', /\bissues?\s*#?\d+|(?<![\w&#'"-])#\d{1,2}(?![\w-])|\(#\d+\)/i],
  // Documents outside the repository are not there for the reader to open.
  ['a document outside the repository', /\b(?:STYLE|ARCHITECTURE)\.md\b|\/work\/shared\b/],
  // A timing or size measured once goes stale with the next release of Node or of a dependency:
  // benchmarks in bench/ measure again; a comment keeps the reason.
  [
    'a measured figure',
    new RegExp(
      String.raw`\d[\d.,]*\s*(?:ns|µs)\b|(?:~|≈|about|around|roughly|some|took|takes|costs?)\s*\d[\d.,–-]*\s*${UNIT}\b|[<>]\s*\d[\d.,]*\s*${UNIT}\b|\d[\d.,]*\s*${UNIT}\s*(?:→|->|vs\b|against\b)|\b(?:\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten)\s*(?:x|×|times)\s+(?:faster|slower|the\b)`,
      'i',
    ),
  ],
]

/** What no comment under src/ may say, by file and line. */
function offences(): string[] {
  const found: string[] = []
  for (const file of filesUnder(SRC)) {
    for (const comment of commentsOf(file)) {
      for (const [what, rule] of RULES) {
        const hit = comment.text.match(rule)
        if (hit) found.push(`${relative(SRC, file)}:${comment.line + comment.text.slice(0, hit.index).split('\n').length - 1}: ${what} ("${hit[0]}")`)
      }
    }
  }
  return found
}

describe('comments under src/', () => {
  // A comment is read long after it was written: it says why, in words that stay true. Decisions
  // whose history matters are in docs/decisions/.
  it('name no issue numbers, no documents outside the repository and no measured figures', () => {
    const found = offences()
    if (found.length > 0) console.log(found.join('\n'))
    assert.deepEqual(found, [])
  })

  it('the rules catch what they are for, and leave colours and limits alone', () => {
    const hits = (text: string) => RULES.filter(([, rule]) => rule.test(text)).map(([what]) => what)
    assert.deepEqual(hits('// issue 31: hidden blocks'), ['an issue number'])
    assert.deepEqual(hits('/* Statistics (#27) */'), ['an issue number'])
    assert.deepEqual(hits('/** see STYLE.md */'), ['a document outside the repository'])
    assert.deepEqual(hits('// about 4 µs a request'), ['a measured figure'])
    assert.deepEqual(hits('// daily counts 110 ms → 4 ms'), ['a measured figure'])
    assert.deepEqual(hits('// the SDK (~25 MB) loads later'), ['a measured figure'])
    assert.deepEqual(hits('// cost five times the hash itself'), ['a measured figure'])
    assert.deepEqual(hits('// a colour like #424248, cut off past 50 MB, every 60 s'), [])
  })
})
