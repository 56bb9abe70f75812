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
