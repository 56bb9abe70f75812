import type { CallToolResult } from '@modelcontextprotocol/server'
import { can } from '../auth/principal.ts'
import { AppError, documentationUrl } from '../kernel/errors.ts'
import { runIdempotent } from '../core/use-cases.ts'
import { describeRule, takeTokenLimit, waitSeconds } from '../core/use-cases.ts'
import { compileBody, validationError } from '../kernel/validation.ts'
import type { AnyToolDef, ToolContext } from './define-tool.ts'
import { renderNextSteps, renderNextStepsIn } from '../kernel/next-step.ts'
import { toolNextSteps } from './tool-next-steps.ts'
import { inToolWords } from './tool-words.ts'

/** The `_meta` key of a refused call's details (code, field errors, documentation). */
const ERROR_META = 'slotline/error'

/**
 * A refusal as a tool result the agent reads and can act on (never a protocol error). The
 * details go in the text and in `_meta`, never in structuredContent: SDK v1 clients check
 * structuredContent against the tool's output schema even when isError is set, and would throw
 * the message away for a schema error. A rate-limit refusal alone carries structuredContent,
 * `{retryAfterSeconds}`, which every advertised output schema accepts (server.ts).
 */
export function toolError(tc: ToolContext, err: unknown, tool: string, retryAfterSeconds?: number): CallToolResult {
  const appErr = err instanceof AppError ? err : new AppError('internal_error')
  if (!(err instanceof AppError)) tc.ctx.log.error({ err, tool }, 'MCP tool failed')
  // The core names next steps by operation; an agent here takes them as tools.
  const message = inToolWords(renderNextSteps(appErr.message, toolNextSteps))
  const errors = appErr.errors
    ? Object.fromEntries(Object.entries(renderNextStepsIn(appErr.errors, toolNextSteps)).map(([k, list]) => [k, list.map(inToolWords)]))
    : null
  const lines = [`${appErr.code}: ${message}`, ...Object.entries(errors ?? {}).map(([field, list]) => `- ${field}: ${list.join(' ')}`)]
  const details = {
    code: appErr.code,
    message,
    errors,
    documentation: documentationUrl(tc.ctx.config.publicUrl, appErr.code),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  }
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    ...(retryAfterSeconds !== undefined && { structuredContent: { retryAfterSeconds } }),
    _meta: { [ERROR_META]: details },
  }
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
 * The per-token limits count tool calls: each is one unit of work, like one REST request, under
 * the same counters (infra/token-limits.ts). Past a limit the call is not run and the model is
 * told, in a tool result it reads, how long to wait; an HTTP 429 would reach the host, not it.
 */
async function overLimit(tool: AnyToolDef, tc: ToolContext): Promise<CallToolResult | undefined> {
  const verdict = await takeTokenLimit(tc.ctx, tc.principal, tool.limit)
  if (!verdict || verdict.allowed) return undefined
  const seconds = waitSeconds(verdict)
  const err = new AppError('rate_limited', {
    message: `Rate limit of ${describeRule(verdict.rule, 'tool calls')} reached, so ${tool.name} was not run. Call it again in ${seconds} s.`,
  })
  return toolError(tc, err, tool.name, seconds)
}

/**
 * One tool call: the rate limit, scope, arguments checked with the REST schema (same field keys
 * as REST), then the handler — under the idempotency key when one is given.
 */
export async function callTool(tool: AnyToolDef, args: unknown, tc: ToolContext): Promise<CallToolResult> {
  try {
    const refused = await overLimit(tool, tc)
    if (refused) return refused
    if (!can(tc.principal, tool.scope)) throw missingScope(tool, tc)
    const input = (args ?? {}) as Record<string, any>
    const validate = compileBody(tool.inputSchema)
    if (!validate(input)) throw validationError(validate.errors, '', 'arguments')
    let ran = false
    const run = () => {
      ran = true
      return tool.handler(input as any, tc)
    }
    const { idempotencyKey, dryRun, ...rest } = input
    const answer =
      typeof idempotencyKey === 'string' && !dryRun
        ? await runIdempotent(tc.ctx, tc.principal, { key: idempotencyKey, operation: `mcp.${tool.name}`, input: rest }, run)
        : await run()
    // A dry run and a replay look like a real write otherwise: both are marked where programs read.
    const replayed = !ran
    const structured = { ...(answer.structured as Record<string, unknown>), ...(dryRun === true && { dryRun: true }), ...(replayed && { replayed: true }) }
    const text = replayed ? `Replayed: a call with this idempotencyKey already did this, nothing was written again. ${answer.text}` : answer.text
    return { content: [{ type: 'text', text }], structuredContent: structured }
  } catch (err) {
    return toolError(tc, err, tool.name)
  }
}
