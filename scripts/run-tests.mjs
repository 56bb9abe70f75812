// `npm run test:unit`'s runner: runs the test files given, three at a time, in the order given.
// `node --test` sorts the files it is handed by path, which put the compiled files (.test-build/)
// before those run from source (test/) and left browser files that take one to two minutes each
// for the end, one running alone; scripts/build-tests.mjs prints them longest first instead.
// The spec reporter ends with the list of failures, so the last lines of a log say what failed.
import { run } from 'node:test'
import { spec } from 'node:test/reporters'

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: node scripts/run-tests.mjs <test file>…')
  process.exit(2)
}
let failed = false
const stream = run({ files, concurrency: 3, timeout: 600_000 })
stream.on('test:fail', (event) => {
  if (!event.todo) failed = true
})
stream.compose(new spec()).pipe(process.stdout)
process.on('exit', () => {
  if (failed) process.exitCode = 1
})
