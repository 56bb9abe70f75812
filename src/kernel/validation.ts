// The one validator of the service: request bodies, slot data and any face's input go through
// these Ajv instances, so every face names the same fields with the same messages.
import type { TSchema } from '@sinclair/typebox'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { type AppError, type FieldErrors, invalid } from './errors.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

function makeAjv(coerce: boolean): Ajv {
  // Strict bodies: no coercion, no silent removal of unknown keys, every error at once.
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: false,
    removeAdditional: false,
    strict: false,
    // Errors carry their schema and value, so a message can name what was wrong (CommaList).
    verbose: true,
  })
  addFormats(ajv)
  // `link`: a web address, mailto, tel or whatsapp link. It tells the document (and generated
  // clients) what the field holds; the domain's own check judges it, with its own messages.
  ajv.addFormat('link', true)
  // `color`: a CSS colour (slot styles); checked by the slot type's own rule, as `link` is.
  ajv.addFormat('color', true)
  return ajv
}

export const bodyAjv = makeAjv(false)
export const queryAjv = makeAjv(true)

const cache = new WeakMap<object, ValidateFunction>()
/**
 * Compiles a schema once (on first use) with the strict body validator. The function refuses an
 * object with far more keys than any schema allows before Ajv walks it (see tooManyKeys).
 */
export function compileBody(schema: TSchema): ValidateFunction {
  let fn = cache.get(schema)
  if (!fn) cache.set(schema, (fn = withKeyLimit(bodyAjv.compile(schema))))
  return fn
}

function withKeyLimit(validate: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown) => {
    const crowded = tooManyKeys(data)
    guarded.errors = crowded ? [crowded] : null
    if (crowded) return false
    const ok = validate(data)
    guarded.errors = validate.errors
    return ok
  }) as ValidateFunction
  return Object.assign(guarded, { schema: validate.schema, schemaEnv: validate.schemaEnv, source: validate.source })
}

/**
 * No schema of the service allows more than a few dozen keys in one object. With `allErrors`,
 * Ajv names every unknown key of an object, so 200,000 of them (2.3 MB, under the body limit)
 * cost a second of validation and megabytes of answer: such an object is refused as one error at
 * its own path, before any walk.
 */
export const MAX_OBJECT_KEYS = 1000

function tooManyKeys(data: unknown): ErrorObject | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value: data, path: '' }]
  while (stack.length) {
    const { value, path } = stack.pop()!
    if (typeof value !== 'object' || value === null) continue
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object' && value[i] !== null) stack.push({ value: value[i], path: `${path}/${i}` })
      continue
    }
    let n = 0
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue
      if (++n > MAX_OBJECT_KEYS) {
        return {
          keyword: 'maxProperties',
          instancePath: path,
          schemaPath: '#/maxProperties',
          params: { limit: MAX_OBJECT_KEYS, count: Object.keys(value).length },
        }
      }
      const child = (value as Record<string, unknown>)[key]
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` })
    }
  }
  return undefined
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, any>
  switch (e.keyword) {
    case 'required':
      return 'This field is required.'
    case 'additionalProperties':
      return 'Unknown field: remove it.'
    case 'maxLength':
      return `Must be at most ${p.limit} characters.`
    case 'minLength':
      return p.limit === 1 ? 'Must not be empty.' : `Must be at least ${p.limit} characters.`
    case 'maxProperties':
      return p.count === undefined
        ? `Must have at most ${p.limit} fields.`
        : `Has ${p.count} fields; at most ${p.limit} are read here, far more than any request has.`
    case 'maxItems':
      return `Must have at most ${p.limit} items.`
    case 'minItems':
      return `Must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`
    case 'maximum':
      return `Must be at most ${p.limit}.`
    case 'minimum':
      return `Must be at least ${p.limit}.`
    case 'enum':
      return `Must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`
    case 'const':
      return `Must be ${JSON.stringify(p.allowedValue)}.`
    case 'type':
      return `Must be ${String(p.type).replace(',', ' or ')}.`
    case 'pattern':
      return commaListMessage(e) ?? e.parentSchema?.['x-pattern-message'] ?? `Must match the pattern ${p.pattern}.`
    case 'format':
      return `Must be a valid ${p.format}.`
    case 'uniqueItems':
      return 'Items must be unique.'
    case 'anyOf':
    case 'oneOf':
      return literalChoices(e.schema) ?? 'Does not match any allowed shape.'
    default:
      return e.message ?? 'Is invalid.'
  }
}

/** A union of literals (TypeBox's Union of Literal) names its values, as an enum would. */
function literalChoices(branches: unknown): string | undefined {
  if (!Array.isArray(branches) || !branches.every((b) => b && typeof b === 'object' && 'const' in b)) return undefined
  return `Must be one of: ${branches.map((b) => String(b.const)).join(', ')}.`
}

function commaListMessage(e: ErrorObject): string | undefined {
  const known = e.parentSchema?.['x-comma-list'] as string[] | undefined
  if (!known || typeof e.data !== 'string') return undefined
  const unknown = e.data
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w && !known.includes(w))
  return `Unknown value${unknown.length === 1 ? '' : 's'} ${unknown.map((u) => JSON.stringify(u)).join(', ')}: use ${known.join(', ')}.`
}

const pointerToKey = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')

/**
 * Ajv errors → `{ "items.0.path": ["..."] }`. Unknown and missing keys are named by their own
 * key, not their parent's. A failed anyOf (nullable fields) reports one message, not one per branch.
 */
export function ajvErrorsToFields(errors: ErrorObject[] | null | undefined, prefix = '', rootName = 'body'): FieldErrors {
  const list = errors ?? []
  const unions = new Set(list.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath))
  // No prototype: a body key named "constructor" or "__proto__" must be a field like any other.
  const out: FieldErrors = Object.create(null)
  for (const e of list) {
    let pointer = e.instancePath
    if (e.keyword === 'required') pointer += `/${(e.params as any).missingProperty}`
    else if (e.keyword === 'additionalProperties') pointer += `/${(e.params as any).additionalProperty}`
    else if (unions.has(pointer) && e.keyword !== 'anyOf' && e.keyword !== 'oneOf') {
      // A branch of a union failed; keep it only when it says more than "wrong type".
      if (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum') continue
    }
    const key = prefix + (pointerToKey(pointer) || rootName)
    const message = describe(e)
    const bucket = (out[key] ??= [])
    if (!bucket.includes(message)) bucket.push(message)
  }
  // A union failing only because of a deeper branch error already named: drop the vague message.
  for (const [key, messages] of Object.entries(out)) {
    if (messages.length > 1) out[key] = messages.filter((m) => m !== 'Does not match any allowed shape.')
  }
  return out
}

export function validationError(errors: ErrorObject[] | null | undefined, prefix = '', rootName = 'body'): AppError {
  return invalid(ajvErrorsToFields(errors, prefix, rootName))
}
