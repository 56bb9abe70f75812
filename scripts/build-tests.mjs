// Compiles the tests (and the benchmarks they import) to .test-build/ for `npm run test:unit`, and
// prints the list of test files to run: each test process then loads plain JavaScript instead of
// going through tsx's loader for every module, which cost each of some 230 test processes about
// two seconds of CPU before its first test. Imports of src/ point at the compiled service in dist/
// (scripts/build.mjs, run first). A test that finds files beside itself (import.meta.url and
// .dirname) is compiled with its source's place written in, so the paths it computes stay true.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
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
// Only in test/: a benchmark finds its own compiled siblings (workers) and runs itself again.
const sourcePlace = (path, text) =>
  relative(root, path).startsWith('test/')
    ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)).replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
    : text
await compileModules(await import('esbuild'), { files, outbase: root, outdir: out, relativeImport, source: sourcePlace })

// Longest first: the browser files take a minute or two each and the rest seconds, so starting
// them first leaves the short files to fill the last minutes instead of one browser file running
// alone at the end (scripts/run-tests.mjs keeps this order). A file's size, with the helpers it
// imports that drive the browser, stands in for its length.
const texts = new Map()
const textOf = (file) => texts.get(file) ?? texts.set(file, readFileSync(file, 'utf8')).get(file)
const drivesBrowser = (text) => text.includes('playwright-core')
const weight = (file) => {
  const text = textOf(file)
  const helpers = [...text.matchAll(/^import .* from '(\.\.?\/[^']+\.ts)'/gm)]
    .map((m) => resolve(dirname(file), m[1]))
    .filter((path) => !relative(root, path).startsWith('src/'))
    .map(textOf)
    .filter(drivesBrowser)
  const browser = drivesBrowser(text) || helpers.length > 0
  return (browser ? 1e9 : 0) + text.length + helpers.reduce((sum, h) => sum + h.length, 0)
}
const tests = files
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => ({ f, w: weight(f) }))
  .sort((a, b) => b.w - a.w || a.f.localeCompare(b.f))
  .map(({ f }) => f)
// A test that imports a path it computes may import TypeScript (src/, examples/): it runs from
// its source, through tsx (scripts/tsx-for-ts.mjs).
const importsComputedPath = (file) => /\bimport\(\s*[^'"\s]/.test(textOf(file))
const list = tests.map((f) => relative(root, importsComputedPath(f) ? f : compiled(f)))
console.log(list.join('\n'))
