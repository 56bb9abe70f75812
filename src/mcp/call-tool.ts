import type { CallToolResult } from '@modelcontextprotocol/server'
import { can } from '../auth/principal.ts'
import { AppError, documentationUrl } from '../core/errors.ts'
import { compileBody, validationError } from '../core/validation.ts'
import { runIdempotent } from '../core/idempotent.ts'
import type { AnyToolDef, ToolContext } from './define-tool.ts'
import { renderNextSteps, renderNextStepsIn } from '../core/next-step.ts'
import { toolNextSteps } from './next-steps.ts'
import { takeToolLimit } from './tool-limits.ts'

/** The REST error body, as a tool result the agent reads and can act on (never a protocol error). */
export function toolError(tc: ToolContext, err: unknown, tool: string): CallToolResult {
  const appErr = err instanceof AppError ? err : new AppError('internal_error')
  if (!(err instanceof AppError)) tc.ctx.log.error({ err, tool }, 'MCP tool failed')
  const body = {
    // The core names next steps by operation; an agent here takes them as tools.
    message: renderNextSteps(appErr.message, toolNextSteps),
    code: appErr.code,
    errors: appErr.errors ? renderNextStepsIn(appErr.errors, toolNextSteps) : null,
    documentation: documentationUrl(tc.ctx.config.publicUrl, appErr.code),
  }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body }
}

function missingScope(tool: AnyToolDef, tc: ToolContext): AppError {
  const has = tc.principal.abilities.join(', ') || 'none'
  return new AppError('forbidden', {
    message:
      `${tool.name} needs the ${tool.scope} scope; this connection has ${has}. ` +
      `Ask the user to reconnect and approve ${tool.scope} (or use a personal token with it); read tools still work.`,
  })
}

/**
 * One tool call: scope, arguments checked with the REST schema (same field keys as REST), the
 * tool's extra rate limit, then the handler — under the idempotency key when one is given.
 */
export async function callTool(tool: AnyToolDef, args: unknown, tc: ToolContext): Promise<CallToolResult> {
  try {
    if (!can(tc.principal, tool.scope)) throw missingScope(tool, tc)
    const input = (args ?? {}) as Record<string, any>
    const validate = compileBody(tool.inputSchema)
    if (!validate(input)) throw validationError(validate.errors, '', 'arguments')
    if (tool.limit) await takeToolLimit(tc, tool.limit)
    const run = () => tool.handler(input as any, tc)
    const { idempotencyKey, dryRun, ...rest } = input
    const answer =
      typeof idempotencyKey === 'string' && !dryRun
        ? await runIdempotent(tc.ctx, tc.principal, { key: idempotencyKey, operation: `mcp.${tool.name}`, input: rest }, run)
        : await run()
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured as Record<string, unknown> }
  } catch (err) {
    return toolError(tc, err, tool.name)
  }
}
