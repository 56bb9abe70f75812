import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { ProfileKeyParam } from '../kernel/schema-helpers.ts'
import { limits } from '../kernel/limits.ts'
import { writableTypes } from '../slots/registry.ts'

/** Every tool that names a page takes it as the REST paths do, an id or a login; agents also send ids as numbers. */
export const ProfileKey = Type.Union(
  [Type.Integer({ minimum: 1 }), Type.String({ minLength: ProfileKeyParam.minLength, maxLength: ProfileKeyParam.maxLength })],
  {
    description: 'The page: its id or login (list_profiles).',
  },
)

/** Precognition for agents: every check runs, nothing is stored. */
export const DryRun = Type.Optional(Type.Boolean({ description: 'true: check everything, store nothing.' }))

/** The same key twice within 24 hours answers the first result again instead of writing twice. */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: limits.idempotencyKeyLength,
    description: 'A retry with the same key answers the first result (24 h).',
  }),
)

/** A write tool's input: its own fields (from the REST body) plus dryRun and idempotencyKey. */
export const writeInput = <P extends TProperties>(properties: P) =>
  Type.Object({ ...properties, dryRun: DryRun, idempotencyKey: IdempotencyKey }, { additionalProperties: false })

/** The fields of a REST body schema, to build a tool input from the same schema. */
export const fieldsOf = <T extends TObject>(schema: T): T['properties'] => schema.properties

/** A slot's `data`, with its fields kept in one place: list_slot_types (and the resources) show each type's. */
const SlotDataByType = (description: string) => Type.Unsafe<Record<string, unknown>>({ type: 'object', description })

/** The types a write tool accepts: the writable ones only (event and form slots are made in the dashboard). */
const WritableType = Type.Unsafe<string>({ type: 'string', enum: writableTypes })

/**
 * One new slot as models see it in the tool list: its type, among the writable ones, and its
 * data, whose fields list_slot_types gives per type. Repeating every type's schema in each
 * tool that takes slots cost more than the rest of the list together.
 */
export function compactNewSlot(): TSchema {
  return Type.Object(
    { type: WritableType, data: Type.Optional(SlotDataByType('The type\'s fields (list_slot_types {"type": …} gives them and an example).')) },
    { additionalProperties: false },
  )
}

/** One slot patch as models see it: id, its type (optional, never changed) and the fields that change. */
export function compactSlotPatch(id: TSchema): TSchema {
  return Type.Object(
    { id, type: Type.Optional(WritableType), data: SlotDataByType("Only the fields that change; list_slot_types gives each type's.") },
    { additionalProperties: false, required: ['id', 'data'] },
  )
}

/**
 * The output schema clients are shown: the tool's own, plus the marks callTool adds (`dryRun`,
 * `replayed` on writes) and the one field of a rate-limit refusal, `retryAfterSeconds`, which
 * then comes alone. SDK v1 clients validate structuredContent even on isError results, so the
 * schema must accept that refusal; a top-level union would read badly, so the usual required
 * fields apply only when `retryAfterSeconds` is absent.
 */
export function advertisedOutput(tool: {
  outputSchema: TObject
  advertiseOutput?: boolean
  annotations: { readOnlyHint: boolean }
}): Record<string, unknown> | undefined {
  if (!tool.advertiseOutput) return undefined
  const { required = [], properties, ...rest } = JSON.parse(JSON.stringify(tool.outputSchema))
  const marks = tool.annotations.readOnlyHint
    ? {}
    : {
        dryRun: { type: 'boolean', const: true, description: 'Present on a dry run: nothing was stored; the rest is what would have been.' },
        replayed: {
          type: 'boolean',
          const: true,
          description: 'Present when an earlier call with the same idempotencyKey did this: nothing was written again.',
        },
      }
  const refusal = {
    retryAfterSeconds: {
      type: 'integer',
      minimum: 1,
      description: 'Only on a call refused by the rate limit (isError): the seconds to wait before calling again.',
    },
  }
  return {
    ...rest,
    // A tool that answers a mark of its own (import_page's dryRun) keeps its own, wider, schema.
    properties: { ...marks, ...properties, ...refusal },
    ...(required.length && { if: { required: ['retryAfterSeconds'] }, else: { required } }),
  }
}
