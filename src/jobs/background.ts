import type { AppContext } from '../context.ts'

type Reporter = Pick<AppContext, 'log' | 'metrics'>

/** Logs and counts an error of work that runs outside any request; the process goes on. */
export function backgroundFailed(ctx: Reporter, task: string, err: unknown): void {
  try {
    ctx.metrics.backgroundErrors.inc({ task })
    ctx.log.error({ err, task }, `${task}: background work failed; the service goes on`)
  } catch {
    // Reporting must never be what ends the process.
  }
}

/**
 * Wraps a callback handed to a timer or setImmediate: a throw there has no caller to reach and
 * would end the process, taking every visitor's request with it.
 */
export function guarded(ctx: Reporter, task: string, fn: () => void): () => void {
  return () => {
    try {
      fn()
    } catch (err) {
      backgroundFailed(ctx, task, err)
    }
  }
}
