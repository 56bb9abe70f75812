import { Type } from '@sinclair/typebox'
import { PageDocument } from '../../core/page-document.ts'
import { ImportResult, pageImportUseCases } from '../../core/page-import.ts'
import { limits } from '../../limits.ts'
import { ARGUMENT_LIMITS } from '../argument-limits.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { DryRun, IdempotencyKey } from '../schemas.ts'

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
  description:
    'Creates a new page from a page document (what export_page answers, version 1), all or nothing: profile fields, socials, ' +
    'slots in order, events and forms. Images cannot travel in a tool call, so slots and fields that need one are listed in ' +
    '`skipped` with why (the dashboard\'s Import a page, or the API\'s page import with the zip, brings them). Run it with dryRun first to see every problem ' +
    'and what would be created. Example: import_page {"document": {"format": "slotline.page", "version": 1, …}, "login": "jane.copy", "dryRun": true}.',
  scope: 'profile:write',
  inputSchema: Type.Object(
    { document: Type.Record(Type.String(), Type.Unknown(), { description: 'The page document.' }), login: Login, dryRun: DryRun, idempotencyKey: IdempotencyKey },
    { additionalProperties: false },
  ),
  advertisedInput: Type.Object({ document: PageDocument, login: Login, dryRun: DryRun, idempotencyKey: IdempotencyKey }, { additionalProperties: false }),
  argumentBytes: ARGUMENT_LIMITS.documentBytes,
  outputSchema: ImportResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ document, login, dryRun }, { ctx, principal }) => {
    const result = await pageImportUseCases.importPage(ctx, principal, { document, login }, { dryRun })
    const skipped = result.skipped.length ? ` Not imported: ${result.skipped.map((s) => `${s.field} (${s.reason})`).join('; ')}` : ''
    return { structured: result, text: doneText(dryRun, `Page ${result.profile.login} with ${result.created.slots} slots.${skipped}`) }
  },
})
