import { Type } from '@sinclair/typebox'
import { FormSubmission, SubmissionsForm, SubmissionsQuery } from '../../core/use-cases.ts'
import { formSubmissions } from '../../core/use-cases.ts'
import { Nullable } from '../../kernel/schema-helpers.ts'
import { defineTool } from '../define-tool.ts'
import { fieldsOf, ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'list_form_submissions',
  title: 'Read what visitors sent through a form block',
  description: 'Lists the answers to one form slot, newest first; pass nextCursor back as cursor for more. Call list_slots first for the slot id.',
  scope: 'profile:read',
  inputSchema: Type.Object(
    {
      profileKey: ProfileKey,
      slot: Type.Integer({ minimum: 1, description: 'The id of a form slot of the page (list_slots).' }),
      ...fieldsOf(SubmissionsQuery),
    },
    { additionalProperties: false },
  ),
  outputSchema: Type.Object(
    { submissions: Type.Array(FormSubmission), form: SubmissionsForm, nextCursor: Nullable(Type.String()) },
    { additionalProperties: false },
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, ...query }, { ctx, principal }) => {
    const page = await formSubmissions.list(ctx, principal, profileKey, slot, query)
    const more = page.nextCursor ? ' More are older: pass nextCursor as cursor.' : ''
    return {
      structured: { submissions: page.submissions, form: page.form, nextCursor: page.nextCursor },
      text: `${page.submissions.length} submission(s) of ${page.form ? `"${page.form.title}"` : `slot ${slot}`}, newest first.${more}`,
    }
  },
})
