import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import type { Config } from '../config.ts'
import type { Storage } from './storage.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** An S3-compatible bucket, so several instances share one set of files. */
export function s3Storage(s3: NonNullable<Config['s3']>): Storage {
  // The pinned SDK release runs on Node 20; its warning is about releases package.json keeps out.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  // Imported here rather than at the top: a start without S3 does not carry the SDK, one of the largest dependencies.
  const sdk = import('@aws-sdk/client-s3')
  const connected = sdk.then(
    ({ S3Client }) =>
      new S3Client({
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: s3.forcePathStyle,
        credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
        // Checksums only where S3 requires them: streamed bodies then go up as plain PUTs that
        // S3-compatible servers (MinIO, Garage, s3rver) all understand.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
  )
  return {
    kind: 's3',
    async put(key, content, contentType) {
      const body = 'file' in content ? createReadStream(content.file) : content.data
      const length = 'file' in content ? (await stat(content.file)).size : content.data.length
      const [client, { PutObjectCommand }] = await Promise.all([connected, sdk])
      await client.send(
        new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentLength: length, ContentType: contentType, CacheControl: IMMUTABLE }),
      )
    },
    async get(key) {
      const [client, { GetObjectCommand }] = await Promise.all([connected, sdk])
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
        return { body: res.Body as Readable, size: Number(res.ContentLength) }
      } catch (err) {
        const name = (err as Error).name
        if (name === 'NoSuchKey' || name === 'NotFound') return undefined
        throw err
      }
    },
    async delete(key) {
      const [client, { DeleteObjectCommand }] = await Promise.all([connected, sdk])
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }))
    },
    async close() {
      ;(await connected).destroy()
    },
  }
}
