import { AppError } from '../kernel/errors.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

const malformed = (message: string) => new AppError('malformed_request', { message })

/**
 * `application/x-www-form-urlencoded`, strictly: the WHATWG parser (URLSearchParams) never fails,
 * turning a lone `%` into a literal and bad bytes into U+FFFD, so a broken body would be stored
 * as something the sender never wrote. Here either is a 400. Keys are plain (no `a[b]` nesting);
 * a repeated key keeps its last value, unless `repeated` is given: it is called with the key (and
 * may throw). The result has no prototype, so `__proto__` is a key.
 */
export function parseFormBody(body: Buffer, repeated?: (key: string) => void): Record<string, string> {
  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    throw malformed('The form body is not valid UTF-8.')
  }
  const out: Record<string, string> = Object.create(null)
  if (text === '') return out
  for (const pair of text.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const [rawKey, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]
    let key: string
    let value: string
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '))
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '))
    } catch {
      throw malformed('The form body has a broken %-escape: each % must start two hexadecimal digits of UTF-8.')
    }
    if (repeated && key in out) repeated(key)
    out[key] = value
  }
  return out
}
