import { UploadUrlGrant } from '../../core/use-cases.ts'
import { files } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_upload_url',
  title: 'Get a one-time URL to upload an image to',
  description: 'A one-time URL that takes one PUT of an image file and answers its path. Use it instead of upload_image_from_url for a file the user holds.',
  scope: 'profile:write',
  inputSchema: writeInput({}),
  advertiseOutput: true,
  outputSchema: UploadUrlGrant,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ dryRun }, { ctx, principal }) => {
    const grant = await files.issueUploadUrl(ctx, principal, { dryRun })
    // A dry run's address was never stored, so a PUT to it is refused: the text must not invite one.
    const text = dryRun
      ? doneText(dryRun, 'the address shown takes no upload (it was not issued). Call get_upload_url without dryRun for one that does.')
      : `PUT the image bytes to ${grant.upload_url} before ${grant.expires_at}.`
    return { structured: grant, text }
  },
})
