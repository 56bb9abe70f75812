import { SlotRuleError } from '../types.ts'
import { normaliseLink } from './links.ts'

/**
 * Collects every rule problem of one slot's data, so a write reports all of them at once
 * (keys relative to data: `items.2.link`), then throws them together from `done()`.
 */
export class Problems {
  readonly errors: Record<string, string[]> = {}

  add(field: string, message: string): void {
    const list = (this.errors[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }

  /** A link as stored (scheme completed), or the raw value with a problem recorded. '' stays '' unless required. */
  link(field: string, raw: string, options: { required?: boolean; webOnly?: boolean } = {}): string {
    if (raw === '' && !options.required) return ''
    const result = normaliseLink(raw)
    if (!result.ok) {
      this.add(field, result.message)
      return raw
    }
    if (options.webOnly && !/^https?:/i.test(result.url)) {
      this.add(field, 'Must be a web address (http or https).')
      return raw
    }
    return result.url
  }

  /** An upload path: what POST /files returned, never a URL (ownership is checked by the service). */
  uploadPath(field: string, path: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
      this.add(field, 'Send the path returned by {{files.upload}} (like "u1/2026/11/photo.webp"), not a URL.')
    } else if (!path.trim()) {
      this.add(field, 'Must not be empty: send the path returned by {{files.upload}}.')
    }
    return path
  }

  done<T>(value: T): T {
    if (Object.keys(this.errors).length) throw new SlotRuleError(this.errors)
    return value
  }
}
