import { Type } from '@sinclair/typebox'
import { UploadedFile } from '../../core/use-cases.ts'
import { AppError } from '../../kernel/errors.ts'
import { files } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { writeInput } from '../tool-schemas.ts'
import { UploadFromUrl } from '../../core/use-cases.ts'

export default defineTool({
  name: 'upload_image_from_url',
  title: 'Store an image from a URL',
  description: 'Stores an image from a public URL and answers its path. Call it before setting an avatar or adding a picture or gallery slot.',
  scope: 'profile:write',
  inputSchema: writeInput({ url: Type.Required(UploadFromUrl).properties.url }),
  advertiseOutput: true,
  outputSchema: Type.Object({ file: UploadedFile }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ url, dryRun }, { ctx, principal }) => {
    const file = await files.upload(ctx, principal, { url }, { dryRun })
    if (dryRun)
      return { structured: { file: { path: '', src: url, width: null, height: null } }, text: doneText(true, 'the image can be downloaded and stored.') }
    if (!file) throw new AppError('internal_error')
    return { structured: { file }, text: `Stored as ${file.path} (${file.width}×${file.height}); use this path as avatar or in a picture slot.` }
  },
})
