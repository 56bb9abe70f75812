import { render, type User, type WriteOptions } from '../../core/use-cases.ts'
import { pageSecurityHeaders } from '../../rendering/page-security-headers.ts'
import { pageStyle } from '../../rendering/theme.ts'
import type { PageInput } from '../page-routes.ts'

// The editor's live preview. An editor form posted with ?preview=1 (the script does it as the
// person types, into the preview frame) runs the same use case as its Save, as a dry run, and
// answers the page as that write would leave it, drawn by the public page's own renderer inside
// the rolled-back transaction. Nothing is stored; there is no second renderer to drift.

/** The public page in the preview frame: the page's own security headers, framed by the editor alone, never cached. */
export function sendPreviewPage(p: PageInput<User>, html: string, themeId: number) {
  const headers = pageSecurityHeaders(p.ctx.config.publicUrl, pageStyle(themeId).hash)
  headers['content-security-policy'] = headers['content-security-policy'].replace("frame-ancestors 'none'", "frame-ancestors 'self'")
  return p.reply
    .headers({ ...headers, 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' })
    .type('text/html; charset=utf-8')
    .send(html)
}

export interface LivePreview {
  /** The options to run the write with: a dry run that renders the page before rolling back. */
  options: WriteOptions
  /**
   * The rendered page; or, when the write was refused (a draft that does not save yet), 204, so
   * the frame keeps showing the last page that did.
   */
  answer: () => unknown
}

/** The live preview asked for by this post, if it is one. */
export function livePreviewOf(p: PageInput<User>): LivePreview | undefined {
  if (p.query.preview !== '1') return undefined
  let page: { html: string; themeId: number } | undefined
  return {
    options: {
      dryRun: true,
      look: async (db, profile) => {
        page = { html: await render.page({ ...p.ctx, db }, profile), themeId: profile.themeId }
      },
    },
    answer: () => (page ? sendPreviewPage(p, page.html, page.themeId) : p.reply.code(204).header('cache-control', 'no-store').send()),
  }
}
