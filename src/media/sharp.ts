import type SharpModule from 'sharp'

export type Sharp = typeof SharpModule

let loaded: Promise<Sharp> | undefined

/**
 * sharp, loaded on first use: libvips adds tens of megabytes and a noticeable share of start time to a
 * process that may never touch an image (a start serves no upload, card or cover).
 */
export function loadSharp(): Promise<Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // Temp files are deleted right after processing; libvips must not keep them open in its cache.
    sharp.cache({ files: 0 })
    return sharp
  })
  return loaded
}
