import type { FastifyReply, FastifyRequest } from 'fastify'
import { etagMatches } from '../http/negotiation.ts'

/** An image the service made (social card, proxied cover, QR code), ready to send. */
export interface MadeImage {
  body: Buffer | string
  etag: string
  contentType: string
}

/**
 * Sends a made image with its validator, or a 304 when the client holds it. Never sniffed,
 * and sandboxed: an SVG opened on its own runs nothing.
 */
export function sendMadeImage(req: FastifyRequest, reply: FastifyReply, image: MadeImage, cacheControl: string) {
  reply.headers({
    etag: image.etag,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  })
  if (etagMatches(req.headers['if-none-match'], image.etag)) return reply.code(304).send()
  return reply.type(image.contentType).send(image.body)
}
