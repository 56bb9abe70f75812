import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

describe('source file names', () => {
  // A name found by file search, in a stack trace or in an import names one module: two files
  // called schemas.ts (or page-document.ts with two meanings) send a newcomer to the wrong one.
  it('are unique under src/: no two files share a base name', () => {
    const byName = new Map<string, string[]>()
    for (const file of filesUnder(SRC)) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), relative(SRC, file)])
    assert.deepEqual(
      [...byName.values()].filter((paths) => paths.length > 1),
      [],
    )
  })
})
