import { FormatRegistry, type TSchema, Type } from '@sinclair/typebox'
import { nullable, strictObject, stringEnum } from './schema-parts.ts'

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

// `format: 'color'` tells the document and the dashboard editor (a colour picker) what the field
// holds; normaliseCustomize below judges the value, so the format itself accepts any string (here
// for TypeBox, whose defaults check unions by it; in kernel/validation.ts for Ajv).
FormatRegistry.Set('color', () => true)
const color = (fallback: string, what: string) =>
  Type.String({ maxLength: 32, default: fallback, format: 'color', description: `${what}: a CSS colour (#RRGGBB, rgb(), hsl() or a name).` })

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

/**
 * The fixed colour pair of each named style (background, title, subtitle, and a border where a
 * pale fill needs one): the same on every theme and in both modes.
 */
const NAMED_COLOURS: Record<Exclude<ButtonStyle, 'primary' | 'custom'>, { bg: string; fg: string; sub: string; border?: string }> = {
  bright: { bg: 'linear-gradient(120deg, #e8461f, #d61f69)', fg: '#ffffff', sub: '#ffe9ef' },
  light: { bg: '#ffffff', fg: '#1d1d22', sub: '#55555f', border: 'rgba(29, 29, 34, 0.12)' },
  'classic-dark': { bg: '#000000', fg: '#ffffff', sub: '#d0d0d6' },
  'dull-gray': { bg: '#62626b', fg: '#ffffff', sub: '#ececf0' },
  'very-red': { bg: '#c8231b', fg: '#ffffff', sub: '#ffe3e1' },
  'honey-yellow': { bg: '#f6c42b', fg: '#2a2100', sub: '#4a3b06' },
  'money-green': { bg: '#17784a', fg: '#ffffff', sub: '#dcf5e8' },
  'grass-green': { bg: '#7ccc3f', fg: '#17260a', sub: '#25400f' },
  'social-blue': { bg: '#1662d0', fg: '#ffffff', sub: '#e1ecff' },
  'outdated-coral': { bg: '#ff8571', fg: '#2b0f0a', sub: '#4a1d15' },
  'seems-lilac': { bg: '#cbb8ff', fg: '#211542', sub: '#3b2b6b' },
  pinkish: { bg: '#ffc4da', fg: '#3d0f22', sub: '#5e1f39' },
}

/**
 * The page rules of every button in a named style: the button slot and the form's two buttons
 * (its button view and its submit button). `primary` takes the theme's fill, `custom` the slot's
 * own colours (customStyleAttr); every other style is a fixed colour pair that keeps its look on
 * every theme, in both modes. Every selector is one class deep, so the style classes, which come
 * after, win over the base rule on every button.
 */
export const BUTTON_CSS = `/* The theme's fill (design-tokens.ts) sets every button's edge and the primary style's colours. */
.slot-button,
.slot-form-button,
.slot-form-submit {
  --btn-bg: var(--accent);
  --btn-fg: var(--on-accent);
  --btn-sub: var(--on-accent);
  --btn-border: var(--button-border, transparent);
  --btn-shadow: var(--button-shadow, var(--shadow));
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 2px;
  width: 100%;
  min-height: 58px;
  padding: 12px 22px;
  border: 2px solid var(--btn-border);
  border-radius: var(--slot-radius, var(--btn-radius));
  background: var(--btn-bg);
  color: var(--btn-fg);
  font: inherit;
  font-weight: 650;
  text-align: center;
  text-decoration: none;
  box-shadow: var(--btn-shadow);
  cursor: pointer;
  transition: transform 0.15s ease, box-shadow 0.15s ease;
}
.slot-button:hover,
.slot-form-button:hover,
.slot-form-submit:hover {
  transform: translateY(-2px);
}
.style-primary {
  --btn-bg: var(--primary-bg, var(--accent));
  --btn-fg: var(--primary-fg, var(--on-accent));
  --btn-sub: var(--primary-sub, var(--on-accent));
  --btn-border: var(--primary-border, var(--button-border, transparent));
  --btn-shadow: var(--primary-shadow, var(--button-shadow, var(--shadow)));
}
${Object.entries(NAMED_COLOURS)
  .map(
    ([name, c]) =>
      `.style-${name} {\n  --btn-bg: ${c.bg};\n  --btn-fg: ${c.fg};\n  --btn-sub: ${c.sub};\n${c.border ? `  --btn-border: ${c.border};\n` : ''}}\n`,
  )
  .join('')}/* The slot's own colours, set as custom properties in its style attribute. */
.style-custom {
  --btn-bg: var(--slot-bg, #424248);
  --btn-fg: var(--slot-fg, #ffffff);
  --btn-sub: var(--slot-sub, #e0e7ff);
}
@media (prefers-reduced-motion: reduce) {
  .slot-button,
  .slot-form-button,
  .slot-form-submit {
    transition: none;
  }
}`

/** The editor's words for a button's own colours (SlotTypeDef.fieldWords), shared by the types that have them. */
export const CUSTOMIZE_WORDS = {
  customize: { label: 'Your own colours', hint: 'Used when the style is Custom.' },
  'customize.borderRadius': { label: 'Corner roundness', hint: 'In pixels: 0 for square corners, 24 for round ones.' },
} as const
