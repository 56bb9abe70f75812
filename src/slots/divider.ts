import { Type } from '@sinclair/typebox'
import { strictObject } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'

export default defineSlotType({
  type: 'divider',
  title: 'Divider',
  blurb: 'A thin line to separate parts of your page.',
  glyph: 'M3 12h18M8 8h8M8 16h8',
  description: 'A horizontal line between blocks. It has no fields: send {} (or []) as data, or leave data out.',
  writable: true,
  schema: Type.Union([strictObject({}), Type.Array(Type.Unknown(), { maxItems: 0 })], {
    description: 'No fields: an empty object or an empty array.',
  }),
  computed: strictObject({}),
  enumLabels: {},
  example: {},
  // [] and {} are the same divider; it is stored as {}.
  normalise: () => ({}),
  compute: () => ({}),
  html: (_s, r) => r.h`<hr class="slot slot-divider">`,
  markdown: () => '---',

  css: [
    `.block > .slot-divider {
  width: 40%;
  margin: 6px auto;
  border: 0;
  border-top: 1px solid var(--on-bg-muted);
  opacity: 0.5;
}`,
  ],
})
