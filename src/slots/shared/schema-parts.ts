import { type SchemaOptions, type TObject, type TProperties, type TSchema, type TUnsafe, Type } from '@sinclair/typebox'

/** A strict data object: unknown keys are 422 (spec, Slot data by type). */
export const strictObject = <P extends TProperties>(properties: P, options: SchemaOptions = {}): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...options })

/** An optional string field with a length bound, stored as '' when omitted. */
export const text = (maxLength: number, description: string, options: SchemaOptions = {}) => Type.String({ maxLength, default: '', description, ...options })

/** An optional link field (`''` = none), normalised like a button link. */
export const optionalLink = (description: string) =>
  Type.String({
    maxLength: 2048,
    default: '',
    description: `${description} Empty for none. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp.`,
  })

/**
 * A string enum as JSON Schema `enum` (not an anyOf of consts), so a wrong value is one error
 * saying "Must be one of: …" rather than one per allowed value.
 */
export const stringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions & { default?: T[number] } = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })

/** `T | null`, with the default and description on the union itself. */
export const nullable = <T extends TSchema>(schema: T, options: SchemaOptions = {}) => Type.Union([schema, Type.Null()], options)

const wireCache = new WeakMap<TSchema, Record<string, unknown>>()

/**
 * The JSON Schema clients see and writes are validated with: the TypeBox schema without its
 * symbols, and with every field that has a default left out of `required` (the server fills it).
 * The TypeBox schema itself keeps those fields required, so code after the defaults sees them typed.
 */
export function wireSchema(schema: TSchema): Record<string, unknown> {
  let wire = wireCache.get(schema)
  if (wire) return wire
  const relax = (node: any): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const child of node) relax(child)
      return
    }
    if (node.properties && Array.isArray(node.required)) {
      node.required = node.required.filter((key: string) => !('default' in (node.properties[key] ?? {})))
      if (!node.required.length) delete node.required
    }
    for (const value of Object.values(node)) relax(value)
  }
  wire = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>
  relax(wire)
  wireCache.set(schema, wire)
  return wire
}
