import { createServer, type IncomingHttpHeaders } from 'node:http'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  at: number
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang'

/**
 * A webhook receiver on 127.0.0.1 that keeps what it is sent and answers as the test says
 * (200 unless told otherwise; 'hang' never answers, for timeouts).
 */
export async function startReceiver() {
  const received: Received[] = []
  const waiting: Array<() => void> = []
  let answer: (r: Received) => Answer = () => ({ status: 200, body: 'ok' })
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      received.push(r)
      for (const wake of waiting.splice(0)) wake()
      const a = answer(r)
      if (a === 'hang') return
      res.writeHead(a.status, a.headers).end(a.body ?? '')
    })
  })
  server.keepAliveTimeout = 1
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hostPort: `127.0.0.1:${port}`,
    received,
    answerWith(fn: (r: Received) => Answer) {
      answer = fn
    },
    /** Resolves once `n` deliveries have arrived. */
    async waitFor(n: number, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver: ${received.length} of ${n} deliveries after ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          setTimeout(resolve, 100)
        })
      }
      return received[n - 1]
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
