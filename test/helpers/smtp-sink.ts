import { SMTPServer } from 'smtp-server'

/** A local SMTP server on 127.0.0.1 that keeps every message it receives (raw text). */
export async function startSmtpSink() {
  const messages: Array<{ to: string[]; raw: string }> = []
  const waiting: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') })
        for (const wake of waiting.splice(0)) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves once `n` messages have arrived. */
    async waitFor(n: number) {
      while (messages.length < n) await new Promise<void>((resolve) => waiting.push(resolve))
      return messages[n - 1]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
