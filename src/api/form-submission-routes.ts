import { Type } from '@sinclair/typebox'
import { FormSubmission, SubmissionsForm, SubmissionsMeta, SubmissionsQuery } from '../core/use-cases.ts'
import { formSubmissions } from '../core/use-cases.ts'
import { route, routes, withMeta } from '../http/routes.ts'
import { ProfileKeyParam } from '../http/envelope-schemas.ts'

const SlotParams = Type.Object({ profileKey: ProfileKeyParam, slot: Type.Integer({ minimum: 1, description: 'The id of a form slot of this page.' }) })

const SubmissionList = Type.Object(
  {
    data: Type.Array(FormSubmission, { description: 'Newest first.' }),
    meta: Type.Composite([SubmissionsMeta, Type.Object({ form: SubmissionsForm })], { additionalProperties: false }),
  },
  { additionalProperties: false },
)

export default routes('Form submissions', 'What visitors sent through the form blocks of your pages (leads).', '/v1', [
  route({
    method: 'GET',
    url: '/profiles/:profileKey/forms/:slot/submissions',
    operationId: 'listFormSubmissions',
    summary: 'What visitors sent through one form block, newest first',
    description:
      'One page of submissions of a form slot (type "form") of the page, newest first, with the form\'s current fields in meta.form for their labels. ' +
      'Pass meta.nextCursor as `cursor` for the next, older page; it is null on the last one. Submissions of a slot deleted since stay readable under its old id. ' +
      'Example: GET /profiles/jane.doe/forms/118/submissions?limit=50.',
    scope: 'profile:read',
    params: SlotParams,
    query: SubmissionsQuery,
    reply: { 200: SubmissionList },
    errors: [404, 422],
    handler: async ({ ctx, principal, params, query }) => {
      const page = await formSubmissions.list(ctx, principal, params.profileKey, params.slot, query)
      return withMeta(page.submissions, { nextCursor: page.nextCursor, limit: page.limit, form: page.form })
    },
  }),
])
