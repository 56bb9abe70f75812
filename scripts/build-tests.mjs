// Compiles the tests (and the benchmarks they import) to .test-build/ for `npm run test:unit`, and
// prints the list of test files to run: each test process then loads plain JavaScript instead of
// going through tsx's loader for every module, which cost each of some 230 test processes about
// two seconds of CPU before its first test. Imports of src/ point at the compiled service in dist/
// (scripts/build.mjs, run first); a test file that finds files beside itself (import.meta) runs
// from its source through tsx, so the paths it computes stay true.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { compileModules } from './compile-modules.mjs'
import { root } from './source-fingerprint.mjs'

const out = join(root, '.test-build')
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
const files = ['test', 'bench'].flatMap((dir) => walk(join(root, dir)))
const compiled = (file) => join(out, relative(root, file)).replace(/\.ts$/, '.js')

// A test or bench module imports the compiled sibling, the service's modules from dist/, and
// anything else (scripts, JSON, workers) where it lies.
function relativeImport(args) {
  const target = resolve(args.resolveDir, args.path)
  const inTree = relative(root, target)
  if (inTree.startsWith('src/')) return join(root, 'dist', inTree.slice(4)).replace(/\.ts$/, '.js')
  const spec = relative(dirname(compiled(join(args.resolveDir, 'x.ts'))), target.endsWith('.ts') ? compiled(target) : target)
  return spec.startsWith('.') ? spec : `./${spec}`
}
await compileModules(await import('esbuild'), { files, outbase: root, outdir: out, relativeImport })

const tests = files.filter((f) => f.endsWith('.test.ts')).sort()
const list = tests.map((f) => relative(root, /\bimport\.meta\b/.test(readFileSync(f, 'utf8')) ? f : compiled(f)))
console.log(list.join('\n'))
