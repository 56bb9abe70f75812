import type { IncomingMessage, ServerResponse } from 'node:http'
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node'
import { type AuthInfo, classifyInboundRequest, createMcpHandler } from '@modelcontextprotocol/server'
import type { AppContext } from '../context.ts'
import { laneFor, openCallLane } from './call-lane.ts'
import { buildMcpServer, type McpExtra } from './server.ts'

export type McpRequest = IncomingMessage & { auth: AuthInfo }

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Both protocol eras at /mcp. 2026 (per-request envelope) traffic goes to the SDK's entry. A
 * 2025-era POST is served as the SDK's stateless fallback serves it (a fresh server on a fresh
 * stateless transport) but answered as one JSON body instead of a one-event SSE stream, and on
 * the Node transport instead of through a web Request: the stream and the conversions cost a
 * tools/call more than the tool itself (bench/mcp.ts). Clients accept either answer (they must
 * send Accept with both).
 */
export function createMcpEndpoint(ctx: AppContext) {
  const onerror = (err: Error) => ctx.log.info({ err: err.message }, 'MCP request refused')
  const serverFor = (auth: AuthInfo | undefined) => {
    const extra = auth?.extra as unknown as McpExtra
    return buildMcpServer(ctx, extra.surface)
  }
  const lane = openCallLane(ctx, () => buildMcpServer(ctx), onerror)
  const modern = toNodeHandler(createMcpHandler((request) => serverFor(request.authInfo), { onerror }))

  async function serveLegacyPost(req: McpRequest, res: ServerResponse, body: unknown): Promise<void> {
    const server = serverFor(req.auth)
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => {
      transport.close().catch(onerror)
      server.close().catch(onerror)
    })
    try {
      await server.connect(transport)
      await transport.handleRequest(req, res, body)
    } catch (err) {
      onerror(err instanceof Error ? err : new Error(String(err)))
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }))
    }
  }

  return async (req: McpRequest, res: ServerResponse, body: unknown): Promise<void> => {
    if (req.method === 'POST' && laneFor(req, body)) return lane.answer(req, res, body)
    const route =
      req.method === 'POST' &&
      classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: header(req, 'mcp-protocol-version'),
        mcpMethodHeader: header(req, 'mcp-method'),
        mcpNameHeader: header(req, 'mcp-name'),
        body,
      })
    if (route && route.kind === 'legacy') return serveLegacyPost(req, res, body)
    return modern(req, res, body)
  }
}
