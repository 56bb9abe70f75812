import { Type } from '@sinclair/typebox'
import { invalidField } from '../kernel/errors.ts'
import { PageDocument } from '../transfer/page-document.ts'
import { pageDocumentSchemaUrl, pageExport as pageExportUseCases } from '../core/use-cases.ts'
import { ImportResult, pageImport as pageImportUseCases } from '../core/use-cases.ts'
import { ForeignImportRequest, foreignImport as foreignImportUseCases } from '../core/use-cases.ts'
import { markPrecognitive } from '../http/precognition.ts'
import { route, routes } from '../http/routes.ts'
import { DataOf, ProfileKeyParam } from '../http/envelope-schemas.ts'
import { limits } from '../kernel/limits.ts'

const schemaDocs = (publicUrl = '{public_base}') => ({
  url: pageDocumentSchemaUrl(publicUrl),
  description: 'The JSON Schema of page.json (the page document, version 1).',
})

const ExportQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('zip'), Type.Literal('json')], { description: 'zip (default): page.json and files/; json: page.json alone, without the images.' }),
  ),
})

const ImportQuery = Type.Object({
  login: Type.Optional(
    Type.String({
      minLength: limits.login.minLength,
      maxLength: limits.login.maxLength,
      pattern: limits.login.pattern,
      description: "The new page's login; without it the document's own.",
      examples: ['jane.doe2'],
    }),
  ),
})

const isZip = (body: unknown): body is Buffer => Buffer.isBuffer(body)

export default routes('Page transfer', 'One page as a portable file: export it whole, import it anywhere (issue 30).', '/v1', [
  route({
    method: 'GET',
    url: '/profiles/:profileKey/export',
    operationId: 'exportProfile',
    summary: 'Export a page as one portable file',
    description:
      'A zip holding `page.json` (the page document: profile fields, socials, every slot in order with its data, events and forms, theme; schema at GET /v1/schemas/page-document.json) and `files/` with every image the page uses. POST /profiles/import turns it into a new page, here or on another Slotline. With format=json the answer is page.json alone (application/json, images left out).',
    scope: 'profile:read',
    params: Type.Object({ profileKey: ProfileKeyParam }),
    query: ExportQuery,
    reply: { 200: Type.String({ format: 'binary', description: 'The page archive (application/zip).' }) },
    raw: true,
    rawType: 'application/zip',
    externalDocs: schemaDocs(),
    handler: async ({ ctx, principal, params, query, reply }) => {
      if (query.format === 'json') {
        reply.type('application/json; charset=utf-8')
        return JSON.stringify(await pageExportUseCases.exportDocument(ctx, principal, params.profileKey))
      }
      const { login, archive } = await pageExportUseCases.exportArchive(ctx, principal, params.profileKey)
      reply.type('application/zip').header('content-disposition', `attachment; filename="${login}.slotline.zip"`)
      return Buffer.from(archive)
    },
  }),
  route({
    method: 'POST',
    url: '/profiles/import',
    operationId: 'importProfile',
    summary: 'Make a new page from an exported page',
    description:
      'Send the archive of GET /profiles/{profileKey}/export as application/zip, or its page.json alone as application/json (its images are then skipped). All or nothing: every problem is listed at once (422) before anything is stored — a wrong version or shape names the field, a hostile archive (zip bomb, ../ or absolute entry names, duplicates, over 1000 entries) names the entry, an image that is not one names its file. Images go through the same pipeline as POST /files. A taken login is a 422 suggesting free ones; ?login= chooses another. Event and form slots come with their event or form. What could not be imported is listed in `skipped` with why. With Precognition: true the answer is 200 with what would be created (dryRun: true), nothing stored.',
    scope: 'profile:write',
    query: ImportQuery,
    requestContent: {
      'application/zip': { schema: { type: 'string', format: 'binary', description: 'A page archive (page.json and files/).' } },
      'application/json': { schema: PageDocument, example: PageDocument.examples[0] },
    },
    externalDocs: schemaDocs(),
    reply: { 201: DataOf(ImportResult) },
    errors: [409, 413, 415],
    handler: async ({ ctx, principal, body, query, reply, dryRun }) => {
      if (body === undefined) throw invalidField('body', 'Send the page archive (application/zip) or page.json (application/json).')
      const source = isZip(body) ? { archive: new Uint8Array(body), login: query.login } : { document: body, login: query.login }
      const result = await pageImportUseCases.importPage(ctx, principal, source, { dryRun })
      if (!dryRun) return result
      markPrecognitive(reply)
      return reply.code(200).header('Precognition-Success', 'true').send({ data: result })
    },
  }),
  route({
    method: 'POST',
    url: '/profiles/import-external',
    operationId: 'importExternalProfile',
    summary: 'Make a new page from a Linktree, LinkStack or LittleLink page',
    description:
      'Reads a page of another link-in-bio service, from its public address (`url`, downloaded with the rules of upload-by-URL: http(s) on a default port, no private addresses, size- and time-limited) or as a saved file (`content`): Linktree (the page data embedded in it), LinkStack (its JSON export) or LittleLink (its HTML buttons). Links become buttons in order, YouTube links YouTube blocks, music-platform links music blocks, headings text blocks, social icons social links; the avatar, title and bio come along. Then the page is made as POST /profiles/import makes it: all or nothing, a taken login is a 422 suggesting free ones, Precognition answers the plan. Blocks that did not fit are listed in `skipped` with why.',
    scope: 'profile:write',
    body: ForeignImportRequest,
    reply: { 201: DataOf(ImportResult) },
    errors: [409],
    handler: async ({ ctx, principal, body, reply, dryRun }) => {
      const result = await foreignImportUseCases.importForeign(ctx, principal, body, { dryRun })
      if (!dryRun) return result
      markPrecognitive(reply)
      return reply.code(200).header('Precognition-Success', 'true').send({ data: result })
    },
  }),
  route({
    method: 'GET',
    url: '/schemas/page-document.json',
    operationId: 'getPageDocumentSchema',
    summary: 'The JSON Schema of the page document',
    description: 'What page.json of a page archive holds, version 1 (JSON Schema draft 2020-12 compatible).',
    scope: 'public',
    reply: { 200: Type.Object({}, { additionalProperties: true, description: 'A JSON Schema.' }) },
    raw: true,
    rawType: 'application/schema+json',
    handler: async ({ ctx, reply }) => {
      reply.type('application/schema+json; charset=utf-8').header('cache-control', 'public, max-age=3600')
      return JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: pageDocumentSchemaUrl(ctx.config.publicUrl), ...PageDocument })
    },
  }),
])
