import { h, type SafeHtml } from '../../slots/shared/html.ts'
import { slotTypes } from '../../slots/registry.ts'
import type { SlotType } from '../../slots/types.ts'

/**
 * What "Add block" opens, where the new block will go: every type as a named picture with its
 * line of plain words, all from the registry. A plain GET form (?add=type), so it works unscripted.
 */
export function blockPicker(base: string, types: SlotType[]): SafeHtml {
  return h`<section class="ed-picker" id="picker" aria-labelledby="picker-h">
<h3 id="picker-h" tabindex="-1">Choose a block</h3>
<form method="get" action="${base}#panel"><ul class="ed-types">${types.map((t) => {
    const def = slotTypes[t]
    return h`<li><button type="submit" class="ed-type-choice" name="add" value="${t}" aria-describedby="pick-${t}-d" data-focus="pick-${t}"><svg class="ed-glyph" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path d="${def.glyph}"/></svg><span class="ed-type-name">${def.title}</span></button><span class="ed-type-blurb" id="pick-${t}-d">${def.blurb}</span></li>`
  })}</ul></form>
<p><a class="button secondary" href="${base}#ed-add" data-focus="add-block">Cancel</a></p>
</section>`
}

/**
 * The page as visitors will see it, in a phone-sized frame that stays in view beside the editor
 * on a wide screen; on a narrow one the script puts it behind a "Preview" button (without the
 * script it sits under the editor). The script fills it with each change before it is saved.
 */
export function previewAside(base: string): SafeHtml {
  return h`<aside class="ed-preview" id="ed-preview" aria-labelledby="ed-preview-h">
<div class="ed-preview-head"><h2 id="ed-preview-h">Preview</h2><button type="button" class="secondary ed-preview-close" hidden>Close preview</button></div>
<p class="hint">How visitors see your page. It changes as you type; nothing is saved until you press Save.</p>
<div class="ed-phone"><iframe name="ed-preview-frame" src="${base}/preview" title="Preview of your public page"></iframe></div>
</aside>
<button type="button" class="ed-preview-open" aria-controls="ed-preview" aria-expanded="false" hidden>Preview</button>`
}
