import { type AuthInfo, fromJsonSchema, McpServer, type ScopeChallenge } from '@modelcontextprotocol/server'
import { can, type Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { invalidField } from '../kernel/errors.ts'
import { renderNextSteps, renderNextStepsIn } from '../kernel/next-step.ts'
import { ARGUMENT_LIMITS, oversizedArguments } from './argument-limits.ts'
import { callTool, toolError } from './call-tool.ts'
import type { AnyToolDef, ToolContext } from './define-tool.ts'
import { registerPrompts } from './prompts.ts'
import { toolNextSteps } from './tool-next-steps.ts'
import { registerSlotTypeResources } from './resources.ts'
import { advertisedOutput } from './tool-schemas.ts'
import { inToolWords, schemaInToolWords } from './tool-words.ts'
import { tools } from './tools/tool-list.ts'
import { EVERYTHING, type Surface } from './message-surface.ts'

// Arguments are checked in callTool with the REST schemas so a refusal carries the REST error's
// message, code and field keys; the SDK's own check would answer with a different vocabulary.
const acceptAll = { getValidator: () => (input: unknown) => ({ valid: true as const, data: input as any, errorMessage: undefined }) }

/**
 * MCP authorization, scope step-up: an OAuth grant without the tool's scope gets 403
 * insufficient_scope naming the whole set it needs, so the client can ask the user for more.
 * A personal token cannot be stepped up; it gets the tool error naming the scope (callTool).
 */
export function stepUp(tool: AnyToolDef, principal: Principal): ScopeChallenge | undefined {
  if (principal.clientId === undefined || can(principal, tool.scope)) return undefined
  return { scopes: [tool.scope, ...principal.abilities], errorDescription: `${tool.name} needs the ${tool.scope} scope` }
}

/** What the route hands the SDK: our principal and what the message needs, in AuthInfo's free `extra`. */
export interface McpExtra {
  principal: Principal
  surface: Surface
}

/** The principal the route authenticated, from the request the SDK hands a handler. */
function principalIn(authInfo: AuthInfo | undefined): Principal {
  const principal = (authInfo?.extra as unknown as McpExtra | undefined)?.principal
  if (!principal) throw new Error('An /mcp message reached a tool without the principal the route authenticated.')
  return principal
}

/** What a tool shows clients, worked out once: the schemas' validators are compiled on creation. */
interface PreparedTool {
  tool: AnyToolDef
  description: string
  inputSchema: ReturnType<typeof fromJsonSchema>
  outputSchema: ReturnType<typeof fromJsonSchema> | undefined
}

// A server is built for every request (stateless transport), but what it shows never changes
// while the process runs: compiling 30 output schemas per request made each /mcp request cost
// many times a REST one. Keyed by public URL, the one input the texts depend on.
const prepared = new Map<string, PreparedTool[]>()

/**
 * A schema without its `examples`: every description of a tool already gives one whole example
 * call, and the fields' own examples doubled what the list costs a conversation.
 */
function withoutExamples<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutExamples) as T
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'examples')
      .map(([key, v]) => [key, withoutExamples(v)]),
  ) as T
}

function preparedTools(publicUrl: string): PreparedTool[] {
  let list = prepared.get(publicUrl)
  if (!list) {
    list = tools.map((tool) => {
      const output = advertisedOutput(tool)
      return {
        tool,
        // Schemas from the core (slot data, profile fields) name next steps by operation: as tools here.
        // {public_base}: where pages live, which only the running service knows.
        description: inToolWords(renderNextSteps(tool.description, toolNextSteps).replaceAll('{public_base}', publicUrl)),
        inputSchema: fromJsonSchema(
          withoutExamples(schemaInToolWords(renderNextStepsIn(JSON.parse(JSON.stringify(tool.advertisedInput ?? tool.inputSchema)), toolNextSteps))),
          acceptAll,
        ),
        outputSchema: output && fromJsonSchema(schemaInToolWords(renderNextStepsIn(output, toolNextSteps))),
      }
    })
    prepared.set(publicUrl, list)
  }
  return list
}

/**
 * A server holding what a message needs. Who calls is read from each request (its AuthInfo), not
 * built in, so one server can answer the messages of many callers (mcp-endpoint.ts).
 */
export function buildMcpServer(ctx: AppContext, surface: Surface = EVERYTHING): McpServer {
  const server = new McpServer(
    { name: 'slotline', title: 'Slotline', version: '1.0.0' },
    {
      // Log levels are accepted (MCP logging utility); the tools send no log messages today.
      // Declared whole, so that a server holding one tool still tells a client everything it offers.
      capabilities: { logging: {}, tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
      instructions:
        'Slotline builds link-in-bio pages. Start with get_me (who you act for, limits) and list_profiles; ' +
        'list_slot_types (or the slotline://slot-types/<type> resources) shows what each block holds. Writes take dryRun to check first.',
    },
  )
  const only = typeof surface.tools === 'object' ? surface.tools.only : undefined
  for (const { tool, description, inputSchema, outputSchema } of preparedTools(ctx.config.publicUrl)) {
    if (surface.tools === 'none' || (only !== undefined && tool.name !== only)) continue
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description,
        inputSchema,
        ...(outputSchema && { outputSchema }),
        annotations: { ...tool.annotations },
        _meta: { 'slotline/scope': tool.scope },
        scopeChallenge: ({ authInfo }) => stepUp(tool, principalIn(authInfo)),
      },
      (args: unknown, { http }) => callTool(tool, args, { ctx, principal: principalIn(http?.authInfo) }),
    )
  }
  if (surface.resources) registerSlotTypeResources(server)
  if (surface.prompts) registerPrompts(server)
  return server
}

const byName = new Map(tools.map((tool) => [tool.name, tool]))

/**
 * A tools/call whose arguments are far larger than any tool reads is answered here, as the tool
 * result that names `arguments`, before the SDK's message schema or ours walks every key.
 */
export function refuseOversizedCall(message: unknown, bodyBytes: number, tc: ToolContext): object | undefined {
  if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') return undefined
  const { id, params } = message as { id?: unknown; params?: { name?: unknown; arguments?: unknown } }
  const tool = typeof params?.name === 'string' ? byName.get(params.name) : undefined
  if (!tool) return undefined
  const why = oversizedArguments(params?.arguments, bodyBytes, ARGUMENT_LIMITS.bytes)
  if (!why) return undefined
  const instead = bodyBytes > ARGUMENT_LIMITS.bytes && tool.whenTooLarge ? ` ${tool.whenTooLarge.replaceAll('{public_base}', tc.ctx.config.publicUrl)}` : ''
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    result: toolError(tc, invalidField('arguments', `The arguments ${why.charAt(0).toLowerCase()}${why.slice(1)}${instead}`), tool.name),
  }
}
