import { UploadUrlGrant } from '../../core/use-cases.ts'
import { files } from '../../core/use-cases.ts'
import { limits } from '../../kernel/limits.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_upload_url',
  title: 'Get a one-time URL to upload an image to',
  description:
    `For an image the user has as a file (not at a URL): answers a signed upload_url that takes one PUT of the raw bytes ` +
    `(up to ${limits.uploadMegabytes} MB) without a token within ${limits.uploadUrlMinutes} minutes, and answers {path, src}. Give the URL ` +
    'to the user or a program that holds the file; for an image already online use upload_image_from_url instead. Example: ' +
    `get_upload_url {} → {"upload_url": "https://…/-/upload/…", "method": "PUT", "max_bytes": ${limits.uploadMegabytes * 1024 * 1024}, "expires_at": "…"}.`,
  scope: 'profile:write',
  inputSchema: writeInput({}),
  outputSchema: UploadUrlGrant,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ dryRun }, { ctx, principal }) => {
    const grant = await files.issueUploadUrl(ctx, principal, { dryRun })
    return { structured: grant, text: doneText(dryRun, `PUT the image bytes to ${grant.upload_url} before ${grant.expires_at}.`) }
  },
})
