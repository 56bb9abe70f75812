import { createHash } from 'node:crypto'

/** A strong validator: a hash of exactly these bytes. */
export const strongEtag = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
