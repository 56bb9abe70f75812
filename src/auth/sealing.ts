import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * Values the service must read back but a copy of the database alone must not give away (a
 * token pair kept for a retry, a webhook signing secret), sealed with AES-256-GCM under a key
 * derived from the service secret and the value's purpose, so one purpose's rows never open
 * as another's.
 */
const keyOf = (secret: Buffer, purpose: string) => createHmac('sha256', secret).update(purpose).digest()

export function seal<T>(secret: Buffer, purpose: string, value: T): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

/** The sealed value, or undefined when it does not open (another secret or purpose, a damaged row). */
export function unseal<T>(secret: Buffer, purpose: string, sealed: string): T | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as T
  } catch {
    return undefined
  }
}
