import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { TestApp } from './app.ts'

/** An MCP client connected to the app's /mcp over real HTTP with a bearer token, as an agent would be. */
export async function connectMcp(t: TestApp, token: string): Promise<Client> {
  const client = new Client({ name: 'slotline-test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
  return client
}

/** A tool call's result, with the parsed JSON error body when isError. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean
    structuredContent?: any
    content: Array<{ type: string; text?: string }>
  }
  return result
}
