import { Type } from '@sinclair/typebox'
import { WebhookEndpoint, webhooks } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

// One compact tool: tools/list stays under its 40 KB budget. Adding, testing and re-keying
// endpoints are in the dashboard, the API and the CLI, where a secret can be shown once.
export default defineTool({
  name: 'list_webhooks',
  title: 'List where page news is sent',
  description:
    'Lists the account’s webhook endpoints: address, event types, pages, on or off and why. Use it before asking why news did not arrive; no tool changes them, the account’s owner does.',
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  outputSchema: Type.Object({ endpoints: Type.Array(WebhookEndpoint) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_input, { ctx, principal }) => {
    const endpoints = await webhooks.list(ctx, principal)
    return { structured: { endpoints }, text: `${endpoints.length} webhook endpoint(s).` }
  },
})
