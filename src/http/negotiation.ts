/** The quality the Accept header gives `type` (exact match, then `major/*`, then `*\/*`). */
function quality(accept: string, type: string): number {
  const major = `${type.split('/')[0]}/*`
  let exact: number | undefined
  let partial: number | undefined
  let any: number | undefined
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';')
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    const value = Number.isFinite(q) ? q : 0
    if (range === type) exact = value
    else if (range === major) partial = value
    else if (range === '*/*') any = value
  }
  return exact ?? partial ?? any ?? 0
}

/**
 * True when the client asks for the page as markdown (agents send `Accept: text/markdown`):
 * markdown must be named and preferred at least as much as HTML. Browsers name text/html, and
 * a bare `*\/*` keeps the HTML page.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept || !/text\/markdown/i.test(accept)) return false
  const markdown = quality(accept, 'text/markdown')
  return markdown > 0 && markdown >= quality(accept, 'text/html')
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque)
}
