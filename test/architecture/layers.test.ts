import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')
const DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/architecture.md')

/** Folders below every face and the transport, so none of them may import one. */
const BELOW_FACES = [
  'kernel',
  'observability',
  'store',
  'analytics',
  'auth',
  'backup',
  'i18n',
  'jobs',
  'media',
  'music',
  'profiles',
  'rendering',
  'slots',
  'transfer',
  'authorization',
  'domains',
  'infra',
  'core',
]
/** The faces and the transport: what the layers below must never reach for. */
const FACES = ['http', 'api', 'mcp', 'oauth', 'dashboard', 'pages', 'cli']
/** The one module of core/ a face may import: the catalogue, which re-exports the types it needs. */
const DOOR = 'core/use-cases.ts'

/**
 * Imports the matrix of docs/architecture.md does not allow, each for a reason (the doc's
 * exceptions table lists the same pairs). A path ending in / covers its folder.
 */
const ALLOWED: Array<[from: string[], to: string[]]> = []

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

/** Every module a file imports (static, dynamic and type-only), as written. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1])
}

const srcPath = (file: string, spec: string) => relative(SRC, resolve(dirname(file), spec))

/** The markdown table that follows `heading` in the doc, as rows of cells. */
function tableAfter(doc: string, heading: string): string[][] {
  const rest = doc.slice(doc.indexOf(heading))
  const lines = rest.split('\n')
  const start = lines.findIndex((l) => l.startsWith('|'))
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
  }
  return rows
}
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1])

/** The matrix: unit (folder or root module) → its layer group and the groups it may import. */
function readMatrix() {
  const doc = readFileSync(DOC, 'utf8')
  const groupOf = new Map<string, string>()
  const mayImport = new Map<string, Set<string>>()
  const rows = tableAfter(doc, '## The matrix')
  const groupName = (layer: string) => (layer.startsWith('face') ? 'face' : layer)
  for (const [units, layer, allowed] of rows) {
    for (const unit of ticked(units)) {
      const name = unit.replace(/\/$/, '')
      groupOf.set(name, groupName(layer))
      mayImport.set(name, new Set(allowed.split(',').map((g) => g.trim().replace(/`/g, ''))))
    }
  }
  const exceptions = tableAfter(doc, 'Exceptions').map(([from, to]) => `${ticked(from).join(' ')} → ${ticked(to).join(' ')}`)
  return { groupOf, mayImport, exceptions }
}

const unitOf = (path: string) => (path.includes('/') ? path.split('/')[0] : path)
const covers = (pattern: string, path: string) => (pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern)

describe('layers', () => {
  it('keeps everything below the faces free of faces, transport and Fastify', () => {
    const offences: string[] = []
    for (const folder of BELOW_FACES) {
      for (const file of filesUnder(join(SRC, folder))) {
        for (const spec of importsOf(file)) {
          const into = spec.startsWith('.') ? srcPath(file, spec).split('/')[0] : undefined
          if ((into && FACES.includes(into)) || /^(fastify|@fastify\/)/.test(spec)) offences.push(`${relative(SRC, file)} imports ${spec}`)
        }
      }
    }
    assert.deepEqual(offences, [])
  })

  it('allows only the imports of the matrix in docs/architecture.md, and the allow-list', () => {
    const { groupOf, mayImport } = readMatrix()
    const offences: string[] = []
    const files = filesUnder(SRC).map((f) => relative(SRC, f))
    const unplaced = [...new Set(files.map(unitOf))].filter((u) => !groupOf.has(u))
    assert.deepEqual(unplaced, [], 'every folder and root module has a row in the matrix')
    for (const path of files) {
      const from = unitOf(path)
      const allowed = mayImport.get(from)!
      if (allowed.has('everything')) continue
      for (const spec of importsOf(join(SRC, path))) {
        if (!spec.startsWith('.')) continue
        const target = srcPath(join(SRC, path), spec)
        const to = unitOf(target)
        if (to === from) continue
        const group = groupOf.get(to)
        const throughDoor = target === DOOR && allowed.has('door')
        const ok = throughDoor || (group !== undefined && group !== 'face' && group !== 'assembly' && allowed.has(group))
        if (ok || ALLOWED.some(([froms, tos]) => froms.some((f) => covers(f, path)) && tos.some((t) => covers(t, target)))) continue
        offences.push(`${path} → ${target}`)
      }
    }
    assert.deepEqual(offences, [])
  })

  it('lists in docs/architecture.md exactly the allow-list this test keeps', () => {
    const { exceptions } = readMatrix()
    assert.deepEqual(
      exceptions,
      ALLOWED.map(([from, to]) => `${from.join(' ')} → ${to.join(' ')}`),
    )
  })

  it('keeps no allow-list entry that nothing needs any more', () => {
    const files = filesUnder(SRC).map((f) => relative(SRC, f))
    const used = ALLOWED.map(([froms, tos]) =>
      files.some(
        (path) =>
          froms.some((f) => covers(f, path)) &&
          importsOf(join(SRC, path)).some((spec) => spec.startsWith('.') && tos.some((t) => covers(t, srcPath(join(SRC, path), spec)))),
      ),
    )
    assert.deepEqual(
      ALLOWED.filter((_, i) => !used[i]).map(([from]) => from.join(' ')),
      [],
    )
  })

  it('leaves no two folders importing each other: the folder graph of imports, type-only ones too, has no cycle', () => {
    const files = filesUnder(SRC).map((f) => relative(SRC, f))
    const edges = new Map<string, Set<string>>()
    for (const path of files) {
      for (const spec of importsOf(join(SRC, path))) {
        if (!spec.startsWith('.')) continue
        const [from, to] = [unitOf(path), unitOf(srcPath(join(SRC, path), spec))]
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to))
      }
    }
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const stack: string[] = []
    const visit = (unit: string) => {
      state.set(unit, 'open')
      stack.push(unit)
      for (const next of edges.get(unit) ?? []) {
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' → '))
        else if (!state.has(next)) visit(next)
      }
      stack.pop()
      state.set(unit, 'done')
    }
    for (const unit of edges.keys()) if (!state.has(unit)) visit(unit)
    assert.deepEqual(cycles, [])
  })
})
