import { type TSchema, Type } from '@sinclair/typebox'

/** `T | null`: the spec's "null clears the field" and "null when unknown". */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

/**
 * A comma-separated list of known words (`include=slots`), as the parsers read it: entries
 * trimmed, empty ones ignored. The pattern tells the document exactly what is accepted; the
 * validator names the unknown words from `x-comma-list`.
 */
export const CommaList = (words: readonly string[], options: { maxLength: number; description: string; examples: string[] }) => {
  const word = `(?:${words.join('|')})`
  return Type.String({
    ...options,
    pattern: `^\\s*(?:${word}\\s*)?(?:,\\s*(?:${word}\\s*)?)*$`,
    'x-comma-list': [...words],
  })
}

/**
 * A string with at least one character that is not a space. The document says so with a pattern,
 * so a generated client knows a blank value is refused; the validator answers with `blankMessage`.
 */
export const NonBlankString = (options: { maxLength: number; description: string; examples: string[]; blankMessage: string }) => {
  const { blankMessage, ...rest } = options
  return Type.String({ minLength: 1, ...rest, pattern: '\\S', 'x-pattern-message': blankMessage })
}

/** A page as a face names it: a numeric id or a login (unit-of-work's ProfileKey, as a string). */
export const ProfileKeyParam = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id.',
  examples: ['42', 'jane.doe'],
})
