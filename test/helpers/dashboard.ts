import { usersRepository } from '../../src/store/users.ts'
import type { TestApp } from './app.ts'

export interface PageResponse {
  status: number
  headers: Headers
  text: string
  /** The Location header of a redirect. */
  location: string | null
}

/**
 * A person with a browser, minus the browser: keeps cookies, follows nothing by itself, and
 * talks real HTTP to the test app on 127.0.0.1.
 */
export class Visitor {
  readonly cookies = new Map<string, string>()

  constructor(readonly base: string) {}

  static of(t: TestApp) {
    return new Visitor(t.url)
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    const res = await fetch(new URL(path, this.base), {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body,
    })
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') }
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers)
  }

  post(path: string, fields: Record<string, string | string[]>) {
    const form = new URLSearchParams()
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one)
    return this.request('POST', path, form.toString())
  }

  /** GETs `page`, then posts `fields` with that page's CSRF token to `action` (default: the page). */
  async submit(page: string, fields: Record<string, string | string[]>, action = page.split('?')[0]) {
    const shown = await this.get(page)
    if (shown.status !== 200) throw new Error(`GET ${page} answered ${shown.status}`)
    return this.post(action, { _csrf: csrfOf(shown.text), ...fields })
  }

  async register(fields: { name?: string; email: string; password?: string; timezone?: string }) {
    const res = await this.submit('/register', {
      name: fields.name ?? 'Jane',
      email: fields.email,
      password: fields.password ?? 'correct horse battery',
      timezone: fields.timezone ?? 'UTC',
    })
    if (res.status !== 303) throw new Error(`register answered ${res.status}: ${res.text.slice(0, 500)}`)
    return res
  }

  async signIn(email: string, password = 'correct horse battery') {
    const res = await this.submit('/login', { email, password })
    if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`)
    return res
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html)
  if (!m) throw new Error('no CSRF field on the page')
  return m[1]
}

let n = 0
export const freshEmail = () => `person.${Date.now().toString(36)}.${n++}@example.test`

/** A visitor who just registered, signed in, with the user the registration made. */
export async function registeredVisitor(t: TestApp) {
  const v = Visitor.of(t)
  const email = freshEmail()
  await v.register({ email })
  return { v, user: (await usersRepository.findByEmail(t.ctx.db, email))! }
}
