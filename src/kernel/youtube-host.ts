/**
 * Where YouTube serves video thumbnails: the youtube slot names it in its computed fields, and
 * the configuration lets tests (and mirrors) serve the same paths from elsewhere.
 */
export const YOUTUBE_THUMBNAIL_HOST = 'https://i.ytimg.com'
