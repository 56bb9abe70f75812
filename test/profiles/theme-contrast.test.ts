import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type Palette, PRIMARY_BUTTON, THEMES } from '../../src/profiles/design-tokens.ts'

// WCAG 2.x contrast, from the design tokens the public page's stylesheet is built from.
type Rgba = [number, number, number, number]

function parse(colour: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour.trim())
  if (hex) {
    const n = Number.parseInt(hex[1], 16)
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1]
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(colour.trim())
  if (fn) {
    const [r, g, b, a = 1] = fn[1].split(',').map(Number)
    return [r, g, b, a]
  }
  throw new Error(`not a colour the test reads: ${colour}`)
}

/** A translucent colour (Glass's cards) as seen over what lies under it. */
function over(top: string, under: string): string {
  const [r, g, b, a] = parse(top)
  const [R, G, B] = parse(under)
  return `rgb(${r * a + R * (1 - a)}, ${g * a + G * (1 - a)}, ${b * a + B * (1 - a)})`
}

/** Relative luminance (WCAG 2.x definition). */
function luminance(colour: string): number {
  const [r, g, b] = parse(colour)
  const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** The page's background: its solid colour and every solid stop of the gradient painted over it. */
const pageColours = (p: Palette) => [...new Set([p.bg, ...(p.backdrop.match(/#[0-9a-f]{6}\b/gi) ?? [])])]

interface Pair {
  what: string
  fg: string
  bg: string
  min: number
}

/** Every pair the public page draws from a palette, with the ratio WCAG asks of it. */
function pairs(p: Palette, fill: keyof typeof PRIMARY_BUTTON): Pair[] {
  const surface = over(p.surface, p.bg)
  const button = PRIMARY_BUTTON[fill]
  // No fill: the button's text sits on the page itself.
  const buttonFill = button.bg ? over(p[button.bg], p.bg) : p.bg
  const out: Pair[] = []
  for (const page of pageColours(p)) {
    out.push(
      { what: `name and links (onBg) on the page ${page}`, fg: p.onBg, bg: page, min: 4.5 },
      { what: `bio and footer (onBgMuted) on the page ${page}`, fg: p.onBgMuted, bg: page, min: 4.5 },
      // WCAG 1.4.11: what identifies the button, its edge where it draws one, else its fill.
      {
        what: `primary button's ${button.edge ? `edge (${button.edge})` : `fill (${button.bg})`} against the page ${page}`,
        fg: button.edge ? p[button.edge] : buttonFill,
        bg: page,
        min: 3,
      },
    )
  }
  out.push(
    { what: `primary button's title (${button.fg}) on its fill`, fg: p[button.fg], bg: buttonFill, min: 4.5 },
    { what: `primary button's subtitle (${button.sub}) on its fill`, fg: p[button.sub], bg: buttonFill, min: 4.5 },
    { what: 'event links and music pills (onAccent on accent)', fg: p.onAccent, bg: p.accent, min: 4.5 },
    { what: 'card text on the card', fg: p.text, bg: surface, min: 4.5 },
    { what: 'card muted text on the card', fg: p.muted, bg: surface, min: 4.5 },
    { what: 'form errors on the card', fg: p.error, bg: surface, min: 4.5 },
    { what: 'music rows (text on subtle)', fg: p.text, bg: over(p.subtle, surface), min: 4.5 },
  )
  return out
}

describe('every theme’s colours meet WCAG AA contrast, light and dark', () => {
  it('reads contrast the way WCAG defines it', () => {
    assert.equal(contrast('#000000', '#ffffff'), 21)
    assert.equal(contrast('#777777', '#777777'), 1)
    assert.equal(Math.round(contrast('#767676', '#ffffff') * 100) / 100, 4.54)
    assert.equal(over('rgba(255, 255, 255, 0.5)', '#000000'), 'rgb(127.5, 127.5, 127.5)')
  })

  it('covers all twelve themes', () => assert.equal(THEMES.length, 12))

  for (const theme of THEMES) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${theme.name} ${scheme}`, () => {
        const failing = pairs(theme[scheme], theme.buttonFill)
          .map((pair) => ({ ...pair, ratio: contrast(pair.fg, pair.bg) }))
          .filter((pair) => pair.ratio < pair.min)
          .map((pair) => `${pair.what}: ${pair.fg} on ${pair.bg} is ${pair.ratio.toFixed(2)}:1, needs ${pair.min}:1`)
        assert.deepEqual(failing, [])
      })
    }
  }
})
