import sharp from 'sharp'

// Images the tests make themselves, each small and quick to encode.

export const solid = (width: number, height: number, format: 'png' | 'jpeg' | 'webp', background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer()

/** A 300×200 jpeg whose EXIF says "rotate 90° clockwise" (orientation 6) and carries a GPS position. */
export async function jpegWithOrientationAndGps(): Promise<Buffer> {
  // Left half red, right half blue: after the rotation the top is red and the bottom blue.
  const left = await sharp({ create: { width: 150, height: 200, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer()
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } } as any)
    .toBuffer()
}

/** True when the EXIF block holds a GPS IFD pointer (tag 0x8825, either byte order). */
export const hasGpsTag = (exif: Buffer | undefined) => !!exif && (exif.indexOf(Buffer.from([0x88, 0x25])) >= 0 || exif.indexOf(Buffer.from([0x25, 0x88])) >= 0)

/** A three-frame animated gif, 32×32. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(32, 32, 'png', c)))
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100, 100], loop: 0 })
    .toBuffer()
}

/** 8000×8000 of one colour: a few hundred KB that would decode to 64 megapixels. */
export const pixelBomb = () =>
  sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#000' } })
    .png({ compressionLevel: 9 })
    .toBuffer()

/**
 * A `size`×`size` jpeg that behaves like a photo for an encoder: a gradient and a face-like disc
 * under coarse grain (noise made at a quarter of the size and scaled up), so a 300 px crop still
 * holds detail (~25 KB of WebP) instead of compressing to nothing as flat colour or fine noise do.
 */
export async function photoLikeJpeg(size = 2000): Promise<Buffer> {
  const noise = await sharp({
    create: { width: size / 4, height: size / 4, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
  })
    .png()
    .toBuffer()
  const grain = await sharp(noise).resize({ width: size, height: size, kernel: 'cubic' }).png().toBuffer()
  const scene = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#d98a4b"/><stop offset="0.5" stop-color="#4b7bd9"/><stop offset="1" stop-color="#2c8a4f"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${size / 2}" cy="${size * 0.4}" r="${size * 0.22}" fill="#f1c9a5"/></svg>`
  return sharp(Buffer.from(scene))
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer()
}
