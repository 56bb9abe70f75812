/**
 * A value inside slot data by the dotted field a slot type names it with (`items.0.path`, see
 * slots/types.ts FileRef). Only plain own keys are followed: names come from the type modules,
 * but the data may come from a file.
 */
export function setAtPath(data: Record<string, unknown>, field: string, value: unknown): void {
  const keys = field.split('.')
  let node: unknown = data
  for (const key of keys.slice(0, -1)) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return
    node = (node as Record<string, unknown>)[key]
  }
  const last = keys[keys.length - 1]
  if (node && typeof node === 'object' && Object.hasOwn(node, last)) (node as Record<string, unknown>)[last] = value
}
