/** The public URL of an uploaded file's path (`src`); the path itself stays an opaque key. */
export const publicFileUrl = (publicUrl: string, path: string) =>
  `${publicUrl}/static/${path.split('/').map(encodeURIComponent).join('/')}`
