import { createHash, timingSafeEqual } from 'node:crypto'

/** RFC 7636 §4.2: an S256 challenge is the unpadded base64url of a SHA-256, 43 characters. */
export const isS256Challenge = (challenge: string) => /^[A-Za-z0-9_-]{43}$/.test(challenge)

/** RFC 7636 §4.1 verifier shape, then §4.6: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
