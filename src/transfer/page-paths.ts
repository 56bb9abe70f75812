import type { AnySlotTypeDef } from '../slots/types.ts'

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

/**
 * The data field a record slot names its record by (the one `record(data).id` reads), found
 * from the type's own `record` rather than by name, so no type is named outside its module.
 */
export function recordIdField(def: AnySlotTypeDef, data: Record<string, unknown>): string | undefined {
  const ref = def.record?.(data as never)
  if (!ref) return undefined
  return Object.keys(data).find((key) => {
    if (data[key] !== ref.id || typeof data[key] !== 'number') return false
    return def.record!({ ...data, [key]: ref.id + 1 } as never).id === ref.id + 1
  })
}
