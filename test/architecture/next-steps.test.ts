import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { apiModules } from '../../src/api/api-modules.ts'
import { NEXT_STEPS, nextStepsIn, renderNextSteps } from '../../src/kernel/next-step.ts'
import { dashboardNextSteps } from '../../src/dashboard/page-next-steps.ts'
import { restNextSteps } from '../../src/http/route-next-steps.ts'
import { toolNextSteps } from '../../src/mcp/tool-next-steps.ts'
import { tools } from '../../src/mcp/tools/tool-list.ts'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')
/** The core and the domain: what they say reaches every face, so it names no face's routes. */
const CORE_AND_DOMAIN = ['core', 'slots', 'profiles', 'analytics', 'media', 'music', 'auth']

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

/** Every string a file writes (literals and template parts), comments left out, with its line. */
function stringsOf(file: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const out: Array<{ text: string; line: number }> = []
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

const HTTP_ROUTE = /\b(GET|POST|PUT|PATCH|DELETE|HEAD)\s+\/[\w{}.-]*/
const TOOL_NAME = /\b(?:get|list|create|update|delete|reorder|lookup|upload|check)_[a-z_]+\b/g
const toolNames = new Set(tools.map((t) => t.name))

/** Field names of the tools' own schemas (upload_url), which read like tool names but are not. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) propertyNames(s, into)
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && v && typeof v === 'object') for (const name of Object.keys(v)) into.add(name)
      propertyNames(v, into)
    }
  }
  return into
}
const fieldNames = propertyNames(tools.map((t) => [t.inputSchema, t.outputSchema]))

describe('next steps: a core that speaks no face', () => {
  it('has no string under the core or the domain naming an HTTP method and path', () => {
    const found = CORE_AND_DOMAIN.flatMap((folder) =>
      filesUnder(join(SRC, folder)).flatMap((file) =>
        stringsOf(file)
          .filter((s) => HTTP_ROUTE.test(s.text))
          .map((s) => `${relative(SRC, file)}:${s.line} ${s.text.match(HTTP_ROUTE)![0]}`),
      ),
    )
    assert.deepEqual(found, [])
  })

  it('marks only operations every face can name', () => {
    const unknown = filesUnder(SRC).flatMap((file) =>
      stringsOf(file).flatMap((s) =>
        [...s.text.matchAll(/\{\{([^}]*)\}\}/g)].filter((m) => !nextStepsIn(m[0]).length).map((m) => `${relative(SRC, file)}:${s.line} ${m[0]}`),
      ),
    )
    assert.deepEqual(unknown, [])
    for (const names of [restNextSteps, toolNextSteps, dashboardNextSteps]) assert.deepEqual(Object.keys(names).sort(), [...NEXT_STEPS].sort())
  })

  it('renders every marker, leaving nothing for a client to read literally', () => {
    const text = NEXT_STEPS.map((op) => `then {{${op}}}`).join('; ')
    for (const names of [restNextSteps, toolNextSteps, dashboardNextSteps]) assert.doesNotMatch(renderNextSteps(text, names), /\{\{/)
  })

  it('names in the API only routes the API has', () => {
    const routes = new Set(apiModules.flatMap((m) => m.rows.map((r) => `${r.method} ${`${m.prefix}${r.url}`.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}')}`)))
    const steps = Object.values(restNextSteps).filter((name) => HTTP_ROUTE.test(name))
    assert.ok(steps.length > 10)
    assert.deepEqual(
      steps.filter((s) => !routes.has(s)),
      [],
    )
  })

  it('names over MCP only tools that exist, in the step table and in every tool description', () => {
    const named = Object.values(toolNextSteps).filter((name) => /^[a-z_]+$/.test(name))
    assert.ok(named.length > 10)
    assert.deepEqual(
      named.filter((n) => !toolNames.has(n)),
      [],
    )
    const mentioned = tools.flatMap((t) => [...renderNextSteps(t.description, toolNextSteps).matchAll(TOOL_NAME)].map((m) => `${t.name}: ${m[0]}`))
    assert.deepEqual(
      mentioned.filter((m) => {
        const word = m.split(': ')[1]
        return !toolNames.has(word) && !fieldNames.has(word)
      }),
      [],
    )
  })
})
