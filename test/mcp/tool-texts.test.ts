import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { demo } from '../../src/cli/demo-commands.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeAccount, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp, type ToolResult } from '../helpers/mcp.ts'

/**
 * Words an agent connected over MCP cannot act on: other faces of the service, files it has no
 * tool for, the REST routes, placeholders, and grammar that reads as a machine's.
 */
const UNACTIONABLE: ReadonlyArray<[RegExp, string]> = [
  [/\bAPI\b/, 'the API (an agent here has tools)'],
  [/dashboard/i, 'the dashboard (an agent here has tools)'],
  [/export button/i, 'a button'],
  [/\barchive\b/i, 'an archive (no tool sends or takes one)'],
  [/\bzip\b/i, 'a zip file (no tool sends or takes one)'],
  [/\b(GET|POST|PUT|PATCH|DELETE) \//, 'a REST route'],
  [/\{[a-zA-Z_]+\}/, 'a placeholder'],
  [/\ban? [a-z]+ (slot|block)\b/i, ''],
  [/\bserver-side\b/i, 'server-side'],
]

/** "a event slot": the article of a word made up from a type name. */
const WRONG_ARTICLE = /\b(a (?=[aeiou])|an (?![aeiou]))[a-z]+ (slot|block)s?\b/i

interface ListedTool {
  name: string
  title?: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
}

/** Every description and title inside a JSON Schema, with where it was found. */
function schemaTexts(schema: unknown, at: string): Array<[string, string]> {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => schemaTexts(s, `${at}[${i}]`))
  if (!schema || typeof schema !== 'object') return []
  return Object.entries(schema).flatMap(
    ([key, value]): Array<[string, string]> =>
      (key === 'description' || key === 'title') && typeof value === 'string' ? [[at, value]] : schemaTexts(value, `${at}.${key}`),
  )
}

/** The names of every property at any depth of a JSON Schema. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) propertyNames(s, into)
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') for (const name of Object.keys(value)) into.add(name)
      propertyNames(value, into)
    }
  }
  return into
}

/** What a text says that an agent cannot act on, as a list of complaints (empty when none). */
function complaints(text: string): string[] {
  const found = UNACTIONABLE.filter(([pattern, why]) => why && pattern.test(text)).map(([pattern, why]) => `${why}: ${text.match(pattern)![0]}`)
  if (WRONG_ARTICLE.test(text)) found.push(`article: ${text.match(WRONG_ARTICLE)![0]}`)
  return found
}

/** The arguments that take an object of any fields (import_page's document): whatever is inside is theirs. */
function openArguments(inputSchema: Record<string, unknown>): Set<string> {
  const properties = (inputSchema.properties ?? {}) as Record<string, { type?: string; properties?: unknown }>
  return new Set(Object.entries(properties).flatMap(([name, schema]) => (schema.type === 'object' && !schema.properties ? [name] : [])))
}

/**
 * Field-like words (camelCase, dotted paths) that are none of the tool's own fields nor a tool's
 * name. Web addresses are left out first: a signed one's random token can look camelCase.
 */
function foreignFields(text: string, own: Set<string>, open: Set<string>): string[] {
  return [...text.replace(/\bhttps?:\/\/\S+/g, ' ').matchAll(/\b[a-z]+(?:[A-Z][a-z]+)+\b|\b[a-z]+(?:\.[a-z][A-Za-z]*)+\b/g)]
    .map((m) => m[0])
    .filter((word) => !own.has(word) && !open.has(word.split('.')[0]) && !word.split('.').every((part) => own.has(part) || /^\d+$/.test(part)))
    .filter((word) => !/^(slotline|example|e\.g|i\.e)\b/.test(word) && !/\.(png|jpe?g|webp|gif|json|test|com|example)$/.test(word))
}

describe(`every MCP tool's texts name tools and arguments only (${STORE})`, () => {
  let t: TestApp
  let client: Client
  let listed: ListedTool[]
  let profileKey: string
  before(async () => {
    t = await startApp()
    await demo.run(t.ctx, { email: 'texts@example.test', login: 'texts.page' })
    const user = (await usersRepository.findByEmail(t.ctx.db, 'texts@example.test'))!
    client = await connectMcp(t, await makeToken(t, user))
    listed = (await client.listTools()).tools as ListedTool[]
    profileKey = 'texts.page'
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  it('descriptions and every schema description of tools/list', () => {
    const problems: string[] = []
    for (const tool of listed) {
      const texts: Array<[string, string]> = [
        ['description', tool.description],
        ['title', tool.title ?? ''],
        ...schemaTexts(tool.inputSchema, 'inputSchema'),
        ...schemaTexts(tool.outputSchema, 'outputSchema'),
      ]
      for (const [at, text] of texts) for (const c of complaints(text)) problems.push(`${tool.name} ${at}: ${c} — "${text}"`)
    }
    assert.deepEqual(problems, [])
  })

  /** Calls that are refused, or answer with words of their own, across every tool. */
  async function refusals(): Promise<Array<[tool: string, args: Record<string, unknown>, result: ToolResult]>> {
    const slots = (await callTool(client, 'list_slots', { profileKey })).structuredContent.slots as Array<{ id: number; type: string }>
    const eventSlot = slots.find((s) => s.type === 'event')!
    const other = await makeAccount(t)
    const foreignDoc = (await callTool(client, 'export_page', { profileKey })).structuredContent
    const otherClient = await connectMcp(t, other.token)
    const calls: Array<[string, Record<string, unknown>, Client?]> = [
      ...listed.map((tool): [string, Record<string, unknown>] => [tool.name, {}]),
      ...listed.map((tool): [string, Record<string, unknown>] => [tool.name, { profileKey, unknownArgument: 1 }]),
      ['create_slots', { profileKey, slots: [{ type: 'event', data: {} }], dryRun: true }],
      ['create_slots', { profileKey, slots: [{ type: 'form', data: {} }], dryRun: true }],
      ['update_slots', { profileKey, slots: [{ id: eventSlot.id, data: { title: 'x' } }], dryRun: true }],
      ['delete_slots', { profileKey, ids: [eventSlot.id], dryRun: true }],
      ['schedule_slot', { profileKey, slotId: slots[0].id, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z', dryRun: true }],
      ['schedule_slot', { profileKey, slotId: slots[0].id, endsAt: '2001-01-01T00:00:00Z', dryRun: true }],
      ['update_profile_settings', { profileKey, theme: 'neon', dryRun: true }],
      ['update_profile_settings', { profileKey, design: { theme: 'neon' }, dryRun: true }],
      ['get_upload_url', { dryRun: true }],
      ['export_page', { profileKey }],
      ['import_page', { document: foreignDoc, login: 'texts.copy', dryRun: true }, otherClient],
      ['import_page', { document: { format: 'slotline.page', version: 9 } }],
    ]
    const results: Array<[string, Record<string, unknown>, ToolResult]> = []
    try {
      for (const [name, args, by] of calls) results.push([name, args, await callTool(by ?? client, name, args)])
    } finally {
      await otherClient.close()
    }
    return results
  }

  it('the texts of refused calls and of answers in words: no other face, and only fields of the tool', async () => {
    const problems: string[] = []
    const toolNames = new Set(listed.map((tool) => tool.name))
    for (const [name, args, result] of await refusals()) {
      const tool = listed.find((x) => x.name === name)!
      // The call's own arguments may be named back (an unknown one, a login it gave).
      const sent = [...Object.keys(args), ...Object.values(args).filter((v): v is string => typeof v === 'string'), 'texts.page', 'texts.copy']
      const own = new Set([...propertyNames(tool.inputSchema), ...propertyNames(tool.outputSchema), ...toolNames, ...sent])
      const details = result._meta?.['slotline/error'] as { message: string; errors: Record<string, string[]> | null } | undefined
      const texts = [
        ...result.content.map((c) => c.text ?? ''),
        ...(details ? [details.message, ...Object.values(details.errors ?? {}).flat()] : []),
        ...(result.structuredContent?.skipped ?? []).map((s: { reason: string }) => s.reason),
      ]
      const call = `${name}(${JSON.stringify(args).slice(0, 80)})`
      for (const text of texts) {
        for (const c of complaints(text)) problems.push(`${call}: ${c} — "${text}"`)
        for (const word of foreignFields(text, own, openArguments(tool.inputSchema)))
          problems.push(`${call}: names ${word}, not a field of ${name} — "${text}"`)
      }
      for (const field of Object.keys(details?.errors ?? {})) {
        const root = field.split('.')[0]
        if (root && !own.has(root) && root !== 'arguments') problems.push(`${call}: the error names ${field}, not a field of ${name}`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('create_slots and update_slots offer only the types they accept', async () => {
    const accepted = new Set<string>()
    for (const name of ['create_slots', 'update_slots']) {
      const tool = listed.find((x) => x.name === name)!
      const offered = JSON.stringify(tool.inputSchema).match(/"enum":\[[^\]]*\]/g) ?? []
      for (const list of offered) for (const type of JSON.parse(`{${list}}`).enum as string[]) accepted.add(type)
      for (const type of accepted) {
        if (name !== 'create_slots') continue
        const result = await callTool(client, name, { profileKey, slots: [{ type, data: {} }], dryRun: true })
        const errors = (result._meta?.['slotline/error'] as { errors?: Record<string, string[]> } | undefined)?.errors ?? {}
        assert.ok(!Object.keys(errors).includes('slots.0.type'), `${name} offers ${type} and refuses it: ${JSON.stringify(errors)}`)
      }
    }
    assert.ok(!accepted.has('event') && !accepted.has('form'), [...accepted].join(', '))
  })
})
