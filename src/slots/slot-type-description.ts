import { wireSchema } from './shared/schema-parts.ts'
import { VisibilityInput } from './shared/visibility.ts'
import type { AnySlotTypeDef } from './types.ts'

/**
 * A slot type as its readers see it: GET /slot-types and the MCP slot-type resources give the
 * same document, so an agent learns the same thing from either face.
 */
export const describeSlotType = (def: AnySlotTypeDef) => ({
  type: def.type,
  title: def.title,
  description: def.description,
  writable: def.writable,
  schema: wireSchema(def.schema),
  computed: wireSchema(def.computed),
  enumLabels: def.enumLabels,
  example: def.example as Record<string, unknown>,
  // The same for every type, stated with each so a reader of one type learns it.
  visibility: wireSchema(VisibilityInput),
})
