import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { ProfileKeyParam } from '../kernel/schema-helpers.ts'
import { limits } from '../kernel/limits.ts'
import { writableTypes, slotTypes } from '../slots/registry.ts'
import { wireSchema } from '../slots/shared/schema-parts.ts'

/** Every tool that names a page takes it as the REST paths do, an id or a login; agents also send ids as numbers. */
export const ProfileKey = Type.Union([Type.Integer({ minimum: 1, description: 'A profile id.' }), ProfileKeyParam], {
  description: 'The page: its numeric id (from list_profiles) or its login.',
})

/** Precognition for agents: every check runs, nothing is stored. */
export const DryRun = Type.Optional(
  Type.Boolean({ description: 'true: run every check and answer what would happen, store nothing. Use it to validate before writing.' }),
)

/** The same key twice within 24 hours answers the first result again instead of writing twice. */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: limits.idempotencyKeyLength,
    description: 'Optional. A retry with the same key and the same arguments answers the first result instead of writing again (24 h).',
  }),
)

/** A write tool's input: its own fields (from the REST body) plus dryRun and idempotencyKey. */
export const writeInput = <P extends TProperties>(properties: P) =>
  Type.Object({ ...properties, dryRun: DryRun, idempotencyKey: IdempotencyKey }, { additionalProperties: false })

/** The fields of a REST body schema, to build a tool input from the same schema. */
export const fieldsOf = <T extends TObject>(schema: T): T['properties'] => schema.properties

/**
 * One new slot as models see it: an object per writable type, `type` fixed and `data` the type's
 * own schema from the registry (never retyped). Nested inside an array, never a top-level union.
 */
export function newSlotChoice(extra: TProperties = {}): TSchema {
  return Type.Union(
    writableTypes.map((type) =>
      Type.Object(
        { type: Type.Literal(type), data: Type.Optional(Type.Unsafe(wireSchema(slotTypes[type].schema))), ...extra },
        { additionalProperties: false, title: slotTypes[type].title },
      ),
    ),
    { description: 'One slot: `type` and its `data` (the resource slotline://slot-types/<type> has the schema and an example).' },
  )
}

/**
 * One slot patch as models see it: per writable type, `id`, the slot's `type` (it cannot change;
 * naming it selects the fields) and `data` with that type's fields, every one optional since
 * data is merged over the current values at the top level.
 */
export function slotPatchChoice(id: TSchema): TSchema {
  return Type.Union(
    writableTypes.map((type) => {
      const { required: _all, ...fields } = wireSchema(slotTypes[type].schema)
      return Type.Object(
        { id, type: Type.Literal(type), data: Type.Unsafe({ ...fields, description: 'Only the fields that change.' }) },
        { additionalProperties: false, title: slotTypes[type].title },
      )
    }),
    { description: 'One slot: its id, its current type, and the data fields that change.' },
  )
}

/**
 * The output schema clients are shown: the tool's own, plus the marks callTool adds (`dryRun`,
 * `replayed` on writes) and the one field of a rate-limit refusal, `retryAfterSeconds`, which
 * then comes alone. SDK v1 clients validate structuredContent even on isError results, so the
 * schema must accept that refusal; a top-level union would read badly, so the usual required
 * fields apply only when `retryAfterSeconds` is absent.
 */
export function advertisedOutput(tool: { outputSchema: TObject; annotations: { readOnlyHint: boolean } }): Record<string, unknown> {
  const { required = [], properties, ...rest } = JSON.parse(JSON.stringify(tool.outputSchema))
  const marks = tool.annotations.readOnlyHint
    ? {}
    : {
        dryRun: { type: 'boolean', const: true, description: 'Present on a dry run: nothing was stored; the rest is what would have been.' },
        replayed: { type: 'boolean', const: true, description: 'Present when an earlier call with the same idempotencyKey did this: nothing was written again.' },
      }
  const refusal = {
    retryAfterSeconds: { type: 'integer', minimum: 1, description: 'Only on a call refused by the rate limit (isError): the seconds to wait before calling again.' },
  }
  return {
    ...rest,
    // A tool that answers a mark of its own (import_page's dryRun) keeps its own, wider, schema.
    properties: { ...marks, ...properties, ...refusal },
    ...(required.length && { if: { required: ['retryAfterSeconds'] }, else: { required } }),
  }
}
