import { SQUARE_SIZES, squareKey } from './storage.ts'

/** The public URL of an uploaded file's path (`src`); the path itself stays an opaque key. */
export const publicFileUrl = (publicUrl: string, path: string) => `${publicUrl}/static/${path.split('/').map(encodeURIComponent).join('/')}`

/** The URLs of an upload's square WebP crops (made on first request: square-crops.ts). */
export interface SquareCropUrls {
  avatar: string
  /** `srcset` candidates of the avatar by width; empty for a gif (shown as uploaded). */
  avatarSrcset: string
  touchIcon: string
  favicon: string
}

/**
 * Where a page finds its avatar's crops. A gif avatar is shown as uploaded (a still crop would
 * stop its animation); its icons are crops all the same.
 */
export function squareCrops(publicUrl: string, path: string): SquareCropUrls {
  const crop = (size: keyof typeof SQUARE_SIZES) => publicFileUrl(publicUrl, squareKey(path, SQUARE_SIZES[size]))
  const gif = path.endsWith('.gif')
  return {
    avatar: gif ? publicFileUrl(publicUrl, path) : crop('avatar'),
    // Public file URLs are percent-encoded, so no comma or space can split a candidate.
    avatarSrcset: gif ? '' : `${crop('phoneAvatar')} ${SQUARE_SIZES.phoneAvatar}w, ${crop('avatar')} ${SQUARE_SIZES.avatar}w`,
    touchIcon: crop('touchIcon'),
    favicon: crop('favicon'),
  }
}
