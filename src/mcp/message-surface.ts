/**
 * What one request's server must hold to answer it. A stateless server answers the one message
 * of its request, and registering all ~30 tools, the resources and the prompt cost an /mcp call
 * several times the REST request it wraps: a tools/call gets its own tool, a ping or initialize
 * none (the capabilities are declared whole either way), anything else everything.
 */
export interface Surface {
  tools: 'all' | 'none' | { only: string }
  resources: boolean
  prompts: boolean
}

export const EVERYTHING: Surface = { tools: 'all', resources: true, prompts: true }
const NOTHING: Surface = { tools: 'none', resources: false, prompts: false }
/** Methods answered from the server's declared capabilities and the protocol alone. */
const BARE_METHODS = new Set(['initialize', 'ping', 'logging/setLevel'])

export function surfaceFor(message: unknown): Surface {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return EVERYTHING
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } }
  if (typeof method !== 'string') return EVERYTHING
  if (BARE_METHODS.has(method) || method.startsWith('notifications/')) return NOTHING
  if (method === 'tools/call' && typeof params?.name === 'string') return { ...NOTHING, tools: { only: params.name } }
  if (method === 'tools/list') return { ...NOTHING, tools: 'all' }
  if (method.startsWith('resources/')) return { ...NOTHING, resources: true }
  if (method.startsWith('prompts/')) return { ...NOTHING, prompts: true }
  return EVERYTHING
}
