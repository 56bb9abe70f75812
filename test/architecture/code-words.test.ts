import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

/**
 * The dashboard's words for things whose code word is the API's (docs/glossary.md): a lead is a
 * form submission, statistics are analytics, a slug is a login. Only the dashboard, which names
 * its modules after the pages people open, may use them in code names.
 */
const DASHBOARD_ONLY = new Set(['lead', 'leads', 'statistic', 'statistics', 'slug', 'slugs'])

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/** `formSubmissionUseCases` → form, submission, use, cases; `top_block` → top, block. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .split(/\s+/)

/** Every identifier in `text` with a word of `deny`, as `name` once per name. */
export function namesWith(file: string, text: string, deny: Set<string>): string[] {
  const found = new Set<string>()
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && wordsOf(node.text).some((w) => deny.has(w))) found.add(node.text)
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))
  return [...found]
}

describe('code names', () => {
  it("use the API's word outside the dashboard", () => {
    const found: string[] = []
    for (const file of filesUnder(SRC).filter((f) => f.endsWith('.ts') && !relative(SRC, f).startsWith('dashboard/'))) {
      for (const name of namesWith(file, readFileSync(file, 'utf8'), DASHBOARD_ONLY)) found.push(`${relative(SRC, file)} ${name}`)
    }
    assert.deepEqual(found, [])
  })

  it('reads words out of camelCase and snake_case names, not out of longer words', () => {
    const text = 'const leadsPage = 1\nconst top_statistics = 2\nconst leading = 3\nconst misleadingSlugger = 4\n'
    assert.deepEqual(namesWith('x.ts', text, DASHBOARD_ONLY), ['leadsPage', 'top_statistics'])
  })
})
