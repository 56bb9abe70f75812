import { type TObject, type TSchema, Type } from '@sinclair/typebox'

/** `{data: T}`: the success envelope of a single resource or list. */
export const DataOf = <T extends TSchema>(data: T, description?: string) => Type.Object({ data }, { additionalProperties: false, description })

/** `{data: T, meta: M}`. */
export const DataWithMeta = <T extends TSchema, M extends TObject>(data: T, meta: M) => Type.Object({ data, meta }, { additionalProperties: false })

export const ErrorEnvelope = Type.Object(
  {
    message: Type.String({ description: 'What went wrong and what to do next.' }),
    code: Type.String({ description: 'Machine-readable error code, e.g. not_found, validation_failed.' }),
    errors: Type.Union([Type.Record(Type.String(), Type.Array(Type.String())), Type.Null()], {
      description: 'Field key → messages; keys look like data.items.0.path or slots.3.data.link.',
    }),
    documentation: Type.String({ description: 'Link to this error in the API reference.' }),
  },
  { additionalProperties: false },
)

// The core's, where every face takes it from; kept under this name for the route rows.
export { ProfileKeyParam } from '../kernel/schema-helpers.ts'
