import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { MAX_FOREIGN_PAGE_BYTES } from '../../src/core/page-import-foreign.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** `unit` repeated after `head` up to the largest `content` the import takes, then `tail`. */
function page(head: string, unit: string, tail = ''): string {
  const room = MAX_FOREIGN_PAGE_BYTES - head.length - tail.length
  return head + unit.repeat(Math.floor(room / unit.length)) + tail
}

/**
 * Pages that the former pattern-based readers rescanned to the end for every unclosed tag
 * (hours for 4 MB): an attribute that never ends, tags that never close, script tags that
 * never close, a bio of unclosed tags.
 */
const HOSTILE: Array<{ name: string; source: string; content: string }> = [
  { name: 'a tag whose attribute never ends', source: 'littlelink', content: page('<a class="button" href="https://x.example">x</a><p ', 'b', '>x</p>') },
  { name: 'unclosed tags', source: 'littlelink', content: page('', '<a x>') },
  { name: 'unclosed buttons', source: 'littlelink', content: page('<h1>', '<a class="button" href="https://x.example/">') },
  { name: 'unclosed script tags', source: 'linktree', content: page('', '<script id="__NEXT_DATA__" ') },
  { name: 'a LinkStack bio of unclosed tags', source: 'linkstack', content: page('{"name":"x","littlelink_description":"', '<a x>', '","links":[]}') },
]

/**
 * CPU time of this process's main thread, in ms: where the server's event loop runs. Linux
 * counts it per thread in /proc, in ticks of 10 ms; elsewhere the whole process's CPU time
 * stands in (which also counts work done off the event loop).
 */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    const used = process.cpuUsage()
    return (used.user + used.system) / 1000
  }
}

/**
 * Asks /-/healthz every few milliseconds until `work` settles, and meanwhile measures how long
 * the event loop went without a turn: a 1 ms timer notes the main thread's CPU time at each
 * turn, and the largest step between two turns is the longest any request had to wait. CPU
 * time rather than wall time, because on a busy machine the wall time also counts other
 * processes' turns; the health checks' wall times are reported beside it.
 */
async function healthChecksDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; longestBlock: number; slowestWall: number; checks: number }> {
  let done = false
  let slowestWall = 0
  let checks = 0
  let longestBlock = 0
  let lastTurn = mainThreadCpuMs()
  const ticker = setInterval(() => {
    const now = mainThreadCpuMs()
    longestBlock = Math.max(longestBlock, now - lastTurn)
    lastTurn = now
  }, 1)
  const watching = (async () => {
    while (!done) {
      const wall = performance.now()
      const res = await fetch(`${url}/-/healthz`)
      await res.arrayBuffer()
      assert.equal(res.status, 200)
      slowestWall = Math.max(slowestWall, performance.now() - wall)
      checks++
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  try {
    return { result: await work, longestBlock, slowestWall, checks }
  } finally {
    done = true
    clearInterval(ticker)
    await watching
  }
}

const report = (h: { longestBlock: number; slowestWall: number; checks: number }) =>
  `the event loop went ${h.longestBlock.toFixed(0)} ms of CPU time without a turn; the slowest of ${h.checks} health checks took ${h.slowestWall.toFixed(0)} ms of wall time`

describe(`a hostile page to import cannot stop the server (${STORE})`, () => {
  let t: TestApp
  let token: string

  before(async () => {
    t = await startApp()
    token = (await makeAccount(t)).token
  })
  after(() => t.close())

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/v1/profiles/import-external`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json() }))

  /**
   * The import may hold the event loop at most 100 ms longer than receiving the same body does
   * (the floor: the same content under a source the schema refuses, so nothing reads it). Receiving
   * 4 MB is the HTTP layer's own cost; on a loaded machine it alone passes 100 ms.
   */
  const floorFor = async (content: string) => (await healthChecksDuring(t.url, post({ source: 'none', content }))).longestBlock

  let n = 0
  for (const h of HOSTILE) {
    for (const precognition of [false, true]) {
      it(`${h.source}, ${h.name} (4 MB)${precognition ? ', with Precognition' : ''}: answered while /-/healthz waits at most 100 ms for it`, async () => {
        const floor = await floorFor(h.content)
        const body = { source: h.source, content: h.content, login: `hostile_${n++}` }
        const health = await healthChecksDuring(t.url, post(body, precognition ? { precognition: 'true' } : {}))
        assert.ok(health.result.status < 500, JSON.stringify(health.result.body).slice(0, 500))
        assert.ok(health.checks > 0)
        assert.ok(health.longestBlock < floor + 100, `${report(health)}; receiving the body alone: ${floor.toFixed(0)} ms`)
      })
    }
  }

  // No MCP tool reads a foreign page: import_page takes a page document, which no HTML reader of
  // the importers sees. But 4 MB of tool arguments held the event loop 0.5–0.8 s in the MCP layer
  // itself (the SDK's message schema, then ours over every character). Past 1 MB of arguments the
  // call is now answered, once the body is parsed and before any schema walks it, with a tool
  // result that sends the document to POST /v1/profiles/import. The bound is the issue's: 100 ms
  // of the main thread's CPU time past what the HTTP layer spends receiving the same body.
  // The process's first /mcp request loads the connector (the SDK and every tool, once, whatever
  // the request holds), so a ping goes first: what is measured is what the 4 MB document costs.
  it('MCP import_page with a 4 MB document of unclosed tags is refused, pointing to POST /v1/profiles/import, while /-/healthz waits at most 100 ms for it', async () => {
    const hostile = page('', '<a x>').slice(0, MAX_FOREIGN_PAGE_BYTES - 1000)
    const document = {
      format: 'slotline.page',
      version: 1,
      profile: {
        login: 'hostile.mcp',
        title: null,
        description: hostile,
        avatar: null,
        bgImage: null,
        socials: [],
        languageCode: null,
        themeId: 1,
        published: true,
      },
      slots: [],
      files: [],
    }
    // Sent as an agent's client sends it, encoded beforehand: the time measured is the server's.
    const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'import_page', arguments: { document, dryRun: true } } })
    const mcpHeaders = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    }
    const ping = await fetch(`${t.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }) })
    assert.equal(ping.status, 200, await ping.text())
    const floor = await floorFor(hostile)
    const call = fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: payload,
    }).then((res) => res.text())
    const health = await healthChecksDuring(t.url, call)
    const answer = JSON.parse(
      health.result.startsWith('{')
        ? health.result
        : health.result
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
    )
    assert.equal(answer.result.isError, true)
    assert.match(answer.result.content[0].text, /arguments: .*POST http:\/\/[^ ]+\/v1\/profiles\/import/)
    assert.ok(health.longestBlock < floor + 100, `${report(health)}; receiving 4 MB alone: ${floor.toFixed(0)} ms`)
  })
})
