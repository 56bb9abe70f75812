// Compiles src/ to dist/ for `npm start` when dist/ is missing or older than the sources: one
// JavaScript file per TypeScript file (so migrations stay files and import.meta.url still finds
// the assets beside each module), with the non-TypeScript assets copied alongside. Type-checking
// is `npm run typecheck`'s job; this only strips types, which is why it takes well under a second.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileModules } from './compile-modules.mjs'
import { root, sourceFiles, sourceFingerprint, stampFile } from './source-fingerprint.mjs'

const src = join(root, 'src')
const out = join(root, 'dist')
const force = process.argv.includes('--force')

const files = sourceFiles()
const fingerprint = sourceFingerprint(files)
let built = ''
try {
  built = readFileSync(stampFile, 'utf8')
} catch {}
if (!force && built === fingerprint) process.exit(0)

let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  console.error('build: esbuild is missing (it comes with the dev dependency tsx): run `npm ci`, or ship a built dist/.')
  process.exit(1)
}
const started = Date.now()
const sources = files.filter((f) => f.endsWith('.ts'))
// Relative imports point at the compiled .js sibling.
await compileModules(esbuild, { files, outbase: src, outdir: out, relativeImport: (args) => args.path.replace(/\.ts$/, '.js') })
writeFileSync(stampFile, fingerprint)
console.error(`build: compiled ${sources.length} files from src/ to dist/ in ${Date.now() - started} ms`)
