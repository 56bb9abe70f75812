/**
 * The service mark as a 32×32 ICO (one 32-bit BMP image), drawn here rather than shipped as a
 * binary: a rounded square in the page theme's ink with three slot bars, the middle one short.
 */
export function serviceMarkIco(): Buffer {
  const size = 32
  const ink = [0x22, 0x2b, 0x33] // RGB
  const paper = [0xf3, 0xf1, 0xec]
  const bars = [
    { y: 8, from: 8, to: 24 },
    { y: 15, from: 8, to: 19 },
    { y: 22, from: 8, to: 24 },
  ]
  const pixel = (x: number, y: number): number[] | undefined => {
    // Rounded corners of radius 6: outside them the icon is transparent.
    const r = 6
    const cx = x < r ? r : x > size - 1 - r ? size - 1 - r : x
    const cy = y < r ? r : y > size - 1 - r ? size - 1 - r : y
    if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return undefined
    return bars.some((b) => y >= b.y && y < b.y + 3 && x >= b.from && x < b.to) ? paper : ink
  }

  const header = Buffer.alloc(6 + 16)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  const maskRow = Math.ceil(size / 32) * 4
  const bitmap = Buffer.alloc(40 + size * size * 4 + maskRow * size)
  bitmap.writeUInt32LE(40, 0) // BITMAPINFOHEADER
  bitmap.writeInt32LE(size, 4)
  bitmap.writeInt32LE(size * 2, 8) // ICO bitmaps count the AND mask in the height
  bitmap.writeUInt16LE(1, 12)
  bitmap.writeUInt16LE(32, 14)
  // Rows bottom-up, BGRA; the AND mask stays zero since the alpha channel carries transparency.
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const colour = pixel(x, y)
      const at = 40 + ((size - 1 - y) * size + x) * 4
      if (colour) bitmap.set([colour[2], colour[1], colour[0], 0xff], at)
    }
  }
  header.writeUInt8(size, 6) // width
  header.writeUInt8(size, 7) // height
  header.writeUInt16LE(1, 10) // colour planes
  header.writeUInt16LE(32, 12) // bits per pixel
  header.writeUInt32LE(bitmap.length, 14)
  header.writeUInt32LE(header.length, 18)
  return Buffer.concat([header, bitmap])
}
