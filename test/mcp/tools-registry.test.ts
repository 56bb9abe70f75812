import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import type { AnyToolDef } from '../../src/mcp/define-tool.ts'
import { tools } from '../../src/mcp/tools/tool-list.ts'
import { ABILITIES } from '../../src/store/tokens.ts'

// sentry-mcp's catalogue rules (its tools.test.ts) applied to every tool, plus "declares a scope"
// and the schema shapes model APIs accept.
const toolsDir = join(import.meta.dirname, '../../src/mcp/tools')
const toolFiles = readdirSync(toolsDir).filter((f) => f.endsWith('.ts') && f !== 'tool-list.ts')
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const

/** Every `$ref` in a schema (model APIs refuse remote and most local ones in tool schemas). */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) refsIn(child, found)
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref') found.push(String(value))
      refsIn(value, found)
    }
  }
  return found
}

describe('MCP tool registry', () => {
  for (const file of toolFiles) {
    const expected = file.replace(/\.ts$/, '').replaceAll('-', '_')
    it(`${file} default-exports the tool named ${expected}, and tools/tool-list.ts lists that export once`, async () => {
      const { default: tool } = (await import(pathToFileURL(join(toolsDir, file)).href)) as { default: AnyToolDef }
      assert.equal(tool.name, expected)
      assert.equal(tools.filter((listed) => listed === tool).length, 1)
    })
  }

  it('lists nothing in tools/tool-list.ts but the tool modules under src/mcp/tools', () => {
    assert.equal(tools.length, toolFiles.length)
  })

  for (const tool of tools) {
    describe(tool.name, () => {
      it('is a snake_case verb_noun name', () => assert.match(tool.name, /^[a-z]+(_[a-z]+)+$/))

      it('has a title and a description that says what it does and when, in one or two sentences', () => {
        assert.ok(tool.title.length >= 8 && tool.title.length <= 80, tool.title)
        assert.ok(tool.description.length >= 60, `${tool.description.length} characters is too short to say what and when`)
        assert.ok(tool.description.length <= 200, `${tool.description.length} characters: every tool's text costs each conversation`)
        assert.match(tool.description, /\b(first|before|after|instead|use it)\b/i, 'says which call comes first or when to prefer another')
      })

      it('gives all four annotations explicitly, never both read-only and destructive', () => {
        for (const hint of HINTS) assert.equal(typeof tool.annotations[hint], 'boolean', hint)
        assert.ok(!(tool.annotations.readOnlyHint && tool.annotations.destructiveHint))
        assert.equal(tool.annotations.readOnlyHint, tool.scope === 'profile:read', 'reads need profile:read, writes profile:write')
      })

      it('declares a scope the tokens know', () => assert.ok(ABILITIES.includes(tool.scope)))

      it('has object input and output schemas without top-level unions or $refs', () => {
        for (const schema of [tool.inputSchema, tool.advertisedInput ?? tool.inputSchema, tool.outputSchema]) {
          const wire = JSON.parse(JSON.stringify(schema))
          assert.equal(wire.type, 'object')
          for (const key of ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const']) assert.ok(!(key in wire), `top-level ${key}`)
          assert.deepEqual(refsIn(wire), [])
        }
      })

      if (!tool.annotations.readOnlyHint) {
        it('takes dryRun and an optional idempotencyKey', () => {
          const props = (tool.advertisedInput ?? tool.inputSchema) as any
          assert.equal(props.properties.dryRun?.type, 'boolean')
          assert.equal(props.properties.idempotencyKey?.type, 'string')
          assert.ok(!(props.required ?? []).includes('dryRun') && !(props.required ?? []).includes('idempotencyKey'))
        })
      }
    })
  }

  it('marks the outside world only where it is reached: music lookup, upload from a URL, a domain’s DNS', () => {
    const open = tools.filter((t) => t.annotations.openWorldHint).map((t) => t.name)
    assert.deepEqual(open.sort(), ['connect_domain', 'lookup_music', 'upload_image_from_url'])
  })

  it('marks destructive the writes that cannot be undone: deletes, a login change, a replaced row of socials', () => {
    const destructive = tools.filter((t) => t.annotations.destructiveHint).map((t) => t.name)
    assert.deepEqual(destructive.sort(), ['delete_slots', 'delete_social_link', 'update_profile', 'update_profile_settings'])
  })
})
