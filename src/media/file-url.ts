import { SQUARE_SIZES, squareKey } from './storage.ts'

/** The public URL of an uploaded file's path (`src`); the path itself stays an opaque key. */
export const publicFileUrl = (publicUrl: string, path: string) =>
  `${publicUrl}/static/${path.split('/').map(encodeURIComponent).join('/')}`

/** The URLs of an upload's square WebP crops (made on first request: square-crops.ts). */
export interface SquareCropUrls {
  avatar: string
  touchIcon: string
  favicon: string
}

/**
 * Where a page finds its avatar's crops. A gif avatar is shown as uploaded (a still crop would
 * stop its animation); its icons are crops all the same.
 */
export function squareCrops(publicUrl: string, path: string): SquareCropUrls {
  const crop = (size: keyof typeof SQUARE_SIZES) => publicFileUrl(publicUrl, squareKey(path, SQUARE_SIZES[size]))
  return { avatar: path.endsWith('.gif') ? publicFileUrl(publicUrl, path) : crop('avatar'), touchIcon: crop('touchIcon'), favicon: crop('favicon') }
}
