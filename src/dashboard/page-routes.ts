import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import type { User } from '../core/use-cases.ts'
import { loginUrlFor, requireUser } from './current-user.ts'
import { type PageOptions, sendPage } from './layout.ts'
import { csrfProtection, csrfToken } from './scope.ts'
import { formFiles, readMultipart } from './multipart-form.ts'
import { touchSession } from './signed-in-session.ts'

export type Form = Record<string, string | string[] | undefined>

export interface PageInput<U extends User | undefined> {
  ctx: AppContext
  req: FastifyRequest
  reply: FastifyReply
  /** The signed-in user (rows with `signedIn: true`). */
  user: U
  form: Form
  /** Files of a multipart form (rows with `multipart: true`), by field name; empty pickers are left out. */
  files: Record<string, Buffer>
  query: Record<string, string | undefined>
  params: Record<string, string>
  /** A fresh CSRF token for the forms of this answer. */
  csrf: () => string
  /** Sends a page in the layout, with this user's navigation and any pending flash message. */
  render: (o: Omit<PageOptions, 'user' | 'csrf' | 'flash'>, status?: number) => FastifyReply
  /** Redirects (303) to a same-origin path, leaving a message for the next page. */
  redirect: (path: string, flash?: string, bad?: boolean) => FastifyReply
}

/**
 * One row of a dashboard table: a POST always passes the CSRF check first (403, nothing done);
 * a `signedIn` row sends visitors to /login?next=… and gets the user.
 */
export type PageRow = (
  | { method: 'GET' | 'POST'; url: string; signedIn: true; handler: (input: PageInput<User>) => Promise<unknown> }
  | { method: 'GET' | 'POST'; url: string; signedIn: false; handler: (input: PageInput<User | undefined>) => Promise<unknown> }
) & {
  /** A multipart form whose fields (its CSRF token among them) are read before the CSRF check. */
  multipart?: true
  /** A multipart form: the handler checks the CSRF token from its first part (the preHandler cannot read it). */
  checksCsrfItself?: true
}

/** A form field as one string (the first value when sent twice); '' when absent. */
export const text = (form: Form, name: string): string => {
  const v = form[name]
  return (Array.isArray(v) ? v[0] : v) ?? ''
}

/** Every value of a repeated field (checkboxes). */
export const values = (form: Form, name: string): string[] => {
  const v = form[name]
  return v === undefined ? [] : Array.isArray(v) ? v : [v]
}

export function registerPages(scope: FastifyInstance, ctx: AppContext, rows: PageRow[]): void {
  const csrfProtected = csrfProtection(ctx)
  for (const row of rows) {
    scope.route({
      method: row.method,
      url: row.url,
      // A form posted without a session is refused from its head, before its body is read
      // (a trickled body would otherwise hold the socket until the body deadline).
      onRequest:
        row.signedIn && row.method === 'POST'
          ? async (req, reply) => {
              if (typeof req.session?.userId !== 'number')
                return reply.code(303).header('location', loginUrlFor(req)).header('cache-control', 'no-store').send()
            }
          : undefined,
      // A multipart form's fields (its CSRF token among them) are read before the CSRF check.
      preValidation: row.multipart ? readMultipart : undefined,
      preHandler: row.method === 'POST' && !row.checksCsrfItself ? csrfProtected : undefined,
      handler: async (req, reply) => {
        const user = row.signedIn ? await requireUser(ctx, req, reply) : undefined
        if (row.signedIn && !user) return reply
        touchSession(req)
        let token: string | undefined
        const csrf = () => (token ??= csrfToken(ctx, req, reply))
        const input: PageInput<any> = {
          ctx,
          req,
          reply,
          user,
          form: (req.body ?? {}) as Form,
          files: formFiles(req),
          query: (req.query ?? {}) as Record<string, string | undefined>,
          params: (req.params ?? {}) as Record<string, string>,
          csrf,
          render: (o, status) => {
            const flash = req.session.flash
            if (flash) delete req.session.flash
            return sendPage(reply, { ...o, user, csrf: user ? csrf() : undefined, flash }, status)
          },
          redirect: (path, flash, bad) => {
            if (flash) req.session.flash = { text: flash, bad }
            return reply.code(303).header('location', path).header('cache-control', 'no-store').send()
          },
        }
        return (row.handler as (i: PageInput<any>) => Promise<unknown>)(input)
      },
    })
  }
}
