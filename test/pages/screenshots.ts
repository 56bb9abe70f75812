import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import sharp from 'sharp'

/**
 * How far two screenshots are apart, over the area they share (a style that only moves things by
 * a pixel must not pass for a different look): the share of its pixels where some colour channel
 * differs by more than 16 of 255, which an eye sees over an area (a grey card against a white one).
 */
export async function differingShare(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })))
  const width = Math.min(x.info.width, y.info.width)
  const height = Math.min(x.info.height, y.info.height)
  let differing = 0
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * x.info.width + col) * 3
      const j = (row * y.info.width + col) * 3
      if (Math.max(Math.abs(x.data[i] - y.data[j]), Math.abs(x.data[i + 1] - y.data[j + 1]), Math.abs(x.data[i + 2] - y.data[j + 2])) > 16) differing++
    }
  }
  return differing / (width * height)
}

/**
 * Replaces a screenshot kept in the repository only when the page looks different: Chromium's
 * rendering varies by a few pixels from run to run, and a test run should not leave the checkout
 * with modified files for changes no one can see.
 */
export async function keepScreenshot(shot: Buffer, kept: URL): Promise<void> {
  if (existsSync(kept)) {
    const old = readFileSync(kept)
    const [a, b] = await Promise.all([sharp(shot).metadata(), sharp(old).metadata()])
    if (a.width === b.width && a.height === b.height && (await differingShare(shot, old)) < 0.001) return
  }
  writeFileSync(kept, shot)
}
