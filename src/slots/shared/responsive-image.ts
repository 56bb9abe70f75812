import type { RenderContext } from '../types.ts'
import type { SafeHtml } from './html.ts'

export interface ImageOptions {
  /** The upload's path (the page's facts are looked up by it) and its public URL (computed). */
  path: string
  src: string
  alt: string
  /** The `sizes` of the WebP source: how wide the image shows at each viewport width. */
  sizes: string
  /** Load at once (the page's first images) rather than when scrolled near. */
  eager: boolean
}

/**
 * An uploaded image: a `<picture>` whose WebP source offers the variants by
 * width and falls back to the upload itself; width and height reserve its space before it loads
 * (no layout shift). Without facts (older uploads, a context that has none) it is a plain img.
 */
export function responsiveImage(r: RenderContext, o: ImageOptions): SafeHtml {
  const facts = r.image?.(o.path)
  const size = facts ? r.h` width="${facts.width}" height="${facts.height}"` : ''
  const loading = o.eager ? r.h` loading="eager"` : r.h` loading="lazy" decoding="async"`
  const img = r.h`<img src="${o.src}" alt="${o.alt}"${size}${loading}>`
  if (!facts?.webp.length) return img
  // Public file URLs are percent-encoded, so no comma or space can split a candidate.
  const srcset = facts.webp.map((v) => `${v.src} ${v.width}w`).join(', ')
  return r.h`<picture><source type="image/webp" srcset="${srcset}" sizes="${o.sizes}">${img}</picture>`
}
