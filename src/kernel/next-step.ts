/**
 * The core speaks no face: where a message or a schema's description tells the caller what to
 * do next, it names the operation of the catalogue (core/use-cases.ts) inside a marker,
 * `{{files.upload}}`, and each face renders the marker its own way: a method and path in the
 * API, a tool name over MCP, a page of the dashboard. Every operation a marker may name is here,
 * and every face's table must name each (a Record over NextStep), so no marker reaches a client
 * unfilled.
 */
export const NEXT_STEPS = [
  'account.me',
  'profiles.list',
  'profiles.create',
  'profiles.checkLogin',
  'profiles.getSettings',
  'profiles.changeSettings',
  'slots.list',
  'slots.create',
  'slotTypes.list',
  'slotTypes.get',
  'music.lookup',
  'files.upload',
  'files.issueUploadUrl',
  'tokens.revoke',
] as const
export type NextStep = (typeof NEXT_STEPS)[number]

/** How one face names each operation. */
export type NextStepNames = Record<NextStep, string>

const MARKER = /\{\{([a-zA-Z]+\.[a-zA-Z]+)\}\}/g

const isNextStep = (op: string): op is NextStep => (NEXT_STEPS as readonly string[]).includes(op)

/** The operations a string names as next steps, in order. */
export const nextStepsIn = (text: string): NextStep[] => [...text.matchAll(MARKER)].map((m) => m[1]).filter(isNextStep)

/** `text` with every marker rendered by `names`; a marker naming no known operation is left as it is. */
export function renderNextSteps(text: string, names: NextStepNames): string {
  return text.includes('{{') ? text.replace(MARKER, (marker, op: string) => (isNextStep(op) ? names[op] : marker)) : text
}

/**
 * A copy of a document written by us (a schema, a slot type's description, an error's field
 * map) with every string's markers rendered. Never for user content: a page's own text may
 * contain anything, braces included.
 */
export function renderNextStepsIn<T>(value: T, names: NextStepNames): T {
  if (typeof value === 'string') return renderNextSteps(value, names) as T
  if (Array.isArray(value)) return value.map((v) => renderNextStepsIn(v, names)) as T
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value))
    for (const key of Reflect.ownKeys(value)) {
      const v = (value as Record<string | symbol, unknown>)[key]
      Object.defineProperty(out, key, {
        value: renderNextStepsIn(v, names),
        enumerable: Object.prototype.propertyIsEnumerable.call(value, key),
        writable: true,
        configurable: true,
      })
    }
    return out as T
  }
  return value
}
