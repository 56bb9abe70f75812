import { Type } from '@sinclair/typebox'
import { ARCHIVE_LIMITS } from '../../transfer/page-archive.ts'
import { PageDocument } from '../../transfer/page-document.ts'
import { ImportResult, pageImport as pageImportUseCases } from '../../core/use-cases.ts'
import { AppError } from '../../kernel/errors.ts'
import { limits } from '../../kernel/limits.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { DryRun, IdempotencyKey } from '../tool-schemas.ts'

const Login = Type.Optional(
  Type.String({
    minLength: limits.login.minLength,
    maxLength: limits.login.maxLength,
    pattern: limits.login.pattern,
    description: "The new page's login; without it the document's own (a taken one is refused with free ones suggested).",
  }),
)

export default defineTool({
  name: 'import_page',
  title: 'Make a new page from a page document',
  description: 'Creates a new page from an export_page document, all or nothing; what it cannot bring is listed in skipped. Run it with dryRun first.',
  scope: 'profile:write',
  inputSchema: Type.Object(
    {
      document: Type.Record(Type.String(), Type.Unknown(), {
        description: `A page document as export_page answers it (format "${PageDocument.properties.format.const}", version 1).`,
      }),
      login: Login,
      dryRun: DryRun,
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  whenTooLarge: `Send a larger document (up to ${ARCHIVE_LIMITS.maxDocumentBytes / 1024 / 1024} MB) as the body of POST {public_base}/v1/profiles/import (application/json, with a personal token of the profile:write scope); it answers as import_page does.`,
  outputSchema: ImportResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ document, login, dryRun }, { ctx, principal }) => {
    const result = await pageImportUseCases.importPage(ctx, principal, { document, login }, { dryRun }).catch((err) => {
      throw underDocument(err)
    })
    const skipped = result.skipped.length ? ` Not imported: ${result.skipped.map((s) => `${s.field} (${s.reason})`).join('; ')}` : ''
    return { structured: result, text: doneText(dryRun, `Page ${result.profile.login} with ${result.created.slots} slots.${skipped}`) }
  },
})

/** The use case names a document's fields from its top, as the REST body is the document; here it is an argument. */
function underDocument(err: unknown): unknown {
  if (!(err instanceof AppError) || !err.errors) return err
  const errors = Object.fromEntries(Object.entries(err.errors).map(([field, messages]) => [field === 'login' ? field : `document.${field}`, messages]))
  return new AppError(err.code, { message: err.message, errors, status: err.status, headers: err.headers, cause: err })
}
