/**
 * The core and the domain still name REST operations in some messages and field descriptions
 * ("GET /profiles lists yours", "a path returned by POST /files"). A model talking to /mcp can
 * only call tools, so this face says the tool's name instead. A table in one place, until the
 * core's hints are written without naming a face replace those sentences.
 */
const OPERATIONS: ReadonlyArray<[method: string, path: RegExp, tool: string]> = [
  ['GET', /^\/me$/, 'get_me'],
  ['GET', /^\/analytics$/, 'get_analytics'],
  ['GET', /^\/slot-types(\/[^/]+)?$/, 'list_slot_types'],
  ['GET', /^\/music\/lookup$/, 'lookup_music'],
  ['POST', /^\/files$/, 'upload_image_from_url'],
  ['POST', /^\/files\/upload-url$/, 'get_upload_url'],
  ['GET', /^\/profiles\/check-login$/, 'check_login'],
  ['GET', /^\/profiles$/, 'list_profiles'],
  ['POST', /^\/profiles$/, 'create_profile'],
  ['GET', /^\/profiles\/[^/]+$/, 'get_profile'],
  ['PATCH', /^\/profiles\/[^/]+$/, 'update_profile'],
  ['GET', /^\/profiles\/[^/]+\/settings$/, 'get_profile_settings'],
  ['PATCH', /^\/profiles\/[^/]+\/settings$/, 'update_profile_settings'],
  ['GET', /^\/profiles\/[^/]+\/markdown$/, 'get_profile_markdown'],
  ['GET', /^\/profiles\/[^/]+\/analytics$/, 'get_profile_analytics'],
  ['GET', /^\/profiles\/[^/]+\/slots(\/[^/]+)?$/, 'list_slots'],
  ['POST', /^\/profiles\/[^/]+\/slots(\/batch)?$/, 'create_slots'],
  ['PATCH', /^\/profiles\/[^/]+\/slots(\/[^/]+)?$/, 'update_slots'],
  ['PUT', /^\/profiles\/[^/]+\/slots\/order$/, 'reorder_slots'],
  ['DELETE', /^\/profiles\/[^/]+\/slots(\/[^/]+)?$/, 'delete_slots'],
]

/** "GET /v1/profiles/{profileKey}/slots", "PATCH …/slots/12", "POST /files" (a sentence's full stop aside). */
const MENTION = /\b(GET|POST|PUT|PATCH|DELETE) ((?:\/v1)?(?:\/|…\/)[^\s,;:)'"`?]*?)(?=[.]?(?:[\s,;:)'"`?]|$))/g

function toolFor(method: string, rawPath: string): string | undefined {
  const path = rawPath.replace(/^\/v1(?=\/)/, '').replace(/^…\//, '/profiles/{profileKey}/')
  return OPERATIONS.find(([m, p]) => m === method && p.test(path))?.[2]
}

/** The spec's placeholders, as words (a model would print `{public_base}` literally). */
const PLACEHOLDERS: ReadonlyArray<[RegExp, string]> = [
  [/\{public_base\}/g, "the service's address"],
  [/\{base_url\}/g, "the API's address"],
  [/\{profileKey\}/g, 'the page'],
]

/** A sentence as a tool user reads it: REST operations named by their tools, no placeholders. */
export function inToolWords(text: string): string {
  const named = text.replace(MENTION, (whole, method: string, path: string) => toolFor(method, path) ?? whole)
  return PLACEHOLDERS.reduce((out, [pattern, words]) => out.replace(pattern, words), named)
}

/** The same for every description and title inside a JSON Schema (or any JSON) value. */
export function schemaInToolWords<T>(value: T): T {
  if (Array.isArray(value)) return value.map(schemaInToolWords) as T
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, (key === 'description' || key === 'title') && typeof v === 'string' ? inToolWords(v) : schemaInToolWords(v)]),
  ) as T
}
