import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

/**
 * Modules a file loads when it runs: static and dynamic imports and re-exports of our own
 * files. Type-only imports are erased at build time and load nothing, so they are left out.
 */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const specs = [
    ...[...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?'(\.[^']+)'/gm)].map((m) => m[1]),
    ...[...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]),
  ]
  return specs.map((s) => resolve(dirname(file), s)).filter((p) => existsSync(p))
}

/** Every cycle's members, as paths under src/, each cycle once. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, runtimeImports(f)]))
  const found = new Map<string, string[]>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (f: string) => {
    state.set(f, 'open')
    stack.push(f)
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next)).map((p) => relative(SRC, p))
        found.set([...cycle].sort().join(' '), cycle)
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(f, 'done')
  }
  for (const f of files) if (!state.has(f)) visit(f)
  return [...found.values()]
}

describe('imports', () => {
  it('form no cycle between our own modules (type-only imports aside)', () => {
    assert.deepEqual(
      cycles(filesUnder(SRC)).map((c) => [...c, c[0]].join(' → ')),
      [],
    )
  })
})
