// Compiles the tests (and the benchmarks they import) to .test-build/ for `npm run test:unit`, and
// prints the list of test files to run: each test process then loads plain JavaScript instead of
// going through tsx's loader for every module, which cost each of some 230 test processes about
// two seconds of CPU before its first test. Imports of src/ point at the compiled service in dist/
// (scripts/build.mjs, run first); a test file that finds files beside itself (import.meta) runs
// from its source through tsx, so the paths it computes stay true.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { root } from './source-fingerprint.mjs'

const out = join(root, '.test-build')
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
const files = ['test', 'bench'].flatMap((dir) => walk(join(root, dir)))
const compiled = (file) => join(out, relative(root, file)).replace(/\.ts$/, '.js')

const { build } = await import('esbuild')
rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: files.filter((f) => f.endsWith('.ts')),
  outbase: root,
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      // Each file alone: a test or bench module imports the compiled sibling, the service's
      // modules from dist/, and anything else (scripts, JSON, workers) where it lies.
      name: 'one-file-per-module',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined
          if (!args.path.startsWith('.')) return { path: args.path, external: true }
          const target = resolve(args.resolveDir, args.path)
          const from = compiled(join(args.resolveDir, 'x.ts'))
          const inTree = relative(root, target)
          if (inTree.startsWith('src/')) return { path: join(root, 'dist', inTree.slice(4)).replace(/\.ts$/, '.js'), external: true }
          const to = target.endsWith('.ts') ? compiled(target) : target
          const spec = relative(dirname(from), to)
          return { path: spec.startsWith('.') ? spec : `./${spec}`, external: true }
        })
      },
    },
  ],
})
for (const file of files.filter((f) => !f.endsWith('.ts'))) {
  mkdirSync(dirname(compiled(file)), { recursive: true })
  copyFileSync(file, compiled(file))
}

const tests = files.filter((f) => f.endsWith('.test.ts')).sort()
const list = tests.map((f) => relative(root, /\bimport\.meta\b/.test(readFileSync(f, 'utf8')) ? f : compiled(f)))
console.log(list.join('\n'))
