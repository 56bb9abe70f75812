import { Type } from '@sinclair/typebox'
import { PageDocument } from '../../transfer/page-document.ts'
import { pageExport as pageExportUseCases } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'export_page',
  title: 'Export a page as a portable document',
  description:
    'The whole page as one JSON document (page.json of a page archive, version 1): profile fields, socials, every slot in page ' +
    'order with its data, events and forms, theme. Images are named (files/1.png) but not included: the zip with them is the ' +
    'dashboard\'s Export button or the API\'s page export. Use it to back a page up, copy it, or move it to another Slotline with import_page; call list_profiles ' +
    'first for the profileKey. Example: export_page {"profileKey": "jane.doe"}.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: PageDocument,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const document = await pageExportUseCases.exportDocument(ctx, principal, profileKey)
    return { structured: document, text: `Page ${document.profile.login}: ${document.slots.length} slots, ${document.files.length} images named.` }
  },
})
