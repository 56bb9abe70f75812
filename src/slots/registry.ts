import button from './button.ts'
import divider from './divider.ts'
import event from './event.ts'
import faq from './faq.ts'
import form from './form.ts'
import gallery from './gallery.ts'
import music from './music.ts'
import picture from './picture.ts'
import text from './text.ts'
import type { AnySlotTypeDef, SlotType } from './types.ts'
import youtube from './youtube.ts'

/**
 * Every slot type, by name. Validation, /slot-types, OpenAPI, public pages, markdown and MCP read
 * this one table; the Record type makes the compiler demand an entry for each SlotType.
 */
export const slotTypes: Readonly<Record<SlotType, AnySlotTypeDef>> = Object.freeze({
  button,
  picture,
  gallery,
  text,
  youtube,
  faq,
  divider,
  event,
  music,
  form,
})

/** The registry entry of a stored type, or undefined for a legacy type (supported: false). */
export const slotTypeOf = (type: string): AnySlotTypeDef | undefined => (Object.hasOwn(slotTypes, type) ? slotTypes[type as SlotType] : undefined)

/** The types the API can create and edit. */
export const writableTypes = (Object.keys(slotTypes) as SlotType[]).filter((t) => slotTypes[t].writable)

/**
 * The music type with its exact schema, for the music lookup (music/), which builds music slots:
 * it reaches the type through the registry like every other reader, not the module itself.
 */
export const musicSlotType = music
