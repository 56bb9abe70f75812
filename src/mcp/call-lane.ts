import type { ServerResponse } from 'node:http'
import { type JSONRPCMessage, type McpServer, SUPPORTED_PROTOCOL_VERSIONS, type Transport } from '@modelcontextprotocol/server'
import type { AppContext } from '../context.ts'
import { callTool } from './call-tool.ts'
import type { McpRequest } from './mcp-endpoint.ts'
import { type McpExtra, stepUp } from './server.ts'
import { tools } from './tools/tool-list.ts'

/**
 * The messages a stateless server answers from its registrations alone, the same for every
 * caller: no initialize state, no session, nothing sent back but the one response.
 */
const LANE_METHODS = new Set(['tools/call', 'tools/list', 'ping'])
const byName = new Map(tools.map((tool) => [tool.name, tool]))

const isPlainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)

/**
 * Whether a POST can take the lane: one well-formed 2025-era request (a legacy protocol version
 * or none, and no `_meta`, so no per-request envelope that would make it 2026-era) of a lane
 * method, for a tool the server has, from a client the SDK's transport would serve. Anything
 * else, including what the transport would refuse (Accept, protocol version) or answer with a
 * scope challenge, goes through the SDK, so that its answer stays the SDK's own.
 */
export function laneFor(req: McpRequest, body: unknown): boolean {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return false
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } }
  if (typeof method !== 'string' || !LANE_METHODS.has(method) || (typeof id !== 'string' && typeof id !== 'number')) return false
  if (params !== undefined && (!isPlainObject(params) || '_meta' in params)) return false
  const accept = req.headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false
  const version = req.headers['mcp-protocol-version']
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return false
  if (method !== 'tools/call') return true
  if (params?.arguments !== undefined && !isPlainObject(params.arguments)) return false
  const tool = typeof params?.name === 'string' ? byName.get(params.name) : undefined
  const principal = (req.auth.extra as unknown as McpExtra).principal
  return tool !== undefined && stepUp(tool, principal) === undefined
}

export interface CallLane {
  answer(req: McpRequest, res: ServerResponse, body: unknown): Promise<void>
}

/**
 * The lane's answers. A tool call, checked by laneFor, runs its tool directly: the SDK's
 * classification, message schemas and dispatch cost a call more than the tool and the
 * authentication together (bench/mcp.ts, /mcp get_me against GET /v1/me). The other lane methods
 * go to one server, built and connected once, through a transport of our own: building a server
 * and an HTTP transport for each request, converting it to a web Request and the answer back,
 * cost an /mcp call several times the REST request it wraps. Each message gets an id of the
 * lane's own while the server holds it, so that two callers' equal ids never meet; its own id is
 * put back in the answer. Who calls travels with the message (AuthInfo), as on the transport.
 */
export function openCallLane(ctx: AppContext, makeServer: () => McpServer, onerror: (err: Error) => void): CallLane {
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
  // Built at the first list or ping, not with the lane: a tool call never needs it, and building
  // it compiles every tool's schemas in one stretch of the event loop.
  let connected: Promise<void> | undefined
  const connect = () => {
    if (!connected) {
      connected = makeServer().connect(transport)
      connected.catch(onerror)
    }
    return connected
  }

  const reply = (res: ServerResponse, message: object) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(message))
  }

  return {
    async answer(req, res, body) {
      const { id: callerId, method, params } = body as { id: string | number; method: string; params?: { name: string; arguments?: unknown } }
      if (method === 'tools/call') {
        const principal = (req.auth.extra as unknown as McpExtra).principal
        const result = await callTool(byName.get(params!.name)!, params!.arguments, { ctx, principal })
        if (!res.destroyed) reply(res, { jsonrpc: '2.0', id: callerId, result })
        return
      }
      await connect()
      const id = ++next
      const answered = new Promise<JSONRPCMessage | undefined>((resolve) => waiting.set(id, resolve))
      // A caller gone before its answer: nothing is written, and nothing is kept for it.
      res.on('close', () => {
        waiting.get(id)?.(undefined)
        waiting.delete(id)
      })
      transport.onmessage?.({ ...(body as JSONRPCMessage), id }, { authInfo: req.auth })
      const message = await answered
      if (message) reply(res, { ...message, id: callerId })
    },
  }
}
