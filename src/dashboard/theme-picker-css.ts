import { THEMES, paletteDeclarations } from '../profiles/design-tokens.ts'

/**
 * Each theme's swatch: its own light and dark tokens scoped to the swatch's halves, drawn by the
 * rules below. Static, so the dashboard's stylesheet keeps one hash for its CSP.
 */
export const themePickerCss = [
  ...THEMES.map(
    (t) =>
      `.tp-${t.id}{--tp-font:${t.font};--tp-heading:${t.headingFont};--tp-radius:${t.radius};--tp-btn-radius:${t.buttonRadius};--tp-card-border:${t.cardBorder}}` +
      `.tp-${t.id} .tp-light{${paletteDeclarations(t.light)}}.tp-${t.id} .tp-dark{${paletteDeclarations(t.dark)}}`,
  ),
  '.tp-list{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:14px;margin:0 0 14px;padding:0;border:0}',
  '.tp{position:relative;display:flex;flex-direction:column;gap:6px;padding:10px;border:2px solid var(--line);border-radius:14px;background:var(--surface)}',
  '.tp-choice{display:flex;flex-direction:column;gap:6px;cursor:pointer}',
  '.tp:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}',
  '.tp:has(input:focus-visible){outline:3px solid var(--focus);outline-offset:2px}',
  '.tp input{position:absolute;opacity:0;pointer-events:none}',
  '.tp-halves{display:grid;grid-template-columns:1fr 1fr;border-radius:10px;overflow:hidden;height:124px}',
  '.tp-half{display:flex;flex-direction:column;align-items:center;gap:5px;padding:12px 8px;background:var(--backdrop),var(--bg);color:var(--on-bg);font-family:var(--tp-font)}',
  '.tp-avatar{width:26px;height:26px;border-radius:50%;background:var(--accent)}',
  '.tp-name{font:700 0.8125rem/1.2 var(--tp-heading)}',
  '.tp-btn{display:block;width:100%;height:14px;border-radius:var(--tp-btn-radius);background:var(--accent)}',
  '.tp-card{display:block;width:100%;height:22px;border-radius:min(var(--tp-radius),8px);background:var(--surface);border:var(--tp-card-border);box-shadow:var(--shadow)}',
  '.tp-title{font-weight:650}',
  '.tp-desc{font-size:0.8125rem;color:var(--muted)}',
  '.tp-preview{font-size:0.8125rem}',
].join('\n')
