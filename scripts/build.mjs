// Compiles src/ to dist/ for `npm start` when dist/ is missing or older than the sources: one
// JavaScript file per TypeScript file (so migrations stay files and import.meta.url still finds
// the assets beside each module), with the non-TypeScript assets copied alongside. Type-checking
// is `npm run typecheck`'s job; this only strips types, which is why it takes well under a second.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
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
rmSync(out, { recursive: true, force: true })
const sources = files.filter((f) => f.endsWith('.ts'))
await esbuild.build({
  entryPoints: sources,
  outbase: src,
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      // "Bundle" each file alone: every import stays an import, relative ones pointing at the
      // compiled .js sibling.
      name: 'one-file-per-module',
      setup(build) {
        build.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined
          if (args.path.startsWith('.')) return { path: args.path.replace(/\.ts$/, '.js'), external: true }
          return { path: args.path, external: true }
        })
      },
    },
  ],
})
for (const file of files.filter((f) => !f.endsWith('.ts'))) {
  const target = join(out, relative(src, file))
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(file, target)
}
writeFileSync(stampFile, fingerprint)
console.error(`build: compiled ${sources.length} files from src/ to dist/ in ${Date.now() - started} ms`)
