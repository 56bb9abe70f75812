import { presentedJson } from '../core/presented-slots.ts'

/**
 * The envelope `{"data": …}` as JSON, reusing the JSON of presented slots (core/
 * presented-slots.ts) instead of serialising them again: the slot list itself, or a profile
 * whose last key is `slots`. Undefined when the result holds no presented slots.
 */
export function envelopeJson(result: unknown): string | undefined {
  const whole = presentedJson(result)
  if (whole !== undefined) return `{"data":${whole}}`
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined
  const { slots, ...rest } = result as { slots?: unknown }
  const json = presentedJson(slots)
  if (json === undefined) return undefined
  const head = JSON.stringify(rest)
  return `{"data":${head.length > 2 ? `${head.slice(0, -1)},` : '{'}"slots":${json}}}`
}
