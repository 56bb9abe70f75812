// One JavaScript file per TypeScript file, every import kept an import, and the other files copied
// beside them: the service's build (dist/) and the tests' (.test-build/) both compile this way.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/**
 * Compiles `files` under `outbase` into `outdir` (emptied first). `relativeImport(args)` answers
 * where a relative import of a compiled module points (esbuild's onResolve arguments); packages
 * stay imports of their name. `source(path, text)`, when given, may rewrite a module's text first.
 */
export async function compileModules(esbuild, { files, outbase, outdir, relativeImport, source }) {
  rmSync(outdir, { recursive: true, force: true })
  await esbuild.build({
    entryPoints: files.filter((f) => f.endsWith('.ts')),
    outbase,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        // "Bundle" each file alone, so nothing is inlined: every import stays an import.
        name: 'one-file-per-module',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined
            return { path: args.path.startsWith('.') ? relativeImport(args) : args.path, external: true }
          })
          if (source) build.onLoad({ filter: /\.ts$/ }, (args) => ({ contents: source(args.path, readFileSync(args.path, 'utf8')), loader: 'ts' }))
        },
      },
    ],
  })
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    const target = join(outdir, relative(outbase, file))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(file, target)
  }
}
