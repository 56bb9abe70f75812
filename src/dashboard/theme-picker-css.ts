import { fillDeclarations, THEMES, paletteDeclarations } from '../profiles/design-tokens.ts'

/**
 * Each theme's swatch: its own light and dark tokens (and its primary button's fill) scoped to the
 * swatch's halves, drawn by the rules below. Static, so the dashboard's stylesheet keeps one hash
 * for its CSP. Phone first: three or so swatches a row, names only (descriptions stay for screen
 * readers); from 720 px wider swatches with their line of description.
 */
export const themePickerCss = [
  ...THEMES.map((t) => {
    const scheme = (s: 'light' | 'dark') => `.tp-${t.id} .tp-${s}{${paletteDeclarations(t[s])}${fillDeclarations(t.buttonFill)}}`
    return `.tp-${t.id}{--tp-font:${t.font};--tp-radius:${t.radius};--tp-btn-radius:${t.buttonRadius};--tp-card-border:${t.cardBorder}}${scheme('light')}${scheme('dark')}`
  }),
  '.tp-list{display:grid;grid-template-columns:repeat(auto-fill,minmax(92px,1fr));gap:10px;margin:0 0 12px;padding:0;border:0;min-width:0}',
  // Scrolled to by keyboard or a tap, a swatch stops clear of the apply bar stuck below it.
  '.tp{display:flex;flex-direction:column;gap:4px;padding:6px;border:2px solid var(--line);border-radius:12px;background:var(--surface);scroll-margin:16px 0 96px}',
  '.tp-choice{position:relative;display:flex;flex-direction:column;gap:4px;cursor:pointer}',
  // The radio lies over the whole swatch: a tap anywhere on it chooses.
  '.tp-choice input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}',
  '.tp:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}',
  // Not by colour alone: the chosen swatch wears a tick.
  '.tp-choice:has(input:checked)::after{content:"";position:absolute;top:4px;right:4px;width:18px;height:18px;border-radius:50%;border:2px solid var(--surface);background:var(--accent)}',
  '.tp-choice:has(input:checked)::before{content:"";position:absolute;z-index:1;top:8px;right:10px;width:5px;height:9px;border:solid var(--accent-text);border-width:0 2px 2px 0;transform:rotate(45deg)}',
  '.tp:has(input:focus-visible){outline:3px solid var(--focus);outline-offset:2px}',
  '.tp-halves{display:grid;grid-template-columns:1fr 1fr;border-radius:8px;overflow:hidden;height:64px}',
  '.tp-half{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;padding:6px;background:var(--backdrop),var(--bg);font-family:var(--tp-font)}',
  '.tp-avatar{width:14px;height:14px;border-radius:50%;background:var(--accent)}',
  '.tp-btn{display:block;width:100%;height:12px;border-radius:var(--tp-btn-radius);background:var(--primary-bg);border:2px solid var(--primary-border)}',
  '.tp-card{display:block;width:100%;height:14px;border-radius:min(var(--tp-radius),6px);background:var(--surface);border:var(--tp-card-border);box-shadow:var(--shadow)}',
  '.tp-title{font-weight:650;font-size:0.8125rem;text-align:center;overflow-wrap:normal}',
  '.tp-desc{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
  '.tp-preview{font-size:0.8125rem;text-align:center}',
  // The apply button stays in reach: stuck to the bottom of the screen while the grid scrolls.
  '.tp-apply{position:sticky;bottom:0;z-index:2;display:flex;justify-content:flex-end;margin:0 -20px -20px;padding:12px 20px calc(12px + env(safe-area-inset-bottom));background:var(--surface);border-top:1px solid var(--line);border-radius:0 0 var(--radius) var(--radius)}',
  '@media (min-width:720px){.tp-list{grid-template-columns:repeat(auto-fill,minmax(168px,1fr));gap:14px}.tp{padding:10px}.tp-halves{height:96px}.tp-avatar{width:24px;height:24px}.tp-btn{height:16px}.tp-card{height:22px}.tp-title{text-align:start;font-size:1rem}.tp-preview{text-align:start}.tp-desc{position:static;width:auto;height:auto;overflow:visible;clip:auto;white-space:normal;font-size:0.8125rem;color:var(--muted)}}',
].join('\n')
