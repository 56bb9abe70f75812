import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { notFound } from '../kernel/errors.ts'
import { loadSharp } from '../media/sharp.ts'
import { STORAGE_KEY } from '../media/storage.ts'
import { domains, type StoredProfile, visitor } from '../core/use-cases.ts'
import { cardVersion, nameOf } from '../rendering/social-card-url.ts'
import { sendMadeImage } from './image-response.ts'
import { imageCacheControl, pageSurrogateKeys, sharedCacheWindow } from './shared-cache.ts'
import { strongEtag } from '../kernel/etag.ts'
import { parseId } from '../kernel/ids.ts'

/** The size link previews are drawn at (Open Graph's recommended 1.91:1). */
export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630

/** Cards kept in memory per process: some 500 cards of 60 KB. */
const CACHE_BYTES = 32 * 1024 * 1024
const AVATAR_SIZE = 240
const TITLE_CHARACTERS = 40

export interface CardText {
  /** The page's name: its title, else `@login`. */
  name: string
  /** The public address, shown under the name. */
  address: string
}

/**
 * Text made safe for SVG (XML) content and attribute values: the five special characters, and
 * the control characters XML 1.0 refuses outright (one of them would make the whole card fail).
 */
export function svgText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Long names end in an ellipsis instead of running off the card (counted in code points). */
const clip = (text: string, max: number) => {
  const chars = [...text.replace(/\s+/g, ' ').trim()]
  return chars.length <= max
    ? chars.join('')
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
}

/** The card as SVG: name, address, and the avatar (a PNG data URL) in a circle when there is one. */
export function socialCardSvg(text: CardText, avatarPng?: Buffer): string {
  const textX = avatarPng ? 420 : 100
  // No text measuring here: a bold glyph is about 0.62 em wide, so long names get a smaller size.
  const width = CARD_WIDTH - textX - 60
  const clipped = clip(text.name, TITLE_CHARACTERS)
  const nameSize = Math.max(36, Math.min(64, Math.floor(width / (0.62 * [...clipped].length))))
  const name = svgText(clip(clipped, Math.floor(width / (0.62 * nameSize))))
  const address = svgText(clip(text.address.replace(/^https?:\/\//, ''), Math.floor(width / (0.55 * 34))))
  const avatar = avatarPng
    ? `<clipPath id="round"><circle cx="250" cy="315" r="${AVATAR_SIZE / 2}"/></clipPath>` +
      `<image x="${250 - AVATAR_SIZE / 2}" y="${315 - AVATAR_SIZE / 2}" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" clip-path="url(#round)" href="data:image/png;base64,${avatarPng.toString('base64')}"/>`
    : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f2937"/><stop offset="1" stop-color="#4338ca"/></linearGradient></defs>
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>
${avatar}
<text x="${textX}" y="300" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="${nameSize}" font-weight="bold" fill="#ffffff">${name}</text>
<text x="${textX}" y="380" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="34" fill="#c7d2fe">${address}</text>
<text x="${CARD_WIDTH - 60}" y="${CARD_HEIGHT - 50}" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="28" fill="#a5b4fc">Slotline</text>
</svg>`
}

interface Card {
  version: string
  body: Buffer
  etag: string
}

async function avatarPng(ctx: AppContext, path: string | null): Promise<Buffer | undefined> {
  if (!path || !STORAGE_KEY.test(path)) return undefined
  const object = await ctx.media.storage.get(path)
  if (!object) return undefined
  const chunks: Buffer[] = []
  for await (const chunk of object.body) chunks.push(chunk as Buffer)
  const sharp = await loadSharp()
  try {
    return await sharp(Buffer.concat(chunks)).resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).png().toBuffer()
  } catch (err) {
    // A card without its avatar beats no card.
    ctx.log.warn({ err, path }, 'social card drawn without its avatar: it does not decode')
    return undefined
  }
}

async function drawCard(ctx: AppContext, profile: StoredProfile, address: string, version: string): Promise<Card> {
  const svg = socialCardSvg({ name: nameOf(profile), address }, await avatarPng(ctx, profile.avatar))
  const sharp = await loadSharp()
  const body = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer()
  return { version, body, etag: strongEtag(body) }
}

/**
 * `/-/card/<profileId>/<version>.png`: the generated link-preview image of a published page (the
 * page's og:image when it has neither avatar nor background image). Drawn once per version and
 * kept in memory, least recently used first out; a 'profile-changed' event drops the profile's card.
 * An old version's URL answers the current card: a preview that kept it still shows the page.
 */
export function installSocialCards(app: FastifyInstance, ctx: AppContext): void {
  const cards = new Map<number, Card>()
  let bytes = 0
  const drop = (profileId: number) => {
    const card = cards.get(profileId)
    if (!card) return
    cards.delete(profileId)
    bytes -= card.body.length
  }
  const onChange = ({ profileId }: { profileId: number }) => drop(profileId)
  ctx.events.on('profile-changed', onChange)
  app.addHook('onClose', async () => void ctx.events.off('profile-changed', onChange))

  async function cardOf(profile: StoredProfile): Promise<Card> {
    // The page's own domain while it is active, as the page's canonical address.
    const address = await domains.pageAddress(ctx, profile)
    const version = cardVersion(profile, address)
    const hit = cards.get(profile.id)
    if (hit?.version === version) {
      // Map order is recency: re-inserting marks it used.
      cards.delete(profile.id)
      cards.set(profile.id, hit)
      return hit
    }
    const card = await drawCard(ctx, profile, address, version)
    drop(profile.id)
    cards.set(profile.id, card)
    bytes += card.body.length
    for (const [id] of cards) {
      if (bytes <= CACHE_BYTES) break
      drop(id)
    }
    return card
  }

  app.get<{ Params: { profileId: string; file: string } }>('/-/card/:profileId/:file', async (req, reply) => {
    const id = parseId(req.params.profileId)
    const profile = id && /^[\w-]{1,32}\.png$/.test(req.params.file) ? await visitor.pageById(ctx, id) : undefined
    if (!profile?.status) throw notFound('card')
    const card = await cardOf(profile)
    // A day: the URL changes with what the card shows, so a cached copy is rarely wrong.
    reply.headers(pageSurrogateKeys(profile.id, profile.login))
    return sendMadeImage(req, reply, { ...card, contentType: 'image/png' }, imageCacheControl(sharedCacheWindow(ctx.config.publicCacheSeconds), 86_400))
  })
}
