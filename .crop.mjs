import sharp from 'sharp'
const [,, src, out, top, height, left = '0', width] = process.argv
const meta = await sharp(src).metadata()
await sharp(src).extract({ left: Number(left), top: Number(top), width: Number(width ?? meta.width) - Number(left), height: Math.min(Number(height), meta.height - Number(top)) }).toFile(out)
