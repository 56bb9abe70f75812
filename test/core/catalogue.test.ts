import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { apiModules } from '../../src/api/api-modules.ts'
import { commands } from '../../src/cli/commands.ts'
import * as catalogue from '../../src/core/use-cases.ts'
import { dashboardPages } from '../../src/dashboard/install-dashboard.ts'
import { tools } from '../../src/mcp/tools/tool-list.ts'

/**
 * What a face may do without a catalogue operation, each with its reason. Anything else a route
 * row, MCP tool, dashboard form or command does goes through core/use-cases.ts, so a rule added
 * to an operation holds for every face at once.
 */
const FACE_ONLY = new Set([
  // The API describing itself: no account, no store, the same for every caller.
  'api GET /v1',
  'api GET /v1/openapi.json',
  'api GET /v1/schemas/page-document.json',
  // Sign-in itself: the dashboard's session is how the owner becomes a principal at all.
  'dashboard POST /login',
  'dashboard POST /logout',
  // The OAuth consent decision is a step of the authorization server's protocol (authorization/grants.ts).
  'dashboard POST /oauth/authorize',
  // Files of a stopped (or copied) store, not an open context: there is no store to go through.
  'cli backup',
  'cli restore',
])

const groups = Object.entries(catalogue).filter(([, v]) => typeof v === 'object') as Array<[string, Record<string, unknown>]>
const isOperation = (group: string, op: string) => groups.some(([g, ops]) => g === group && typeof ops[op] === 'function')
const isAnyOperation = (op: string) => groups.some(([, ops]) => typeof ops[op] === 'function')

/** The source of `fn` plus every function of its own module it calls, so a helper's call counts. */
function reachableSource(fn: (...args: any[]) => unknown, file: string): string {
  const text = readFileSync(file, 'utf8') + facesOtherModules(file)
  const seen = new Set<string>()
  let source = fn.toString()
  for (let round = 0; round < 4; round++) {
    for (const [, name] of source.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
      if (seen.has(name)) continue
      seen.add(name)
      const at = text.search(new RegExp(`(?:function\\s+${name}\\s*[<(]|const\\s+${name}\\s*=)`))
      if (at < 0) continue
      const end = text.indexOf('\n}', at)
      source += `\n${text.slice(at, end < 0 ? undefined : end)}`
    }
  }
  return source
}

/** The catalogue operations a source calls: `useCases.slots.create(`, `slots.create(`, `slotUseCases.create(`. */
function catalogueCalls(source: string): string[] {
  const calls: string[] = []
  for (const m of source.matchAll(/\buseCases\.(\w+)\.(\w+)\s*\(/g)) if (isOperation(m[1], m[2])) calls.push(`${m[1]}.${m[2]}`)
  for (const m of source.matchAll(/\b(\w+)\.(\w+)\s*\(/g)) {
    if (m[1] !== 'useCases' && isOperation(m[1], m[2])) calls.push(`${m[1]}.${m[2]}`)
    else if (/UseCases$/.test(m[1]) && isAnyOperation(m[2])) calls.push(`${m[1]}.${m[2]}`)
  }
  return calls
}

/**
 * The other modules of the face, read after the row's own: a row made by a factory in another
 * module (the editor's visibility and design rows) calls functions written there.
 */
function facesOtherModules(file: string): string {
  const folder = join(SRC, relative(SRC, file).split('/')[0])
  const files = (readdirSync(folder, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(folder, f))
  return files
    .filter((f) => f !== file)
    .map((f) => `\n${readFileSync(f, 'utf8')}`)
    .join('')
}

const rowName = (prefix: string, row: { method: string; url: string }) => `api ${row.method} ${`${prefix}${row.url}`.replace(/\/$/, '')}`
const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

/**
 * The file that defines each exported value of a face's modules, found by importing every
 * module under the face's folder: so a route table, tool or command is checked in its own file
 * without any list kept here. Rows of an exported table count as defined by its file too.
 */
async function definitions(face: string): Promise<Map<unknown, string>> {
  const files = (readdirSync(join(SRC, face), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(SRC, face, f))
  const found = new Map<unknown, string>()
  // A row belongs to the smallest table holding it: its own, not the list that gathers them all.
  const tableSize = new Map<unknown, number>()
  for (const file of files) {
    for (const value of Object.values(await import(file))) {
      if (value === null || typeof value !== 'object') continue
      if (!found.has(value)) found.set(value, file)
      if (!Array.isArray(value)) continue
      for (const row of value) {
        if (!row || typeof row !== 'object' || (tableSize.get(row) ?? Number.POSITIVE_INFINITY) <= value.length) continue
        found.set(row, file)
        tableSize.set(row, value.length)
      }
    }
  }
  return found
}
const [apiFiles, mcpFiles, dashboardFiles, cliFiles] = await Promise.all(['api', 'mcp', 'dashboard', 'cli'].map(definitions))
const fileOf = (defined: Map<unknown, string>, value: unknown, what: string): string => {
  const file = defined.get(value)
  assert.ok(file, `${what} is defined in a module of its face`)
  return file
}
describe('the catalogue of use cases', () => {
  it('is called by every API route row, or the row is declared face-only', () => {
    const missing: string[] = []
    for (const module of apiModules) {
      const file = fileOf(apiFiles, module, `API module ${module.prefix}`)
      for (const row of module.rows) {
        const key = rowName(module.prefix, row)
        if (FACE_ONLY.has(key)) continue
        if (!catalogueCalls(reachableSource(row.handler as any, file)).length) missing.push(key)
      }
    }
    assert.deepEqual(missing, [])
  })

  it('is called by every MCP tool, or the tool is declared face-only', () => {
    const missing = tools
      .filter((t) => !FACE_ONLY.has(`mcp ${t.name}`))
      .filter((t) => !catalogueCalls(reachableSource(t.handler as any, fileOf(mcpFiles, t, `tool ${t.name}`))).length)
      .map((t) => t.name)
    assert.deepEqual(missing, [])
  })

  it('is called by every dashboard form handler, or the form is declared face-only', () => {
    const missing: string[] = []
    for (const row of dashboardPages.filter((r) => r.method === 'POST')) {
      const key = `dashboard POST ${row.url}`
      if (FACE_ONLY.has(key)) continue
      if (!catalogueCalls(reachableSource(row.handler, fileOf(dashboardFiles, row, key))).length) missing.push(key)
    }
    assert.deepEqual(missing, [])
  })

  it('is called by every command, or the command is declared face-only', () => {
    const missing = commands
      .filter((c) => !FACE_ONLY.has(`cli ${c.name}`))
      .filter((c) => {
        const run = 'run' in c ? c.run : c.runWithoutContext
        return !catalogueCalls(reachableSource(run, fileOf(cliFiles, c, `command ${c.name}`))).length
      })
      .map((c) => c.name)
    assert.deepEqual(missing, [])
  })

  it('names no face-only entry that no longer exists or that calls the catalogue after all', () => {
    const api = apiModules.flatMap((m) => m.rows.map((r) => rowName(m.prefix, r)))
    const known = new Set([
      ...api,
      ...tools.map((t) => `mcp ${t.name}`),
      ...dashboardPages.map((r) => `dashboard ${r.method} ${r.url}`),
      ...commands.map((c) => `cli ${c.name}`),
    ])
    assert.deepEqual(
      [...FACE_ONLY].filter((k) => !known.has(k)),
      [],
    )
    const callingAfterAll = [
      ...apiModules.flatMap((m) =>
        m.rows
          .filter((r) => FACE_ONLY.has(rowName(m.prefix, r)) && catalogueCalls(reachableSource(r.handler as any, fileOf(apiFiles, m, m.prefix))).length)
          .map((r) => rowName(m.prefix, r)),
      ),
      ...tools
        .filter((t) => FACE_ONLY.has(`mcp ${t.name}`) && catalogueCalls(reachableSource(t.handler as any, fileOf(mcpFiles, t, t.name))).length)
        .map((t) => `mcp ${t.name}`),
    ]
    assert.deepEqual(callingAfterAll, [])
  })
})
