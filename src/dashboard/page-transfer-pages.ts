import { ownerPrincipal } from '../auth/principal.ts'
import { AppError } from '../kernel/errors.ts'
import { pageExport as pageExportUseCases } from '../core/use-cases.ts'
import { pageImport as pageImportUseCases } from '../core/use-cases.ts'
import { limits } from '../kernel/limits.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { MAX_BODY_BYTES, readJson } from '../http/json-body.ts'
import { csrfField } from './layout.ts'
import type { PageInput, PageRow } from './page-routes.ts'

/** Page transfer in the dashboard: download a page's archive; make a page from one. */
export const pageTransferPages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId/export', signedIn: true, handler: download },
  // A file form is multipart, which the CSRF preHandler cannot read: the handler checks the
  // token itself, from the form's first part, before it reads the file.
  { method: 'POST', url: '/my-links/import', signedIn: true, checksCsrfItself: true, handler: upload },
]

/** The profile page's "Export" card. */
export const exportPageCard = (profileId: number): SafeHtml => h`<section class="card" aria-labelledby="export-h">
<h2 id="export-h">Export</h2>
<p>One file with this page, its blocks, events, forms and images. Import it here or on another Slotline.</p>
<p class="actions"><a class="button secondary" href="/my-links/${profileId}/export" download>Export</a></p>
</section>`

/** The /my-links "Import a page" card: a file from Export (zip) or its page.json. */
export const importPageCard = (csrf: string): SafeHtml => h`<section class="card" aria-labelledby="import-h">
<h2 id="import-h">Import a page</h2>
<p>Make a new page from a file another Slotline exported (a zip file, or the page file inside it).</p>
<form method="post" action="/my-links/import" enctype="multipart/form-data">
${csrfField(csrf)}
<div class="field"><label for="f-import-login">Address of the new page (leave empty to keep the file’s)</label>
<input id="f-import-login" name="login" type="text" maxlength="${String(limits.login.maxLength)}" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="f-import-file">Exported file</label>
<input id="f-import-file" name="file" type="file" accept=".zip,.json,application/zip,application/json" required></div>
<button type="submit">Import a page</button>
</form>
</section>`

async function download(p: PageInput<User>) {
  const id = /^[1-9]\d{0,15}$/.test(p.params.profileId) ? Number(p.params.profileId) : 0
  const { login, archive } = await pageExportUseCases.exportArchive(p.ctx, ownerPrincipal(p.user), id)
  return p.reply
    .type('application/zip')
    .header('content-disposition', `attachment; filename="${login}.slotline.zip"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(archive))
}

function csrfCheck(p: PageInput<User>, token: string): Promise<void> {
  ;(p.req as { body?: unknown }).body = { _csrf: token }
  return new Promise((resolve, reject) => p.req.server.csrfProtection(p.req, p.reply, (err?: Error) => (err ? reject(err) : resolve())))
}

async function upload(p: PageInput<User>) {
  if (!p.req.isMultipart()) throw new AppError('unsupported_media_type', { message: 'Send the form with its file.' })
  let login = ''
  let file: Buffer | undefined
  let checked = false
  try {
    for await (const part of p.req.parts()) {
      if (!checked) {
        // The hidden token is the form's first field; nothing else is read before it is checked.
        await csrfCheck(p, part.type === 'field' && part.fieldname === '_csrf' ? String(part.value) : '')
        checked = true
        continue
      }
      if (part.type === 'field' && part.fieldname === 'login') login = String(part.value).trim()
      else if (part.type === 'file' && part.fieldname === 'file') file = await part.toBuffer()
      else if (part.type === 'file') part.file.resume()
    }
  } catch (err) {
    throw formProblem(err)
  }
  if (!checked) await csrfCheck(p, '')
  if (!file?.length) return p.redirect('/my-links#import-h', 'Choose the exported file to import.', true)
  const principal = ownerPrincipal(p.user)
  try {
    const source =
      file[0] === 0x50 && file[1] === 0x4b
        ? { archive: new Uint8Array(file), login: login || undefined }
        : { document: pageJson(file), login: login || undefined }
    const result = await pageImportUseCases.importPage(p.ctx, principal, source)
    const skipped = result.skipped.length ? ` Not imported: ${result.skipped.map((s) => `${s.field} (${s.reason})`).join(' ')}` : ''
    return p.redirect(`/my-links/${result.profile.id}`, `Imported ${result.profile.login}: ${result.created.slots} blocks.${skipped}`)
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err
    const problems = err.errors ? Object.entries(err.errors).map(([k, v]) => `${k}: ${v.join(' ')}`) : [err.message]
    return p.redirect('/my-links#import-h', `The page was not imported. ${problems.join(' · ')}`, true)
  }
}

/** A body the multipart reader could not read is the sender's problem (400/413), never a 500; CSRF refusals stay as they are. */
function formProblem(err: unknown): unknown {
  const code = String((err as { code?: unknown }).code ?? '')
  if (err instanceof AppError || code.startsWith('FST_CSRF')) return err
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payload_too_large', { message: 'The file is too large for a page archive.' })
  return new AppError('malformed_request', { message: `The form could not be read (${(err as Error).message}); send it again from /my-links.`, cause: err })
}

/** A page.json sent alone meets the limits the API sets on a JSON body: its size, then readJson's. */
function pageJson(bytes: Buffer): unknown {
  if (bytes.length > MAX_BODY_BYTES) {
    throw new AppError('payload_too_large', { message: `page.json is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB; send the export's zip instead.` })
  }
  return readJson(bytes, 'page.json')
}
