import { createHmac, timingSafeEqual } from 'node:crypto'
import type { AppContext } from '../context.ts'

/** Where the proxy answers: under `/-/`, a segment no login can take. */
export const REMOTE_IMAGE_PATH = '/-/remote'

const SIGNATURE = /^[A-Za-z0-9_-]{22}$/

const signatureOf = (secret: Buffer, url: string) => createHmac('sha256', secret).update(`remote-image\n${url}`).digest().subarray(0, 16)

/**
 * The same-origin address of a remote image (music covers, video thumbnails): signed with the
 * service's secret, so the proxy fetches only URLs the page renderer handed out, never one a
 * visitor made up. URLs already on our origin are returned as they are.
 */
export function remoteImageUrl(ctx: AppContext, url: string): string {
  if (url.startsWith(`${ctx.config.publicUrl}/`) || url.startsWith('/')) return url
  const id = Buffer.from(url).toString('base64url')
  return `${REMOTE_IMAGE_PATH}/${signatureOf(ctx.secret, url).toString('base64url')}/${id}`
}

/** The URL a signed path names, or undefined when the signature does not match it. */
export function verifiedRemoteUrl(secret: Buffer, signature: string, id: string): string | undefined {
  if (!SIGNATURE.test(signature) || !/^[A-Za-z0-9_-]{1,4096}$/.test(id)) return undefined
  const url = Buffer.from(id, 'base64url').toString()
  return timingSafeEqual(Buffer.from(signature, 'base64url'), signatureOf(secret, url)) ? url : undefined
}
