import assert from 'node:assert/strict'
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
 * Asks /-/healthz every few milliseconds until `work` settles. For each answer it takes both the
 * wall time and the CPU time this process (server and client) spent meanwhile: the app runs in
 * this process, so the CPU time is how long the server kept the health check waiting, whatever
 * else the machine runs (on a shared machine the wall time also counts other processes' turns).
 */
async function healthChecksDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; slowestCpu: number; slowestWall: number; checks: number }> {
  let done = false
  let slowestCpu = 0
  let slowestWall = 0
  let checks = 0
  const watching = (async () => {
    while (!done) {
      const wall = performance.now()
      const cpu = process.cpuUsage()
      const res = await fetch(`${url}/-/healthz`)
      await res.arrayBuffer()
      assert.equal(res.status, 200)
      const used = process.cpuUsage(cpu)
      slowestCpu = Math.max(slowestCpu, (used.user + used.system) / 1000)
      slowestWall = Math.max(slowestWall, performance.now() - wall)
      checks++
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  try {
    return { result: await work, slowestCpu, slowestWall, checks }
  } finally {
    done = true
    await watching
  }
}

const report = (h: { slowestCpu: number; slowestWall: number; checks: number }) =>
  `the slowest of ${h.checks} health checks waited ${h.slowestCpu.toFixed(0)} ms of CPU (${h.slowestWall.toFixed(0)} ms of wall time)`

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

  let n = 0
  for (const h of HOSTILE) {
    for (const precognition of [false, true]) {
      it(`${h.source}, ${h.name} (4 MB)${precognition ? ', with Precognition' : ''}: answered while /-/healthz answers within 100 ms`, async () => {
        const body = { source: h.source, content: h.content, login: `hostile_${n++}` }
        const health = await healthChecksDuring(t.url, post(body, precognition ? { precognition: 'true' } : {}))
        assert.ok(health.result.status < 500, JSON.stringify(health.result.body).slice(0, 500))
        assert.ok(health.checks > 0)
        assert.ok(health.slowestCpu < 100, report(health))
      })
    }
  }

  it('MCP import_page with a 4 MB document of unclosed tags is answered while /-/healthz answers within 100 ms', async () => {
    const hostile = page('', '<a x>').slice(0, MAX_FOREIGN_PAGE_BYTES - 1000)
    const document = {
      format: 'slotline.page',
      version: 1,
      profile: { login: 'hostile.mcp', title: null, description: hostile, avatar: null, bgImage: null, socials: [], languageCode: null, themeId: 1, published: true },
      slots: [],
      files: [],
    }
    // Sent as an agent's client sends it, encoded beforehand: the time measured is the server's.
    const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'import_page', arguments: { document, dryRun: true } } })
    const call = fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: payload,
    }).then((res) => res.text())
    const health = await healthChecksDuring(t.url, call)
    assert.match(health.result, /"isError":true/)
    assert.ok(health.slowestCpu < 100, report(health))
  })
})
