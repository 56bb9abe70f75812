import type { ServerResponse } from 'node:http'
import { type JSONRPCMessage, type McpServer, SUPPORTED_PROTOCOL_VERSIONS, type Transport } from '@modelcontextprotocol/server'
import type { McpRequest } from './mcp-endpoint.ts'
import { type McpExtra, stepUp } from './server.ts'
import { tools } from './tools/tool-list.ts'

/**
 * The messages a stateless server answers from its registrations alone, the same for every
 * caller: no initialize state, no session, nothing sent back but the one response.
 */
const LANE_METHODS = new Set(['tools/call', 'tools/list', 'ping'])
const byName = new Map(tools.map((tool) => [tool.name, tool]))

/**
 * Whether a 2025-era request (classified as such by the SDK) can take the lane: one request of a
 * lane method, for a tool the server has, from a client the SDK's transport would serve. What the
 * transport would refuse (Accept, protocol version) or answer with a scope challenge takes the
 * transport, so that its answer stays the SDK's own.
 */
export function laneFor(req: McpRequest, body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: { name?: unknown } }
  if (typeof method !== 'string' || !LANE_METHODS.has(method) || (typeof id !== 'string' && typeof id !== 'number')) return false
  const accept = req.headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false
  const version = req.headers['mcp-protocol-version']
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return false
  if (method !== 'tools/call') return true
  const tool = typeof params?.name === 'string' ? byName.get(params.name) : undefined
  const principal = (req.auth.extra as unknown as McpExtra).principal
  return tool !== undefined && stepUp(tool, principal) === undefined
}

export interface CallLane {
  answer(req: McpRequest, res: ServerResponse, body: unknown): Promise<void>
}

/**
 * One server, built and connected once, answering the lane's messages of every caller through a
 * transport of our own: building a server and an HTTP transport for each request, converting it
 * to a web Request and the answer back, cost an /mcp call several times the REST request it
 * wraps. Each message gets an id of the lane's own while the server holds it, so that two
 * callers' equal ids never meet; its own id is put back in the answer. Who calls travels with
 * the message (AuthInfo), as on the transport.
 */
export function openCallLane(server: McpServer, onerror: (err: Error) => void): CallLane {
  const waiting = new Map<number, (message: JSONRPCMessage | undefined) => void>()
  let next = 0
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    // Only responses come back: the lane's methods send no notification or request of their own.
    send: async (message) => {
      const id = (message as { id?: unknown }).id
      if (typeof id !== 'number') return
      waiting.get(id)?.(message)
      waiting.delete(id)
    },
  }
  const connected = server.connect(transport)
  connected.catch(onerror)

  return {
    async answer(req, res, body) {
      await connected
      const id = ++next
      const answered = new Promise<JSONRPCMessage | undefined>((resolve) => waiting.set(id, resolve))
      // A caller gone before its answer: nothing is written, and nothing is kept for it.
      res.on('close', () => {
        waiting.get(id)?.(undefined)
        waiting.delete(id)
      })
      transport.onmessage?.({ ...(body as JSONRPCMessage), id }, { authInfo: req.auth })
      const message = await answered
      if (!message) return
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ ...message, id: (body as { id: string | number }).id }))
    },
  }
}
