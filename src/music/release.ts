/** What one upstream knows about a release (album) or a track, in our words. */
export interface Release {
  kind: 'album' | 'track'
  title: string
  artist: string | null
  /** Cover image URL, the largest the upstream offers. */
  thumbnail: string | null
  /** The release's page on the upstream's own platform. */
  url: string
}

/** Every platform's link for one release, as a link aggregator (Odesli) reports it. */
export interface LinkSet {
  title: string | null
  artist: string | null
  thumbnail: string | null
  /** In the aggregator's order; one per platform it knows. */
  urls: string[]
}
