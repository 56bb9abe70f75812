/**
 * The design tokens of every public-page theme, in one place: the public page's stylesheet is
 * built from them, and the dashboard's theme picker previews them. Fonts are system font stacks
 * only (no third-party font host, no request). A profile's `themeId` picks one; an id we do not
 * know falls back to the first, so a theme can be retired without breaking a page.
 */

/** Colours of one colour scheme (light or dark). Text pairs are chosen for WCAG AA contrast. */
export interface Palette {
  /** The page's solid background (also the browser's theme-color). */
  bg: string
  /** Painted over `bg`: a gradient, or 'none'. */
  backdrop: string
  /** Text and icons sitting directly on the page background (name, bio, footer). */
  onBg: string
  onBgMuted: string
  /** Cards: text blocks, event, music, forms, FAQ. */
  surface: string
  text: string
  muted: string
  line: string
  /** Quiet fills inside a card (music rows). */
  subtle: string
  /** The theme colour: primary buttons, event links, music "Play" pills. */
  accent: string
  onAccent: string
  field: string
  fieldBorder: string
  focus: string
  /** Form problems: readable on `surface`. */
  error: string
  shadow: string
}

/** How the primary button is filled; the named button styles keep their own colours. */
export type ButtonFill = 'solid' | 'outline' | 'soft' | 'hard'

export interface Theme {
  id: number
  name: string
  /** One line for the picker. */
  description: string
  font: string
  headingFont: string
  headingWeight: number
  /** Card corner radius and the default button radius (custom buttons bring their own). */
  radius: string
  buttonRadius: string
  buttonFill: ButtonFill
  /** Cards' border (brutal and editorial themes draw one; others rely on the shadow). */
  cardBorder: string
  /** Frosted cards over the profile's background image (the image becomes the page's backdrop). */
  glass: boolean
  light: Palette
  dark: Palette
}

export const FONT_STACKS = Object.freeze({
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  humanist: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif',
  geometric: 'Avenir, Montserrat, Corbel, "URW Gothic", source-sans-pro, sans-serif',
  rounded:
    'ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", "Arial Rounded MT Bold", Calibri, source-sans-pro, sans-serif',
  transitional: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, serif',
  oldStyle: '"Iowan Old Style", "Palatino Linotype", "URW Palladio L", P052, serif',
  didone: 'Didot, "Bodoni MT", "Noto Serif Display", "URW Palladio L", P052, Sylfaen, serif',
  mono: 'ui-monospace, "Cascadia Code", "Source Code Pro", Menlo, Consolas, "DejaVu Sans Mono", monospace',
  industrial: 'Bahnschrift, "DIN Alternate", "Franklin Gothic Medium", "Nimbus Sans Narrow", sans-serif-condensed, sans-serif',
})

const soft = (rgb: string, a1 = 0.06, a2 = 0.07) => `0 1px 2px rgba(${rgb}, ${a1}), 0 6px 18px rgba(${rgb}, ${a2})`

const palette = (p: Omit<Palette, 'backdrop' | 'onBg' | 'onBgMuted' | 'field' | 'focus' | 'error'> & Partial<Palette>): Palette => ({
  backdrop: 'none',
  error: '#b3261e',
  onBg: p.text,
  onBgMuted: p.muted,
  field: p.surface,
  focus: '#2f6fed',
  ...p,
})

/** Dark schemes: the same defaults, with a light error red that reads on dark cards. */
const darkPalette = (p: Parameters<typeof palette>[0]): Palette => palette({ error: '#ffb4ab', ...p })

const base = {
  font: FONT_STACKS.system,
  headingFont: FONT_STACKS.system,
  headingWeight: 750,
  radius: '18px',
  buttonRadius: '14px',
  buttonFill: 'solid' as ButtonFill,
  cardBorder: '0',
  glass: false,
}

/** The themes, in picker order. Ids are stored in profiles: never renumber, only add. */
export const THEMES: readonly Theme[] = Object.freeze([
  {
    ...base,
    id: 1,
    name: 'Paper',
    description: 'Warm off-white, ink-black buttons; charcoal at night.',
    light: palette({
      bg: '#f3f1ec',
      backdrop: 'radial-gradient(120% 60% at 50% 0%, #fbfaf7 0%, #f3f1ec 60%)',
      surface: '#ffffff',
      text: '#1d1d22',
      muted: '#5b5b66',
      line: 'rgba(29, 29, 34, 0.12)',
      subtle: '#f3f1ec',
      accent: '#1d1d22',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(29, 29, 34, 0.34)',
      shadow: soft('29, 29, 34'),
    }),
    dark: darkPalette({
      bg: '#141417',
      backdrop: 'radial-gradient(120% 60% at 50% 0%, #202026 0%, #141417 60%)',
      surface: '#1f1f24',
      text: '#f1efe9',
      muted: '#b4b2ad',
      line: 'rgba(241, 239, 233, 0.14)',
      subtle: '#2a2a31',
      accent: '#f1efe9',
      onAccent: '#141417',
      fieldBorder: 'rgba(241, 239, 233, 0.36)',
      focus: '#8fb3ff',
      shadow: soft('0, 0, 0', 0.3, 0.35),
    }),
  },
  {
    ...base,
    id: 2,
    name: 'Midnight',
    description: 'Deep indigo night sky, violet pills, geometric type.',
    font: FONT_STACKS.geometric,
    headingFont: FONT_STACKS.geometric,
    buttonRadius: '999px',
    light: palette({
      bg: '#eeecfb',
      backdrop: 'linear-gradient(180deg, #f6f5ff 0%, #e6e2fb 100%)',
      surface: '#ffffff',
      text: '#1c1842',
      muted: '#545077',
      line: 'rgba(28, 24, 66, 0.12)',
      subtle: '#efedfc',
      accent: '#5b45e0',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(28, 24, 66, 0.34)',
      shadow: soft('40, 30, 120', 0.06, 0.1),
    }),
    dark: darkPalette({
      bg: '#0e0c24',
      backdrop:
        'radial-gradient(90% 70% at 20% 0%, #2c2470 0%, transparent 60%), radial-gradient(80% 60% at 100% 100%, #3b1f5e 0%, transparent 55%), linear-gradient(180deg, #0e0c24, #13102e)',
      surface: '#1b1840',
      text: '#efedff',
      muted: '#bab5e3',
      line: 'rgba(239, 237, 255, 0.14)',
      subtle: '#262255',
      accent: '#a79bff',
      onAccent: '#120f2c',
      fieldBorder: 'rgba(239, 237, 255, 0.36)',
      focus: '#ffd166',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
  {
    ...base,
    id: 3,
    name: 'Sunset',
    description: 'Peach-to-rose gradient, white pill buttons edged in rose, humanist type.',
    font: FONT_STACKS.humanist,
    headingFont: FONT_STACKS.humanist,
    buttonRadius: '999px',
    buttonFill: 'soft',
    light: palette({
      bg: '#ffd9c2',
      backdrop: 'linear-gradient(160deg, #ffe3c7 0%, #ffc2b4 45%, #f6a6c8 100%)',
      onBg: '#3a1420',
      onBgMuted: '#5e2a37',
      surface: '#fffaf6',
      text: '#3a1420',
      muted: '#6e3c48',
      line: 'rgba(58, 20, 32, 0.12)',
      subtle: '#ffece3',
      accent: '#b5294e',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(58, 20, 32, 0.34)',
      focus: '#1f4fd1',
      shadow: soft('120, 40, 60', 0.08, 0.12),
    }),
    dark: darkPalette({
      bg: '#2a1020',
      backdrop: 'linear-gradient(160deg, #3b1526 0%, #2a1020 50%, #1b0c2a 100%)',
      onBg: '#ffe8ef',
      onBgMuted: '#f0bccb',
      surface: '#3a1a2b',
      text: '#ffe8ef',
      muted: '#e6b5c3',
      line: 'rgba(255, 232, 239, 0.14)',
      subtle: '#4a2336',
      accent: '#ff8fab',
      onAccent: '#2a1020',
      fieldBorder: 'rgba(255, 232, 239, 0.36)',
      focus: '#ffd166',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
  {
    ...base,
    id: 4,
    name: 'Forest',
    description: 'Moss and fern greens with old-style serif headings.',
    headingFont: FONT_STACKS.oldStyle,
    headingWeight: 700,
    radius: '12px',
    buttonRadius: '10px',
    light: palette({
      bg: '#e8eee4',
      backdrop: 'linear-gradient(180deg, #f2f5ef 0%, #dfe8da 100%)',
      surface: '#fbfcf9',
      text: '#17301f',
      muted: '#4a5f4f',
      line: 'rgba(23, 48, 31, 0.13)',
      subtle: '#eaf0e6',
      accent: '#2f6b3f',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(23, 48, 31, 0.36)',
      shadow: soft('23, 48, 31'),
    }),
    dark: darkPalette({
      bg: '#0f1a13',
      backdrop: 'linear-gradient(180deg, #15251a 0%, #0f1a13 100%)',
      surface: '#18281d',
      text: '#e5efe3',
      muted: '#a9bfa9',
      line: 'rgba(229, 239, 227, 0.14)',
      subtle: '#213426',
      accent: '#8fd19e',
      onAccent: '#0f1a13',
      fieldBorder: 'rgba(229, 239, 227, 0.36)',
      focus: '#ffd166',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
  {
    ...base,
    id: 5,
    name: 'Ocean',
    description: 'Sky-to-sea blues, soft rounded cards.',
    radius: '22px',
    buttonRadius: '18px',
    light: palette({
      bg: '#dcefff',
      backdrop: 'linear-gradient(180deg, #eaf6ff 0%, #cde6fb 55%, #b7dcf5 100%)',
      onBg: '#0b2a45',
      onBgMuted: '#2e4d68',
      surface: '#ffffff',
      text: '#0b2a45',
      muted: '#47607a',
      line: 'rgba(11, 42, 69, 0.12)',
      subtle: '#eaf4fd',
      accent: '#0b62b0',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(11, 42, 69, 0.34)',
      focus: '#b4235a',
      shadow: soft('11, 60, 110', 0.06, 0.1),
    }),
    dark: darkPalette({
      bg: '#06192b',
      backdrop: 'linear-gradient(180deg, #0a2540 0%, #06192b 60%, #041220 100%)',
      surface: '#0e2a45',
      text: '#e4f2ff',
      muted: '#a4c0da',
      line: 'rgba(228, 242, 255, 0.14)',
      subtle: '#153555',
      accent: '#6cc4ff',
      onAccent: '#04162a',
      fieldBorder: 'rgba(228, 242, 255, 0.36)',
      focus: '#ffd166',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
  {
    ...base,
    id: 6,
    name: 'Brutal',
    description: 'Loud yellow, thick black outlines, hard shadows, square corners.',
    font: FONT_STACKS.system,
    headingFont: FONT_STACKS.industrial,
    headingWeight: 800,
    radius: '4px',
    buttonRadius: '4px',
    buttonFill: 'hard',
    cardBorder: '3px solid var(--text)',
    light: palette({
      bg: '#ffe45e',
      surface: '#ffffff',
      text: '#000000',
      muted: '#333333',
      line: 'rgba(0, 0, 0, 0.3)',
      subtle: '#fff6c7',
      accent: '#ff5c8a',
      onAccent: '#000000',
      fieldBorder: '#000000',
      focus: '#1f4fd1',
      shadow: '5px 5px 0 #000000',
    }),
    dark: darkPalette({
      bg: '#1a1a1a',
      surface: '#262626',
      text: '#ffffff',
      muted: '#d0d0d0',
      line: 'rgba(255, 255, 255, 0.35)',
      subtle: '#333333',
      accent: '#ffe45e',
      onAccent: '#000000',
      fieldBorder: '#ffffff',
      focus: '#7fb0ff',
      shadow: '5px 5px 0 #ffe45e',
    }),
  },
  {
    ...base,
    id: 7,
    name: 'Mono',
    description: 'Black and white, outlined buttons, wide-tracked headings.',
    headingWeight: 800,
    radius: '6px',
    buttonRadius: '6px',
    buttonFill: 'outline',
    cardBorder: '1px solid var(--line)',
    light: palette({
      bg: '#ffffff',
      surface: '#ffffff',
      text: '#000000',
      muted: '#555555',
      line: 'rgba(0, 0, 0, 0.16)',
      subtle: '#f4f4f4',
      accent: '#000000',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(0, 0, 0, 0.5)',
      shadow: 'none',
    }),
    dark: darkPalette({
      bg: '#000000',
      surface: '#000000',
      text: '#ffffff',
      muted: '#b0b0b0',
      line: 'rgba(255, 255, 255, 0.22)',
      subtle: '#161616',
      accent: '#ffffff',
      onAccent: '#000000',
      fieldBorder: 'rgba(255, 255, 255, 0.55)',
      focus: '#8fb3ff',
      shadow: 'none',
    }),
  },
  {
    ...base,
    id: 8,
    name: 'Neon',
    description: 'Terminal dark with cyan glow and monospace type; pale grid by day.',
    font: FONT_STACKS.mono,
    headingFont: FONT_STACKS.mono,
    headingWeight: 700,
    radius: '8px',
    buttonRadius: '8px',
    buttonFill: 'outline',
    cardBorder: '1px solid var(--line)',
    light: palette({
      bg: '#eef9fb',
      backdrop:
        'linear-gradient(rgba(0, 110, 130, 0.06) 1px, transparent 1px) 0 0 / 24px 24px, linear-gradient(90deg, rgba(0, 110, 130, 0.06) 1px, transparent 1px) 0 0 / 24px 24px',
      surface: '#ffffff',
      text: '#06262d',
      muted: '#3d5a61',
      line: 'rgba(0, 110, 130, 0.3)',
      subtle: '#e3f5f8',
      accent: '#006e82',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(0, 110, 130, 0.6)',
      focus: '#c2185b',
      shadow: '0 0 0 1px rgba(0, 110, 130, 0.08)',
    }),
    dark: darkPalette({
      bg: '#070b14',
      backdrop: 'radial-gradient(70% 50% at 50% 0%, rgba(24, 215, 255, 0.16), transparent 70%)',
      surface: '#0d1424',
      text: '#e6fbff',
      muted: '#9cc9d4',
      line: 'rgba(24, 215, 255, 0.45)',
      subtle: '#111c31',
      accent: '#18d7ff',
      onAccent: '#04111a',
      fieldBorder: 'rgba(24, 215, 255, 0.6)',
      focus: '#ff4fd8',
      shadow: '0 0 18px rgba(24, 215, 255, 0.18)',
    }),
  },
  {
    ...base,
    id: 9,
    name: 'Candy',
    description: 'Pastel pink and lilac, rounded type, pill buttons.',
    font: FONT_STACKS.rounded,
    headingFont: FONT_STACKS.rounded,
    radius: '26px',
    buttonRadius: '999px',
    light: palette({
      bg: '#fde7f3',
      backdrop: 'linear-gradient(135deg, #ffe4f1 0%, #efe3ff 50%, #dff3ff 100%)',
      onBg: '#3b1740',
      onBgMuted: '#62406a',
      surface: '#ffffff',
      text: '#3b1740',
      muted: '#6b4a72',
      line: 'rgba(59, 23, 64, 0.12)',
      subtle: '#fbeefa',
      accent: '#a3307f',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(59, 23, 64, 0.34)',
      shadow: soft('120, 40, 120', 0.06, 0.1),
    }),
    dark: darkPalette({
      bg: '#24142b',
      backdrop: 'linear-gradient(135deg, #2f1737 0%, #231737 50%, #162238 100%)',
      surface: '#321e3c',
      text: '#fbe9ff',
      muted: '#dcbde6',
      line: 'rgba(251, 233, 255, 0.14)',
      subtle: '#3f2749',
      accent: '#ff9ed8',
      onAccent: '#2a0f25',
      fieldBorder: 'rgba(251, 233, 255, 0.36)',
      focus: '#ffd166',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
  {
    ...base,
    id: 10,
    name: 'Editorial',
    description: 'Magazine cream, serif text, ruled cards, square buttons.',
    font: FONT_STACKS.transitional,
    headingFont: FONT_STACKS.didone,
    headingWeight: 700,
    radius: '2px',
    buttonRadius: '2px',
    cardBorder: '1px solid var(--line)',
    light: palette({
      bg: '#f7f2e7',
      surface: '#fffdf8',
      text: '#221b12',
      muted: '#5c5142',
      line: 'rgba(34, 27, 18, 0.22)',
      subtle: '#f3ecdd',
      accent: '#8a1c1c',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(34, 27, 18, 0.45)',
      shadow: 'none',
    }),
    dark: darkPalette({
      bg: '#1b1712',
      surface: '#221d17',
      text: '#f2eadb',
      muted: '#c3b59f',
      line: 'rgba(242, 234, 219, 0.22)',
      subtle: '#2c261e',
      accent: '#f0a58f',
      onAccent: '#1b1712',
      fieldBorder: 'rgba(242, 234, 219, 0.45)',
      focus: '#8fb3ff',
      shadow: 'none',
    }),
  },
  {
    ...base,
    id: 11,
    name: 'Glass',
    description: 'Your background image behind frosted-glass cards.',
    radius: '22px',
    buttonRadius: '16px',
    glass: true,
    light: palette({
      bg: '#c9d6e8',
      backdrop: 'linear-gradient(135deg, #a8c0ff 0%, #f0c9e4 50%, #ffe3b3 100%)',
      onBg: '#10182b',
      onBgMuted: '#2c3650',
      surface: 'rgba(255, 255, 255, 0.78)',
      text: '#10182b',
      muted: '#39435c',
      line: 'rgba(16, 24, 43, 0.14)',
      subtle: 'rgba(255, 255, 255, 0.7)',
      accent: '#10182b',
      onAccent: '#ffffff',
      field: 'rgba(255, 255, 255, 0.9)',
      fieldBorder: 'rgba(16, 24, 43, 0.34)',
      shadow: '0 8px 30px rgba(16, 24, 43, 0.14)',
    }),
    dark: darkPalette({
      bg: '#0c1220',
      backdrop: 'linear-gradient(135deg, #1b2a4a 0%, #2d1b3e 50%, #3a2a16 100%)',
      onBg: '#f2f5ff',
      onBgMuted: '#c9d0e6',
      surface: 'rgba(16, 22, 38, 0.74)',
      text: '#f2f5ff',
      muted: '#c0c8df',
      line: 'rgba(242, 245, 255, 0.16)',
      subtle: 'rgba(255, 255, 255, 0.08)',
      accent: '#f2f5ff',
      onAccent: '#0c1220',
      field: 'rgba(16, 22, 38, 0.85)',
      fieldBorder: 'rgba(242, 245, 255, 0.36)',
      focus: '#ffd166',
      shadow: '0 8px 30px rgba(0, 0, 0, 0.35)',
    }),
  },
  {
    ...base,
    id: 12,
    name: 'Terracotta',
    description: 'Sun-baked clay and sand, humanist type, gently rounded.',
    font: FONT_STACKS.humanist,
    headingFont: FONT_STACKS.oldStyle,
    headingWeight: 700,
    radius: '14px',
    buttonRadius: '12px',
    light: palette({
      bg: '#f1e4d8',
      backdrop: 'linear-gradient(180deg, #f6ece2 0%, #ecd9c8 100%)',
      surface: '#fffaf5',
      text: '#3b2116',
      muted: '#6b4d3f',
      line: 'rgba(59, 33, 22, 0.13)',
      subtle: '#f5e9de',
      accent: '#a8462a',
      onAccent: '#ffffff',
      fieldBorder: 'rgba(59, 33, 22, 0.36)',
      shadow: soft('90, 45, 25'),
    }),
    dark: darkPalette({
      bg: '#1e1410',
      backdrop: 'linear-gradient(180deg, #2a1b14 0%, #1e1410 100%)',
      surface: '#2b1d16',
      text: '#f7e7db',
      muted: '#d1b3a0',
      line: 'rgba(247, 231, 219, 0.14)',
      subtle: '#38261d',
      accent: '#f2a07b',
      onAccent: '#24150e',
      fieldBorder: 'rgba(247, 231, 219, 0.36)',
      focus: '#8fb3ff',
      shadow: soft('0, 0, 0', 0.3, 0.4),
    }),
  },
])

/** The theme a profile shows: its own, or the default for an id no theme has (any more). */
export function themeById(id: number): Theme {
  return THEMES.find((t) => t.id === id) ?? THEMES[0]
}

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** `--name: value;` declarations of a palette. */
export function paletteDeclarations(p: Palette): string {
  return Object.entries(p)
    .map(([k, v]) => `--${kebab(k)}:${v};`)
    .join('')
}

/** Declarations that do not change with the colour scheme. */
function shapeDeclarations(t: Theme): string {
  return [
    `--font:${t.font};`,
    `--heading-font:${t.headingFont};`,
    `--heading-weight:${t.headingWeight};`,
    `--radius:${t.radius};`,
    `--btn-radius:${t.buttonRadius};`,
    `--card-border:${t.cardBorder};`,
    `--card-blur:${t.glass ? 'blur(14px) saturate(1.4)' : 'none'};`,
    fillDeclarations(t.buttonFill),
  ].join('')
}

/**
 * The palette colours the primary button wears under each fill: its fill (`null`: none, the page
 * shows through), title, subtitle, and the edge it draws (`null`: none). The public page's button
 * styles read them as `--primary-*` (src/slots/shared/style.ts), and the contrast test checks them
 * for every theme: the title against the fill, the fill (or the edge, where one is drawn) against
 * the page. Named styles (bright, very-red, custom…) set their own colours on every theme.
 */
export const PRIMARY_BUTTON: Readonly<Record<ButtonFill, { bg: keyof Palette | null; fg: keyof Palette; sub: keyof Palette; edge: keyof Palette | null }>> =
  Object.freeze({
    solid: { bg: 'accent', fg: 'onAccent', sub: 'onAccent', edge: null },
    outline: { bg: null, fg: 'onBg', sub: 'onBgMuted', edge: 'onBg' },
    // A pale pill on a pale page: the theme colour draws its edge, so it stands out from the page.
    soft: { bg: 'surface', fg: 'text', sub: 'muted', edge: 'accent' },
    hard: { bg: 'accent', fg: 'onAccent', sub: 'onAccent', edge: 'text' },
  })

const colourVar = (key: keyof Palette | null) => (key ? `var(--${kebab(key)})` : 'transparent')

/**
 * How buttons fill under each theme, as tokens the button styles read: `--primary-*` for the
 * primary style, `--button-*` for the edge of every button (the hard fill outlines them all).
 */
export function fillDeclarations(fill: ButtonFill): string {
  const c = PRIMARY_BUTTON[fill]
  const primary = `--primary-bg:${colourVar(c.bg)};--primary-fg:${colourVar(c.fg)};--primary-sub:${colourVar(c.sub)};--primary-border:${colourVar(c.edge)};`
  if (fill === 'outline') return `${primary}--primary-shadow:none;`
  if (fill === 'hard') return `${primary}--button-border:${colourVar(c.edge)};--button-shadow:4px 4px 0 ${colourVar(c.edge)};`
  return primary
}

/** The theme's part of the stylesheet: tokens for light, then dark under prefers-color-scheme. */
export function themeTokensCss(t: Theme): string {
  return [
    `:root{color-scheme:light dark;${shapeDeclarations(t)}${paletteDeclarations(t.light)}}`,
    `@media (prefers-color-scheme:dark){:root{${paletteDeclarations(t.dark)}}}`,
  ].join('\n')
}

/**
 * The dashboard's tokens: the default theme's palettes, light and dark, so the two faces of the
 * service share one source and cannot drift apart (src/dashboard/layout.ts prepends `tokensCss`).
 */
const dashboardPalette = (p: Theme['light'], danger: string, success: string) => ({
  bg: p.bg,
  surface: p.surface,
  text: p.text,
  muted: p.muted,
  line: p.line,
  accent: p.accent,
  accentText: p.onAccent,
  danger,
  success,
  focus: p.focus,
  shadow: p.shadow,
})

export const designTokens = Object.freeze({
  ...dashboardPalette(THEMES[0].light, '#b3261e', '#17784a'),
  radius: '16px',
  font: THEMES[0].font,
})

/** The dark palette, for people whose system is set to dark: the danger red light enough to read on it. */
export const darkDesignTokens = Object.freeze(dashboardPalette(THEMES[0].dark, THEMES[0].dark.error, '#7fd6a0'))

const declarations = (tokens: Record<string, string>) =>
  Object.entries(tokens)
    .map(([name, value]) => `  --${kebab(name)}: ${value};`)
    .join('\n')

/** `:root { --bg: …; --accent-text: … }`, then the dark palette under prefers-color-scheme. */
export const tokensCss = `:root {\n${declarations(designTokens)}\n  color-scheme: light dark;\n}\n@media (prefers-color-scheme: dark) {\n:root {\n${declarations(darkDesignTokens)}\n}\n}\n`
