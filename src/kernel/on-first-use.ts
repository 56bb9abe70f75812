import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A CommonJS package loaded when it is first needed rather than at start: mail, HTML cleaning,
 * domain lists and example generation serve only some requests, and a resting process should not
 * hold them (a fresh start is kept under its memory bound by test/idle-memory.test.ts).
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined
  return () => {
    loaded ??= require(name) as T
    return loaded
  }
}
