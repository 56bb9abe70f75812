import type { FieldErrors } from '../kernel/errors.ts'

// The core's messages are written for every face, and a few of them speak to programs: an
// enum's codes, a JSON type, a pattern, a format's name. The dashboard says the same in a
// person's words (docs/glossary.md), so a refused form reads like the rest of the page.

const FORMATS: Record<string, string> = {
  'date-time': 'Give a real date and time.',
  date: 'Give a real date.',
  email: 'Give an e-mail address like jane@example.com.',
  uri: 'Give a web address like shop.example.com.',
}

const SAY_LINK = 'Give a web address (shop.example.com), an e-mail address (jane@example.com) or a phone number (+49 30 1234567).'

const REWRITES: Array<[RegExp, string | ((...m: string[]) => string)]> = [
  [/^Must be one of: .*$/s, 'Choose one of the options in the list.'],
  [/^Must be (?:integer|number)(?: or null)?\.$/, 'Give a number, like 12.'],
  [/^Must be (?:string|boolean|object|array)(?: or null)?\.$/, 'This field cannot take what was sent; type it again.'],
  [/^Must match the pattern .*$/s, 'This is not written the way this field takes it.'],
  [/^Must be a valid ([\w-]+)\.$/, (_, format) => FORMATS[format] ?? 'This is not written the way this field takes it.'],
  [/^Must be "?([^"]*)"?\.$/, 'This field cannot take what was sent; type it again.'],
  [/^The ([\w+.-]+): scheme is not allowed; .*$/s, (_, scheme) => `A link starting with ${scheme}: cannot go on a page. ${SAY_LINK}`],
  [/^Must be a valid web address like .*$/s, `This is not a link a browser can open. ${SAY_LINK}`],
  [/^A link cannot contain spaces; .*$/s, `A link has no spaces. ${SAY_LINK}`],
  [/^A mailto: link needs .*$/s, 'Give an e-mail address like jane@example.com.'],
  [/^A tel: link needs .*$/s, 'Give a phone number like +49 30 1234567.'],
  [/^Enter a full URL, .*$/s, 'Give the whole web address your tool gave you, copied as it is.'],
  [/^The URL must start with .*$/s, 'Give a web address your tool gave you, copied whole.'],
  [/\bThe URL\b/g, 'The web address'],
  [/\b([Aa]) login\b/g, '$1n address'],
  [/\blogins?\b/gi, 'address'],
  [/\bslots?\b/gi, 'block'],
]

/** One of the core's messages in the dashboard's words. */
export function plainMessage(message: string): string {
  let out = message
  for (const [pattern, words] of REWRITES) out = out.replace(pattern, words as string)
  return out
}

/** Every message of a refused write in the dashboard's words, under the same field keys. */
export function plainErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [...new Set(v.map(plainMessage))]]))
}
