import { fromJsonSchema, McpServer, type ScopeChallenge } from '@modelcontextprotocol/server'
import { can } from '../auth/principal.ts'
import { renderNextSteps, renderNextStepsIn } from '../kernel/next-step.ts'
import { callTool } from './call-tool.ts'
import type { AnyToolDef, ToolContext } from './define-tool.ts'
import { registerPrompts } from './prompts.ts'
import { toolNextSteps } from './tool-next-steps.ts'
import { registerSlotTypeResources } from './resources.ts'
import { advertisedOutput } from './tool-schemas.ts'
import { inToolWords, schemaInToolWords } from './tool-words.ts'
import { tools } from './tools/tool-list.ts'

// Arguments are checked in callTool with the REST schemas so a refusal carries the REST error's
// message, code and field keys; the SDK's own check would answer with a different vocabulary.
const acceptAll = { getValidator: () => (input: unknown) => ({ valid: true as const, data: input as any, errorMessage: undefined }) }

/**
 * MCP authorization, scope step-up: an OAuth grant without the tool's scope gets 403
 * insufficient_scope naming the whole set it needs, so the client can ask the user for more.
 * A personal token cannot be stepped up; it gets the tool error naming the scope (callTool).
 */
function stepUp(tool: AnyToolDef, { principal }: ToolContext): ScopeChallenge | undefined {
  if (principal.clientId === undefined || can(principal, tool.scope)) return undefined
  return { scopes: [tool.scope, ...principal.abilities], errorDescription: `${tool.name} needs the ${tool.scope} scope` }
}

/** A fresh server per request (stateless Streamable HTTP): tools, slot-type resources, prompts. */
export function buildMcpServer(tc: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'slotline', title: 'Slotline', version: '1.0.0' },
    {
      // Log levels are accepted (MCP logging utility); the tools send no log messages today.
      capabilities: { logging: {} },
      instructions:
        'Slotline builds link-in-bio pages. Start with get_me (who you act for, limits) and list_profiles; ' +
        'list_slot_types (or the slotline://slot-types/<type> resources) shows what each block holds. Writes take dryRun to check first.',
    },
  )
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        // Schemas from the core (slot data, profile fields) name next steps by operation: as tools here.
        // {public_base}: where pages live, which only the running service knows.
        description: inToolWords(renderNextSteps(tool.description, toolNextSteps).replaceAll('{public_base}', tc.ctx.config.publicUrl)),
        inputSchema: fromJsonSchema(
          schemaInToolWords(renderNextStepsIn(JSON.parse(JSON.stringify(tool.advertisedInput ?? tool.inputSchema)), toolNextSteps)),
          acceptAll,
        ),
        outputSchema: fromJsonSchema(schemaInToolWords(renderNextStepsIn(advertisedOutput(tool), toolNextSteps))),
        annotations: { title: tool.title, ...tool.annotations },
        _meta: { 'slotline/scope': tool.scope },
        scopeChallenge: () => stepUp(tool, tc),
      },
      (args: unknown) => callTool(tool, args, tc),
    )
  }
  registerSlotTypeResources(server)
  registerPrompts(server)
  return server
}
