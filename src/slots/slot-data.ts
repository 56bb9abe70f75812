import type { TSchema } from '@sinclair/typebox'
import type { ErrorObject } from 'ajv'
import { Value } from '@sinclair/typebox/value'
import type { FieldErrors } from '../kernel/errors.ts'
import { ajvErrorsToFields, compileBody } from '../kernel/validation.ts'
import type { AnySlotTypeDef, FileRef } from './types.ts'
import { wireSchema } from './shared/schema-parts.ts'
import { SlotRuleError } from './types.ts'

export type DataCheck = { ok: true; data: Record<string, unknown>; files: FileRef[] } | { ok: false; errors: FieldErrors }

const computedPathCache = new WeakMap<AnySlotTypeDef, Set<string>>()

/** Leaf paths of a computed schema, arrays as `*`: `url`, `items.*.src`, `links.*.icon`. */
function computedPaths(def: AnySlotTypeDef): Set<string> {
  let paths = computedPathCache.get(def)
  if (paths) return paths
  paths = new Set()
  const walk = (schema: any, prefix: string) => {
    if (schema?.type === 'object' && schema.properties) {
      for (const [key, child] of Object.entries(schema.properties)) walk(child, prefix ? `${prefix}.${key}` : key)
    } else if (schema?.type === 'array' && schema.items) walk(schema.items, `${prefix}.*`)
    else if (prefix) paths!.add(prefix)
  }
  walk(def.computed, '')
  computedPathCache.set(def, paths)
  return paths
}

const UNKNOWN = 'Unknown field: remove it.'
const VAGUE = 'Does not match any allowed shape.'
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Field errors keyed relative to data (`items.0.path`): computed names say so, vague union noise goes. */
function explain(def: AnySlotTypeDef, errors: FieldErrors): FieldErrors {
  const computed = computedPaths(def)
  const out: FieldErrors = Object.create(null)
  const keys = Object.keys(errors)
  // A failed union (divider's {} | [], customize's object | null) whose cause is named deeper says nothing more.
  const explained = (key: string) => keys.some((k) => k !== key && (key === '' || k.startsWith(`${key}.`)))
  for (const [key, messages] of Object.entries(errors)) {
    if (messages.every((m) => m === VAGUE) && explained(key)) continue
    const shape = key.replace(/\.\d+(?=\.|$)/g, '.*')
    out[key] = computed.has(shape)
      ? messages.map((m) =>
          m === UNKNOWN
            ? `"${key.split('.').pop()}" is computed by the server (read it from computed.${shape.replace(/\.\*/g, '[]')}); remove it from data.`
            : m,
        )
      : messages
  }
  return out
}

const prefixed = (errors: FieldErrors, prefix: string): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k ? `${prefix}.${k}` : prefix, v]))

/**
 * One slot's data through its type: defaults, the type's JSON Schema (the same strict Ajv as
 * request bodies), then its rules. Errors come back keyed under `prefix` (`data`, `slots.3.data`),
 * every one at once; nothing here touches the store.
 */
export function checkSlotData(def: AnySlotTypeDef, input: unknown, prefix: string): DataCheck {
  // A JSON round trip: the caller's value stays untouched, and keys like __proto__ stay plain data.
  const value: unknown = input === undefined ? {} : JSON.parse(JSON.stringify(input))
  // TypeBox fills defaults into objects only; other shapes go to the validator as sent.
  if (isPlainObject(value)) Value.Default(def.schema as TSchema, value)
  const validate = compileBody(wireSchema(def.schema) as TSchema)
  if (!validate(value)) {
    const errors = prefixed(explain(def, ajvErrorsToFields(validate.errors, '', '')), prefix)
    // When unknown keys are the only problem, the type's rules still run on the rest, so one
    // answer names every problem (an unknown key and a bad link together).
    const rest = withoutUnknownKeys(value, validate.errors ?? [])
    if (rest !== undefined && validate(rest)) {
      const rules = runRules(def, rest, prefix)
      if (!rules.ok) Object.assign(errors, rules.errors)
    }
    return { ok: false, errors }
  }
  const rules = runRules(def, value, prefix)
  if (!rules.ok) return rules
  return { ok: true, data: rules.data, files: def.files?.(rules.data) ?? [] }
}

function runRules(def: AnySlotTypeDef, value: unknown, prefix: string): { ok: true; data: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  try {
    return { ok: true, data: def.normalise(value) as Record<string, unknown> }
  } catch (err) {
    if (err instanceof SlotRuleError) return { ok: false, errors: prefixed(err.errors, prefix) }
    throw err
  }
}

/** A copy without the unknown keys Ajv named, or undefined when other problems remain. */
function withoutUnknownKeys(value: unknown, errors: ErrorObject[]): unknown {
  if (!errors.every((e) => e.keyword === 'additionalProperties')) return undefined
  const copy = JSON.parse(JSON.stringify(value))
  for (const e of errors) {
    const parent = e.instancePath
      .split('/')
      .slice(1)
      .reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], copy)
    if (parent && typeof parent === 'object') delete parent[(e.params as { additionalProperty: string }).additionalProperty]
  }
  return copy
}
