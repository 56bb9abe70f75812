import { readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { type Static, Type } from '@sinclair/typebox'
import { type Principal, requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { guardedFetch, UrlRefused } from '../media/guarded-fetch.ts'
import { withTempFile } from '../media/temp-files.ts'
import { AppError, invalid, invalidField } from '../kernel/errors.ts'
import { fileUseCases } from './file-use-cases.ts'
import { type ForeignPage, toPageDocument } from '../transfer/importers/foreign-page.ts'
import { readLinkStack } from '../transfer/importers/linkstack.ts'
import { readLinktree } from '../transfer/importers/linktree.ts'
import { readLittleLink } from '../transfer/importers/littlelink.ts'
import { ParseBudget } from '../transfer/importers/parse-budget.ts'
import { type ImportResult, pageImportUseCases } from './page-import.ts'
import type { WriteOptions } from './unit-of-work.ts'

export const FOREIGN_SOURCES = ['linktree', 'linkstack', 'littlelink'] as const
export type ForeignSource = (typeof FOREIGN_SOURCES)[number]

/** A saved page or export is small; a page past this is not one. */
export const MAX_FOREIGN_PAGE_BYTES = 4 * 1024 * 1024

/** Reading a page of that size takes a fraction of this; the rest is room for a busy server. */
export const FOREIGN_PAGE_READ_SECONDS = 10

export const ForeignImportRequest = Type.Object(
  {
    source: Type.Union(
      FOREIGN_SOURCES.map((s) => Type.Literal(s)),
      { description: 'linktree: a public Linktree page (its embedded page data); linkstack: a LinkStack JSON export; littlelink: a LittleLink HTML page.' },
    ),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: `The public page (or export file) to read, downloaded by the server like upload-by-URL: http(s) on a default port, no private addresses, at most ${MAX_FOREIGN_PAGE_BYTES / 1024 / 1024} MB within ${limits.uploadFromUrlTimeoutSeconds} s.`,
        examples: ['https://linktr.ee/janedoe'],
      }),
    ),
    content: Type.Optional(
      Type.String({ maxLength: MAX_FOREIGN_PAGE_BYTES, description: "Instead of url: the saved page's HTML, or the export's JSON, as text." }),
    ),
    login: Type.Optional(
      Type.String({
        minLength: limits.login.minLength,
        maxLength: limits.login.maxLength,
        pattern: limits.login.pattern,
        description: "The new page's login; without it the other service's name, made into a login.",
        examples: ['jane.doe'],
      }),
    ),
  },
  { additionalProperties: false, examples: [{ source: 'linktree', url: 'https://linktr.ee/janedoe', login: 'jane.doe' }] },
)
export type ForeignImportRequest = Static<typeof ForeignImportRequest>

/** Downloads `url` through the SSRF guard of upload-by-URL (same resolver, connector and exemptions), size- and time-limited. */
async function download(ctx: AppContext, url: string, field: string, accept: string, maxBytes: number): Promise<Buffer> {
  const media = ctx.media
  return withTempFile(ctx, async (temp) => {
    try {
      await guardedFetch(url, {
        resolve: media.resolve,
        connect: media.connect,
        allowHostPorts: ctx.config.uploadUrlAllowHosts,
        maxBytes,
        timeoutMs: media.urlTimeoutMs,
        maxRedirects: 3,
        destination: temp,
        accept,
      })
    } catch (err) {
      if (err instanceof UrlRefused) throw invalidField(field, err.message)
      throw err
    }
    return readFile(temp)
  })
}

async function read(source: ForeignSource, text: string, pageUrl: string | undefined, budget: ParseBudget): Promise<ForeignPage> {
  if (source === 'linktree') return readLinktree(text, budget)
  if (source === 'littlelink') return readLittleLink(text, pageUrl, budget)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw invalidField('content', `A LinkStack export is JSON: ${(err as Error).message}`)
  }
  return readLinkStack(json, budget)
}

/**
 * A new page from a page on Linktree, LinkStack or LittleLink, given by its public
 * address or as a saved file. The other service's page becomes a page document, and then the
 * same import as a Slotline archive: all or nothing, dry run, every block that did not fit
 * listed with why. The avatar is downloaded through the same guard and image pipeline.
 */
async function importForeign(ctx: AppContext, principal: Principal, input: ForeignImportRequest, options: WriteOptions = {}): Promise<ImportResult> {
  requireAbility(principal, 'profile:write')
  if ((input.url === undefined) === (input.content === undefined)) {
    throw invalid({ url: ['Send either url (the public page) or content (the saved page or export), one of the two.'] })
  }
  const text =
    input.url === undefined
      ? input.content!
      : (await download(ctx, input.url, 'url', 'text/html, application/json;q=0.9, */*;q=0.5', MAX_FOREIGN_PAGE_BYTES)).toString('utf8')
  const page = await read(input.source, text, input.url, new ParseBudget(FOREIGN_PAGE_READ_SECONDS, input.url === undefined ? 'content' : 'url'))
  const { document, skipped } = toPageDocument(page)
  const files = new Map<string, Uint8Array>()
  if (page.avatarBytes || page.avatarUrl) {
    try {
      const bytes =
        page.avatarBytes ??
        (await download(ctx, page.avatarUrl!, 'avatar', 'image/jpeg, image/png, image/webp, image/gif', limits.uploadFromUrlMegabytes * 1024 * 1024))
      // A picture that is not one costs the page its avatar, not the whole import.
      await fileUseCases.upload(ctx, principal, { stream: Readable.from([bytes]), length: bytes.length }, { dryRun: true })
      files.set('files/avatar.img', bytes)
      document.profile.avatar = 'files/avatar.img'
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err
      skipped.push({ field: 'avatar', reason: `The avatar could not be imported: ${err.message}` })
    }
  }
  return pageImportUseCases.importPage(ctx, principal, { document, files, skipped, login: input.login }, options)
}

export const foreignImportUseCases = Object.freeze({ importForeign })
