import { hash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2'

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>

export const TOKEN_PREFIX = 'slp_'
/** ARCHITECTURE: OAuth access and refresh tokens, stored hashed beside personal tokens. */
export const ACCESS_TOKEN_PREFIX = 'slo_'
export const REFRESH_TOKEN_PREFIX = 'slr_'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** ARCHITECTURE: a prefix + 40 base62 characters (~238 bits), drawn without modulo bias. */
export function generateToken(prefix = TOKEN_PREFIX): string {
  let body = ''
  for (let i = 0; i < 40; i++) body += BASE62[randomInt(62)]
  return prefix + body
}

/** What may be sent as a bearer token: a personal or an OAuth access token (never a refresh token). */
export const isTokenShaped = (raw: string) => /^sl[po]_[0-9A-Za-z]{40}$/.test(raw)

// One-shot: every API request hashes its token, and a Hash object per call cost more than the digest.
export const sha256 = (value: string | Buffer) => hash('sha256', value, 'hex')

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * argon2id with @node-rs/argon2's defaults (19 MiB, 2 passes: OWASP's minimum), as a PHC
 * string that carries its own parameters, so raising them later needs no migration.
 */
export const hashPassword = (password: string): Promise<string> => argon2Hash(password)

/** Checks a password against either format: argon2id, or the scrypt hashes made before it. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) return argon2Verify(stored, password).catch(() => false)
  const [scheme, saltHex, keyHex] = stored.split('$')
  if (scheme !== 'scrypt' || !saltHex || !keyHex) return false
  const key = await scryptAsync(password, Buffer.from(saltHex, 'hex'), 32)
  const expected = Buffer.from(keyHex, 'hex')
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** A stored hash in an older format: rehashed at the next successful sign-in. */
export const needsRehash = (stored: string) => !stored.startsWith('$argon2id$')

export const randomPassword = () => randomBytes(12).toString('base64url')
