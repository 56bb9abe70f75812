import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { SLOT_TYPES } from '../../src/slots/types.ts'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

/**
 * Places outside src/slots/ where a slot type's name is a string literal meaning something
 * else, or where naming the type is the point. file → literal → why. Anything not listed is
 * slot-type knowledge living outside its type's module: move it there (or into the registry).
 */
const ALLOWED: Record<string, Record<string, string>> = {
  'api/music-routes.ts': { music: 'the music lookup rate-limit group' },
  'core/slot-use-cases.ts': { text: 'example request body', divider: 'example request body', button: 'example request body' },
  'api/slot-type-routes.ts': { button: 'OpenAPI example of the {type} path parameter' },
  'core/demo-page.ts': Object.fromEntries(SLOT_TYPES.map((t) => [t, 'the demo page shows one slot of every type, by name'])),
  'infra/token-limits.ts': { music: 'the music lookup rate-limit group' },
  'transfer/page-document.ts': {
    text: 'a form field input type',
    button: 'the page document example',
    picture: 'the page document example',
    event: 'the page document property holding an event record',
    form: 'the page document property holding a form record',
  },
  'transfer/importers/foreign-page.ts': Object.fromEntries(
    ['button', 'text', 'youtube', 'music', 'divider'].map((t) => [t, 'importers map the blocks of other services onto slot types by name']),
  ),
  'transfer/importers/linkstack.ts': { text: "LinkStack's own name of a text block in its export" },
  'transfer/importers/littlelink.ts': { button: "the CSS class of LittleLink's buttons" },
  'dashboard/form-fields.ts': { text: 'an HTML input type' },
  'kernel/slot-records.ts': { text: 'a form question kind' },
  // The page editor's richer widgets, where a generated form field cannot serve.
  'core/editor-use-cases.ts': { event: 'event blocks are made in the dashboard', form: 'form blocks are made in the dashboard', text: 'a form question kind' },
  'dashboard/editor/editor-routes.ts': { event: 'the event fields', form: 'the form fields', music: 'the music lookup section', text: 'a form question kind' },
  'dashboard/editor/editor-view.ts': { event: 'the event fields', form: 'the form fields', music: 'the music lookup section', text: 'a form question kind' },
  'http/discovery-document.ts': { button: 'an example in the API index document' },
  'mcp/call-tool.ts': { text: 'MCP content type' },
  'mcp/define-tool.ts': { text: 'MCP content type' },
  'mcp/prompts.ts': { text: 'MCP content type' },
  'mcp/tools/lookup-music.ts': { music: 'the music lookup rate-limit group' },
  'pages/form-answer-routes.ts': { form: 'the form record kind of the submission route' },
  'profiles/logins.ts': { event: 'a reserved login' },
  'profiles/design-tokens.ts': { text: 'the palette colour of card text (what a primary button wears)' },
  'profiles/social-icons.ts': { youtube: 'a social icon name' },
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

/** String literals (and templates without substitutions) that are exactly a slot type's name. */
function typeNameLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const names = new Set<string>(SLOT_TYPES)
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
      // Module specifiers ('./music.ts') never match; import paths are not names.
      found.push(node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('slot type names', () => {
  it('appear as string literals only inside src/slots/ (migrations, frozen in time, aside)', () => {
    const offences: string[] = []
    for (const file of filesUnder(SRC)) {
      const path = relative(SRC, file)
      if (path.startsWith('slots/') || path.startsWith('store/migrations/')) continue
      for (const name of typeNameLiterals(file)) {
        if (!ALLOWED[path]?.[name]) offences.push(`${path}: '${name}'`)
      }
    }
    assert.deepEqual([...new Set(offences)], [])
  })
})
