import { randomBytes, scrypt } from 'node:crypto'
import { promisify } from 'node:util'

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>

/** A password hash exactly as Slotline stored them before argon2id (`scrypt$salt$key`, hex). */
export async function scryptHashForTest(password: string): Promise<string> {
  const salt = randomBytes(16)
  return `scrypt$${salt.toString('hex')}$${(await scryptAsync(password, salt, 32)).toString('hex')}`
}
