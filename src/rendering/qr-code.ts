import { strongEtag } from '../kernel/etag.ts'

export type QrFormat = 'svg' | 'png'

export interface QrImage {
  body: Buffer
  contentType: string
  etag: string
}

const CONTENT_TYPES: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' }

// Medium error correction survives a small logo sticker or a scuffed print; 4 modules of quiet
// zone is what scanners are specified against.
const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const

/** QR codes of page addresses; an address's code never changes, so each is drawn once. */
export function qrCodes(maxEntries = 500) {
  const drawn = new Map<string, QrImage>()
  return async function qrCode(url: string, format: QrFormat): Promise<QrImage> {
    const key = `${format} ${url}`
    const hit = drawn.get(key)
    if (hit) return hit
    // Loaded on the first code asked for (with its PNG encoder), not at start.
    const { default: QRCode } = await import('qrcode')
    const body =
      format === 'svg'
        ? Buffer.from(await QRCode.toString(url, { ...OPTIONS, type: 'svg' }))
        : await QRCode.toBuffer(url, { ...OPTIONS, type: 'png', width: 600 })
    const image = { body, contentType: CONTENT_TYPES[format], etag: strongEtag(body) }
    if (drawn.size >= maxEntries) drawn.delete(drawn.keys().next().value!)
    drawn.set(key, image)
    return image
  }
}
