import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>

export const TOKEN_PREFIX = 'slp_'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** ARCHITECTURE: `slp_` + 40 base62 characters (~238 bits), drawn without modulo bias. */
export function generateToken(): string {
  let body = ''
  for (let i = 0; i < 40; i++) body += BASE62[randomInt(62)]
  return TOKEN_PREFIX + body
}

export const isTokenShaped = (raw: string) => /^slp_[0-9A-Za-z]{40}$/.test(raw)

export const sha256 = (value: string | Buffer) => createHash('sha256').update(value).digest('hex')

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, 32)
  return `scrypt$${salt.toString('hex')}$${key.toString('hex')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, keyHex] = stored.split('$')
  if (scheme !== 'scrypt' || !saltHex || !keyHex) return false
  const key = await scryptAsync(password, Buffer.from(saltHex, 'hex'), 32)
  return timingSafeEqual(key, Buffer.from(keyHex, 'hex'))
}

export const randomPassword = () => randomBytes(12).toString('base64url')
