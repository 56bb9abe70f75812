import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, startApp, type TestApp } from './app.ts'

/** An MCP client connected to the app's /mcp over real HTTP with a bearer token, as an agent would be. */
export async function connectMcp(t: TestApp, token: string): Promise<Client> {
  const client = new Client({ name: 'slotline-test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
  return client
}

/**
 * A fresh app with one account, one of its pages and an MCP client on its token: the set-up of
 * the connector suites; the suite closes the client, then the app.
 */
export async function startMcpSession(): Promise<{ t: TestApp; token: string; login: string; client: Client }> {
  const t = await startApp()
  const account = await makeAccount(t)
  const login = (await makeProfile(t, account.user)).login
  const client = await connectMcp(t, account.token)
  return { t, token: account.token, login, client }
}

/** What a refused tool call carries in `_meta` (src/mcp/call-tool.ts). */
export interface ToolErrorDetails {
  code: string
  message: string
  errors: Record<string, string[]> | null
  documentation: string
  retryAfterSeconds?: number
}

export interface ToolResult {
  isError?: boolean
  structuredContent?: any
  content: Array<{ type: string; text?: string }>
  _meta?: Record<string, unknown>
}

/** A tool call's result, as the client hands it over. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult
}

/** The details of a refused call: code, message, field errors (never in structuredContent). */
export function errorOf(result: ToolResult): ToolErrorDetails {
  const details = result._meta?.['slotline/error'] as ToolErrorDetails | undefined
  if (!result.isError || !details) throw new Error(`Not a tool error: ${result.content[0]?.text}`)
  return details
}
