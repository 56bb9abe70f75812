import { Type } from '@sinclair/typebox'
import { PageDocument } from '../../transfer/page-document.ts'
import { pageExport as pageExportUseCases } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'export_page',
  title: 'Export a page as a portable document',
  description: 'The whole page as one JSON document (header, socials, slots, events, forms). Call it before import_page to copy a page.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: PageDocument,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const document = await pageExportUseCases.exportDocument(ctx, principal, profileKey)
    return { structured: document, text: `Page ${document.profile.login}: ${document.slots.length} slots, ${document.files.length} images named.` }
  },
})
