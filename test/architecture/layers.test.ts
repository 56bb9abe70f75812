import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

/** Folders of the domain: below every face, so none of them may import one. */
const DOMAIN = ['analytics', 'auth', 'core', 'media', 'music', 'profiles', 'slots', 'store']
/** The faces and the transport: what the domain must never reach for. */
const FACES = ['http', 'api', 'mcp', 'oauth', 'dashboard', 'pages', 'cli']

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

describe('layers', () => {
  it('keeps the domain free of faces, transport and Fastify', () => {
    const offences: string[] = []
    for (const folder of DOMAIN) {
      for (const file of filesUnder(join(SRC, folder))) {
        for (const spec of importsOf(file)) {
          const into = spec.startsWith('.') ? srcPath(file, spec).split('/')[0] : undefined
          if ((into && FACES.includes(into)) || /^(fastify|@fastify\/)/.test(spec)) offences.push(`${relative(SRC, file)} imports ${spec}`)
        }
      }
    }
    assert.deepEqual(offences, [])
  })
})
