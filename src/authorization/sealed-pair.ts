import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import type { AppContext } from '../context.ts'

/**
 * A token pair kept in the store for a retry in the refresh grace, sealed (AES-256-GCM) with a key
 * derived from the service secret: the table holds digests of live tokens, never the tokens, and a
 * copy of the database alone still does not give them away.
 */
const keyOf = (ctx: AppContext) => createHmac('sha256', ctx.secret).update('oauth refresh successor').digest()

export function seal<T>(ctx: AppContext, value: T): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(ctx), iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

/** The sealed value, or undefined when it does not open (another secret, a damaged row). */
export function unseal<T>(ctx: AppContext, sealed: string): T | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', keyOf(ctx), raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as T
  } catch {
    return undefined
  }
}
