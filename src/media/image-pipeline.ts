import { open, stat } from 'node:fs/promises'
import type { FormatEnum } from 'sharp'
import { limits } from '../kernel/limits.ts'
import { loadSharp, type Sharp } from './sharp.ts'

/** Why bytes were not accepted as an image; the message is meant for the API caller. */
export class ImageRejected extends Error {}

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif'

export interface ProcessedImage {
  mime: ImageMime
  ext: 'jpg' | 'png' | 'webp' | 'gif'
  width: number
  height: number
  /** The re-encoded image; absent when the uploaded file itself is kept (gif). */
  data: Buffer | undefined
  size: number
  /** Narrower WebP copies for `srcset`, narrowest first (see `variantWidths`). */
  variants: ImageVariant[]
}

/** A WebP copy of a processed image, stored beside it. */
export interface ImageVariant {
  width: number
  height: number
  data: Buffer
}

export interface ProcessOptions {
  /** Make the WebP variants too (not under Precognition, where nothing is stored). */
  variants: boolean
}

// A 400 px copy for one-column phones and small slots, and one at the full stored width (at
// most 800 px) for the rest. WebP only: AVIF was measured and left out, its encoding is too slow
// for an upload to wait on (docs/decisions/webp-not-avif.md).
export const VARIANT_WIDTHS = [400, limits.imageMaxWidth] as const
const VARIANT_QUALITY = 80

/**
 * The widths of the WebP variants of a still image `width` px wide: 400 and the full width. An
 * image at most 400 px wide gets none (it is already the small one), and a WebP upload none at
 * its own width (the page offers the upload itself there).
 */
export function variantWidths(width: number, ext: ProcessedImage['ext']): number[] {
  if (width <= VARIANT_WIDTHS[0]) return []
  const widths = [...new Set(VARIANT_WIDTHS.map((w) => Math.min(w, width)))]
  return ext === 'webp' ? widths.filter((w) => w < width) : widths
}

// A decompression bomb is a small file that decodes to billions of pixels. 50 megapixels admits
// every phone camera (48 MP) and, for animations, counts every frame.
export const MAX_INPUT_PIXELS = 50_000_000

const KINDS: Record<string, { mime: ImageMime; ext: ProcessedImage['ext']; format: keyof FormatEnum }> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg', format: 'jpeg' },
  'image/png': { mime: 'image/png', ext: 'png', format: 'png' },
  'image/webp': { mime: 'image/webp', ext: 'webp', format: 'webp' },
  'image/gif': { mime: 'image/gif', ext: 'gif', format: 'gif' },
}

function describeSharpError(err: Error): string {
  if (/pixel limit/i.test(err.message)) {
    return `The image is too large to decode: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels (all frames counted).`
  }
  return 'The image could not be decoded: the data is damaged or truncated.'
}

// A gif decoder stops quietly at a cut; a complete gif ends with the trailer byte 0x3B.
async function endsWithGifTrailer(file: string): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] === 0x3b
  } finally {
    await handle.close()
  }
}

async function webpVariant(sharp: Sharp, image: Buffer, width: number): Promise<ImageVariant> {
  const { data, info } = await sharp(image).resize({ width }).webp({ quality: VARIANT_QUALITY }).toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, data }
}

// A crop shown at most 152 px wide: at 75 the photo's grain is gone before anything else is.
const SQUARE_QUALITY = 75

/**
 * A `size` px square WebP of a stored image, cropped to its centre as the avatar circle crops it
 * (theme.css: object-fit cover, centred). A gif gives its first frame: the crop is a still.
 */
export async function squareWebp(image: Buffer, size: number): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width: size, height: size, fit: 'cover', position: 'centre' })
    .webp({ quality: SQUARE_QUALITY })
    .toBuffer()
}

/**
 * Turns an uploaded file into what is stored (spec, Files): only real jpeg, png, webp or gif,
 * sniffed from the bytes and fully decoded; bombs refused; oriented by EXIF; metadata (GPS
 * included) dropped; wider than 800 px scaled to 800 px; WebP variants made for `srcset` (issue
 * 15). A gif is kept byte for byte once it decodes, so its animation survives, and gets none.
 */
export async function processImage(file: string, options: ProcessOptions = { variants: true }): Promise<ProcessedImage> {
  // Loaded with the first upload: a resting process does not need the sniffer.
  const { fileTypeFromFile } = await import('file-type')
  const sniffed = await fileTypeFromFile(file)
  const kind = sniffed && KINDS[sniffed.mime]
  if (!kind) {
    throw new ImageRejected(`Upload a jpeg, png, webp or gif image${sniffed ? `, not ${sniffed.mime}` : ''}.`)
  }
  const sharp = await loadSharp()
  const input = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' as const, animated: kind.ext === 'gif' || kind.ext === 'webp' }
  try {
    const meta = await sharp(file, input).metadata()
    if (meta.format !== kind.format) {
      throw new ImageRejected(`The data is not a valid ${kind.ext} image.`)
    }
    const frameHeight = meta.pageHeight ?? meta.height
    if (kind.ext === 'gif') {
      // Decoding every frame is the validation; the statistics themselves are not needed.
      await sharp(file, input).stats()
      if (!(await endsWithGifTrailer(file))) throw new ImageRejected('The image could not be decoded: the data is damaged or truncated.')
      const { size } = await stat(file)
      // No variants: a still WebP copy would lose the animation.
      return { ...kind, width: meta.width, height: frameHeight, data: undefined, size, variants: [] }
    }
    const animated = (meta.pages ?? 1) > 1
    const image = sharp(file, input)
    // EXIF orientation is a still-image notion; libvips cannot rotate a multi-page image.
    if (!animated) image.rotate()
    image.resize({ width: limits.imageMaxWidth, withoutEnlargement: true })
    if (kind.format === 'jpeg') image.jpeg({ quality: 85, mozjpeg: true })
    else if (kind.format === 'png') image.png()
    else image.webp({ quality: 85 })
    const { data, info } = await image.toBuffer({ resolveWithObject: true })
    const width = info.width
    // Variants are made from the stored image (oriented, stripped, at most 800 px), so they show
    // exactly what it shows; an animation keeps its frames only in the upload itself.
    const widths = options.variants && !animated ? variantWidths(width, kind.ext) : []
    const variants = await Promise.all(widths.map((w) => webpVariant(sharp, data, w)))
    return { ...kind, width, height: info.pageHeight ?? info.height, data, size: data.length, variants }
  } catch (err) {
    if (err instanceof ImageRejected) throw err
    throw new ImageRejected(describeSharpError(err as Error), { cause: err })
  }
}
