import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { tools } from '../../src/mcp/tools/tool-list.ts'

describe('the README lists the MCP tools the server has', () => {
  it('names every tool of the tool list once, and no other', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const start = readme.indexOf('- Tools: ')
    assert.ok(start >= 0, 'the README has a "- Tools:" line')
    const list = readme.slice(start, readme.indexOf('. ', start))
    const named = [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])
    assert.deepEqual([...named].sort(), tools.map((t) => t.name).sort())
  })
})
