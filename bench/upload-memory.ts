import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { makeAccount, startApp } from '../test/helpers/app.ts'
import { report } from './lib.ts'

const LIMIT_MB = 100

// Random pixels do not compress, so 4000×4000 RGB makes a png of about 48 MB: an upload near the
// 50 MB limit that is also a real image for the whole pipeline. Made in a child process so that
// encoding it does not count against this process's memory.
const MAKE_IMAGE = `
import sharp from 'sharp'
import { randomFillSync } from 'node:crypto'
const width = 4000, height = 4000
const pixels = randomFillSync(Buffer.alloc(width * height * 3))
await sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toFile(process.argv[1])
`

// The client is another process, as real clients are: only the service's memory is measured.
// A file-backed Blob lets fetch stream the file from disk.
const UPLOAD = `
import { openAsBlob } from 'node:fs'
const [url, token, file] = process.argv.slice(1)
const form = new FormData()
form.append('file', await openAsBlob(file, { type: 'image/png' }), 'big.png')
const res = await fetch(url, { method: 'POST', body: form, headers: { authorization: 'Bearer ' + token } })
console.log(JSON.stringify({ status: res.status, body: await res.json() }))
`

/**
 * POST /v1/files with a ~50 MB image over real HTTP: the upload is streamed to a temp file and
 * processed from there, so the service process's RSS must grow by less than 100 MB. Prints the
 * growth.
 */
export async function benchUploadMemory(store: 'sqlite' | 'postgres' = 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'slotline-bench-upload-'))
  const file = join(dir, 'big.png')
  execFileSync(process.execPath, ['--input-type=module', '-e', MAKE_IMAGE, file], { cwd: process.cwd(), stdio: 'inherit' })
  const size = statSync(file).size
  const t = await startApp({}, { store })
  try {
    const { token } = await makeAccount(t)
    // Warm the path once with a small image, so the figure is the upload's, not first-use setup.
    const small = new FormData()
    const warmup = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#888' } })
      .png()
      .toBuffer()
    small.append('file', new Blob([new Uint8Array(warmup)], { type: 'image/png' }), 'warmup.png')
    await (await fetch(`${t.url}/v1/files`, { method: 'POST', body: small, headers: { authorization: `Bearer ${token}` } })).arrayBuffer()
    ;(globalThis as { gc?: () => void }).gc?.()

    const baseline = process.memoryUsage.rss()
    let peak = baseline
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
    }, 10)
    const started = performance.now()
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', UPLOAD, `${t.url}/v1/files`, token, file])
    const ms = performance.now() - started
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage.rss())
    const { status, body } = JSON.parse(stdout) as { status: number; body: { data?: { width: number; height: number } } }
    if (status !== 201) throw new Error(`upload-memory: expected 201, got ${status} ${JSON.stringify(body)}`)
    const growthMb = (peak - baseline) / 1024 / 1024
    report(
      `POST /v1/files ${(size / 1024 / 1024).toFixed(1)} MB png, RSS growth (${store})`,
      `${growthMb.toFixed(1)} MB ${growthMb < LIMIT_MB ? '<' : '>='} ${LIMIT_MB} MB`,
      `(baseline ${(baseline / 1024 / 1024).toFixed(0)} MB, peak ${(peak / 1024 / 1024).toFixed(0)} MB, ${Math.round(ms)} ms, stored ${body.data?.width}×${body.data?.height})`,
    )
    return { growthMb, ok: growthMb < LIMIT_MB }
  } finally {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
