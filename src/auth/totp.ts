import { randomInt } from 'node:crypto'
import { onFirstUse } from '../kernel/on-first-use.ts'
import { sha256 } from './secrets.ts'

/**
 * Time-based one-time codes (RFC 6238) as every authenticator app reads them: SHA-1, six
 * digits, thirty seconds. A code of the step before or after is accepted too (a phone's clock
 * drifts, a person types slowly); which step matched is returned so it is used only once.
 */
const PERIOD = 30
// Only accounts turning codes on or signing in with one need it; a resting process does not.
const otpauth = onFirstUse<typeof import('otpauth')>('otpauth')
const WINDOW = 1

export const newTotpSecret = (): string => new (otpauth().Secret)({ size: 20 }).base32

const totpOf = (secret: string, label: string, issuer: string) =>
  new (otpauth().TOTP)({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: otpauth().Secret.fromBase32(secret) })

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (secret: string, label: string, issuer: string): string => totpOf(secret, label, issuer).toString()

/** Digits only: spaces and dashes people type between groups are dropped. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '')

/** The time step this six-digit code belongs to, or undefined when it matches none near now. */
export function totpStep(secret: string, code: string, now = Date.now()): number | undefined {
  const token = normalizeCode(code)
  if (!/^\d{6}$/.test(token)) return undefined
  const delta = totpOf(secret, 'check', 'check').validate({ token, timestamp: now, window: WINDOW })
  if (delta === null) return undefined
  return otpauth().TOTP.counter({ period: PERIOD, timestamp: now }) + delta
}

// No 0/o, 1/l/i: a code read from paper must be typed without guessing.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
export const RECOVERY_CODE_COUNT = 10

/** Ten codes of ten characters (about 49 bits each), shown as xxxxx-xxxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = ''
    for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
    return `${s.slice(0, 5)}-${s.slice(5)}`
  })
}

export const isRecoveryCodeShaped = (code: string) => /^[a-z0-9]{10}$/.test(normalizeCode(code).toLowerCase())

/** The digest stored for a recovery code, whatever case and separators it was typed with. */
export const recoveryCodeHash = (code: string) => sha256(`recovery:${normalizeCode(code).toLowerCase()}`)
