// Preloaded into every test process (scripts/run-tests.mjs): tsx's loader only where the file run
// is TypeScript, so the compiled tests load without it.
if (process.argv[1]?.endsWith('.ts')) {
  await import('tsx')
}
