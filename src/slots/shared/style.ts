import { type TSchema, Type } from '@sinclair/typebox'
import { nullable, strictObject, stringEnum } from './schema.ts'

/** spec, button and form: the named colour styles, `custom` last. */
export const BUTTON_STYLES = [
  'primary',
  'bright',
  'light',
  'classic-dark',
  'dull-gray',
  'very-red',
  'honey-yellow',
  'money-green',
  'grass-green',
  'social-blue',
  'outdated-coral',
  'seems-lilac',
  'pinkish',
  'custom',
] as const
export type ButtonStyle = (typeof BUTTON_STYLES)[number]

export const BUTTON_STYLE_LABELS: Record<ButtonStyle, string> = {
  primary: 'Primary (the theme colour)',
  bright: 'Bright',
  light: 'Light',
  'classic-dark': 'Classic dark',
  'dull-gray': 'Dull gray',
  'very-red': 'Very red',
  'honey-yellow': 'Honey yellow',
  'money-green': 'Money green',
  'grass-green': 'Grass green',
  'social-blue': 'Social blue',
  'outdated-coral': 'Outdated coral',
  'seems-lilac': 'Seems lilac',
  pinkish: 'Pinkish',
  custom: 'Custom colours (see customize)',
}

export const buttonStyle = (description: string) => stringEnum(BUTTON_STYLES, { default: 'primary', description })

const color = (fallback: string, what: string) =>
  Type.String({ maxLength: 32, default: fallback, description: `${what}: a CSS colour (#RRGGBB, rgb(), hsl() or a name).` })

const radius = Type.Integer({ minimum: 0, maximum: 50, default: 12, description: 'Corner radius in pixels.' })

export const ButtonCustomize = strictObject({
  backgroundColor: color('#424248', 'Background'),
  textColor: color('#FFFFFF', 'Title text'),
  subtitleColor: color('#E0E7FF', 'Subtitle text'),
  borderRadius: radius,
})

export const FormCustomize = strictObject({
  backgroundColor: color('#424248', 'Background'),
  textColor: color('#FFFFFF', 'Text'),
  borderRadius: radius,
})

export const customizeField = <T extends TSchema>(schema: T) =>
  nullable(schema, {
    default: null,
    description: 'Required when style is custom (send {} for the defaults); stored as null for every other style.',
  })

// A colour ends up in a style attribute: only shapes that cannot carry another declaration.
const CSS_COLOR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgb|rgba|hsl|hsla)\(\s*[0-9.%\s,/+-]+\)|[a-z]{3,30})$/i
const isCssColor = (value: string) => CSS_COLOR.test(value.trim())

/**
 * The style rule shared by button and form: `customize` is required for `custom` (colours
 * checked) and null for every other style. Returns the stored customize and field problems.
 */
export function normaliseCustomize<C extends Record<string, unknown>>(
  style: string,
  customize: C | null,
): { customize: C | null; errors: Record<string, string[]> } {
  if (style !== 'custom') return { customize: null, errors: {} }
  if (!customize) {
    return { customize: null, errors: { customize: ['Required when style is custom: send an object ({} takes the default colours).'] } }
  }
  const errors: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(customize)) {
    if (typeof value === 'string' && !isCssColor(value)) errors[`customize.${key}`] = ['Must be a CSS colour like #424248, rgb(66, 66, 72) or a colour name.']
  }
  return { customize, errors }
}

/** CSS custom properties for a custom style (colours re-checked: this string lands in style=""). */
export function customStyleAttr(customize: Record<string, unknown> | null): string {
  if (!customize) return ''
  const vars: string[] = []
  const names: Record<string, string> = {
    backgroundColor: '--slot-bg',
    textColor: '--slot-fg',
    subtitleColor: '--slot-sub',
  }
  for (const [key, prop] of Object.entries(names)) {
    const v = customize[key]
    if (typeof v === 'string' && isCssColor(v)) vars.push(`${prop}:${v.trim()}`)
  }
  if (Number.isInteger(customize.borderRadius)) vars.push(`--slot-radius:${customize.borderRadius}px`)
  return vars.join(';')
}
