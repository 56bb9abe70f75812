import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import pino from 'pino'
import { buildApp, closeContext, createContext } from '../../src/app.ts'
import { type Config, loadConfig } from '../../src/config.ts'
import { type ApiResponse, type RequestOptions, TEST_ENV, type TestApp } from '../helpers/app.ts'
import { startLocalS3 } from '../media/local-s3.ts'

const pgUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

async function admin(query: string) {
  const client = new pg.Client({ connectionString: pgUrl() })
  await client.connect()
  await client.query(query)
  await client.end()
}

/** `request` of TestApp, over real HTTP to `base` (an instance or the proxy in front of both). */
export function httpClient(base: string) {
  return async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    let body: string | Uint8Array<ArrayBuffer> | undefined =
      options.payload === undefined || typeof options.payload === 'string' ? options.payload : new Uint8Array(options.payload)
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await fetch(new URL(path, base), { method, headers, body, redirect: 'manual' })
    const text = await res.text()
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed, text }
  }
}

/**
 * A load balancer in miniature: each request goes to the next upstream in turn, whatever
 * connection it came on. `served[i]` counts the requests upstream i was given.
 */
export async function roundRobinProxy(): Promise<{ url: string; upstreams: string[]; served: number[]; close: () => Promise<void> }> {
  const upstreams: string[] = []
  const served: number[] = []
  const agent = new http.Agent({ keepAlive: true })
  let next = 0
  const server = http.createServer((req, res) => {
    const i = next++ % upstreams.length
    served[i] = (served[i] ?? 0) + 1
    const forward = http.request(new URL(req.url ?? '/', upstreams[i]), { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    url,
    upstreams,
    served,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}

export interface Instance extends TestApp {
  /** The SIGTERM path of src/main.ts: finish in-flight requests, then close the context (final flushes). Safe to call twice. */
  close(): Promise<void>
}

export interface Fleet {
  /** Instances A and B. */
  instances: [Instance, Instance]
  /** The round-robin proxy in front of both: PUBLIC_URL of the fleet. */
  proxy: Awaited<ReturnType<typeof roundRobinProxy>>
  /** Talks to the fleet through the proxy. */
  request: TestApp['request']
  close(): Promise<void>
}

/**
 * Two instances as separate machines would run them: each its own DATA_DIR, one shared
 * SECRET_KEY, one PostgreSQL schema, one Redis key prefix and one S3 bucket (s3rver on
 * 127.0.0.1), behind a round-robin proxy whose URL is their PUBLIC_URL. `env` adds settings
 * (rate limits are off unless it sets them).
 */
export async function startFleet(env: Record<string, string> = {}): Promise<Fleet> {
  const id = randomBytes(6).toString('hex')
  const schema = `t_${id}`
  const redisPrefix = `test:${id}:`
  const dataDirs: string[] = []
  const s3 = await startLocalS3()
  const proxy = await roundRobinProxy()
  await admin(`CREATE SCHEMA ${schema}`)
  const shared: Record<string, string> = {
    DATABASE_URL: pgUrl(),
    REDIS_URL: redisUrl(),
    ...s3.env,
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: proxy.url,
    PORT: '0',
    ...TEST_ENV,
    ...env,
  }
  const instances: Instance[] = []
  async function close() {
    await proxy.close()
    for (const instance of instances) await instance.close()
    const redis = new Redis(redisUrl())
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    await admin(`DROP SCHEMA ${schema} CASCADE`)
    await s3.close()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  }
  try {
    // One after the other: the first runs the migrations the second then finds done.
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'slotline-fleet-'))
      dataDirs.push(dataDir)
      instances.push(await startInstance(loadConfig({ ...shared, DATA_DIR: dataDir }), schema, redisPrefix))
      proxy.upstreams.push(instances[i].url)
      proxy.served.push(0)
    }
  } catch (err) {
    await close()
    throw err
  }
  return { instances: instances as [Instance, Instance], proxy, request: httpClient(proxy.url), close }
}

async function startInstance(config: Config, schema: string, redisPrefix: string): Promise<Instance> {
  const ctx = await createContext(config, { logger: pino({ level: 'silent' }), schema, redisPrefix })
  try {
    const app = await buildApp(ctx)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    let closed: Promise<void> | undefined
    return {
      app,
      ctx,
      url,
      request: httpClient(url),
      close: () =>
        (closed ??= (async () => {
          await app.close()
          await closeContext(ctx)
        })()),
    }
  } catch (err) {
    await closeContext(ctx)
    throw err
  }
}
