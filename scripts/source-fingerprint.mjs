// What dist/ was built from: names, sizes and modification times of every source file and of the
// build script, so any edit, added or removed file changes it. Shared by the build and by the
// tests, which run the built service only when it matches the sources.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const stampFile = join(root, 'dist', '.source-fingerprint')

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
}

/** Every file under src/, sorted. */
export function sourceFiles() {
  return walk(join(root, 'src')).sort()
}

export function sourceFingerprint(files = sourceFiles()) {
  const hash = createHash('sha256')
  for (const file of [...files, join(root, 'scripts', 'build.mjs'), join(root, 'scripts', 'compile-modules.mjs')]) {
    const { size, mtimeMs } = statSync(file)
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`)
  }
  return hash.digest('hex')
}

/** True when dist/ holds a build of the sources as they are now. */
export function builtIsCurrent() {
  try {
    return readFileSync(stampFile, 'utf8') === sourceFingerprint()
  } catch {
    return false
  }
}
