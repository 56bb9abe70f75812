import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

/** An S3-compatible server on 127.0.0.1 with one empty bucket, and the env that points at it. */
export async function startLocalS3(): Promise<{ env: Record<string, string>; close: () => Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'slotline-s3-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: 'slotline-test' }] })
  const { port } = await server.run()
  return {
    env: {
      S3_BUCKET: 'slotline-test',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
