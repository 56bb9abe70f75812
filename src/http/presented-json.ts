import { presentedJson } from '../infra/presented-slots.ts'

// The envelope's bytes, kept beside the presented slots they hold (a frozen list, one per slots
// revision) and dropped with them: a read of the same page sends the same bytes without
// joining and encoding 17 KB of JSON again (a 50-slot page, bench/profile-read.ts). A profile's
// own fields are small; they are serialised on every read and the bytes reused while equal.
const listBytes = new WeakMap<object, Buffer>()
const profileBytes = new WeakMap<object, { head: string; bytes: Buffer }>()
// A frozen answer cannot change: its bytes are kept beside it (a page with its slots, which the
// use case gives again while the page and its slots stay the same).
const frozenBytes = new WeakMap<object, Buffer>()

/**
 * The envelope `{"data": …}` as JSON bytes, reusing the JSON of presented slots (core/
 * presented-slots.ts) instead of serialising them again: the slot list itself, or a profile
 * whose last key is `slots`. Undefined when the result holds no presented slots.
 */
export function envelopeJson(result: unknown): Buffer | undefined {
  const whole = presentedJson(result)
  if (whole !== undefined) {
    const list = result as object
    let bytes = listBytes.get(list)
    if (!bytes) {
      bytes = Buffer.from(`{"data":${whole}}`)
      listBytes.set(list, bytes)
    }
    return bytes
  }
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined
  const frozen = Object.isFrozen(result)
  if (frozen) {
    const bytes = frozenBytes.get(result)
    if (bytes) return bytes
  }
  const { slots, ...rest } = result as { slots?: unknown }
  const json = presentedJson(slots)
  if (json === undefined) return undefined
  const head = JSON.stringify(rest)
  const kept = profileBytes.get(slots as object)
  let bytes = kept?.head === head ? kept.bytes : undefined
  if (!bytes) {
    bytes = Buffer.from(`{"data":${head.length > 2 ? `${head.slice(0, -1)},` : '{'}"slots":${json}}}`)
    profileBytes.set(slots as object, { head, bytes })
  }
  if (frozen) frozenBytes.set(result, bytes)
  return bytes
}
