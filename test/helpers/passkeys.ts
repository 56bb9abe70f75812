import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { passkeysRepository } from '../../src/store/passkeys.ts'
import type { TestApp } from './app.ts'
import type { Visitor } from './dashboard.ts'

const b64u = (b: Buffer) => b.toString('base64url')

/** A passkey held by the test: its id, its key pair, and the counter it signs with. */
export class SoftPasskey {
  readonly id = b64u(randomBytes(16))
  readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  counter = 0

  /** The public key in COSE form (EC2, ES256), as stored from a registration. */
  cosePublicKey(): string {
    const jwk = this.keys.publicKey.export({ format: 'jwk' })
    const x = Buffer.from(jwk.x as string, 'base64url')
    const y = Buffer.from(jwk.y as string, 'base64url')
    return b64u(Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]))
  }

  /** An answer to `challenge`, signed by `key` (another key makes a forged one), for `origin`. */
  answer(challenge: string, origin: string, o: { key?: KeyObject; counter?: number } = {}): string {
    const counter = o.counter ?? ++this.counter
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }))
    const flags = Buffer.from([0x05])
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    const authData = Buffer.concat([createHash('sha256').update(new URL(origin).hostname).digest(), flags, count])
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), o.key ?? this.keys.privateKey)
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authData), signature: b64u(signature) },
      clientExtensionResults: {},
    })
  }
}

/** Gives the account a passkey held by the test, as if added in the dashboard. */
export async function addSoftPasskey(t: TestApp, userId: number, name = 'Phone'): Promise<SoftPasskey> {
  const passkey = new SoftPasskey()
  await passkeysRepository.insert(t.ctx.db, {
    userId,
    credentialId: passkey.id,
    publicKey: passkey.cosePublicKey(),
    counter: 0,
    transports: ['internal'],
    name,
  })
  return passkey
}

/**
 * A signed-in visitor's passkey answer for a step asked on a page: a challenge from `options`
 * (with the page's CSRF token), answered by `passkey` for the service at `origin`.
 */
export async function passkeyAnswer(v: Visitor, csrf: string, passkey: SoftPasskey, origin: string, options = '/settings/confirm/passkey-options') {
  const res = await v.post(options, { _csrf: csrf })
  if (res.status !== 200) throw new Error(`passkey options answered ${res.status}: ${res.text.slice(0, 200)}`)
  return passkey.answer(JSON.parse(res.text).challenge as string, origin)
}
