import { onFirstUse } from '../kernel/on-first-use.ts'

// Its pattern list is loaded with the first visit, not held by a resting process.
const isbotPackage = onFirstUse<typeof import('isbot')>('isbot')

/**
 * Which requests are not visits: crawlers, link unfurlers, scripted clients and speculative
 * loads. A page view is one GET by a person's browser (ARCHITECTURE, public page clicks), so
 * anything that announces itself as automated, or sends no user agent at all, is left out.
 */

// isbot's pattern is one long regular expression, a fair share of a cached page view's cost;
// visitors send a few hundred distinct agents a day, so answers are remembered (bounded in count,
// and only for agents of a browser's length, so junk agents cannot fill memory).
const MAX_REMEMBERED = 2000
const MAX_REMEMBERED_LENGTH = 512
const answers = new Map<string, boolean>()

/**
 * True for crawlers, unfurlers, scripted HTTP clients and headless browsers (isbot's maintained
 * pattern, which follows new crawlers better than a list of ours could), and for a missing or
 * blank agent: browsers always send one, so its absence means a script.
 */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true
  let answer = answers.get(userAgent)
  if (answer === undefined) {
    answer = isbotPackage().isbot(userAgent)
    if (userAgent.length > MAX_REMEMBERED_LENGTH) return answer
    if (answers.size >= MAX_REMEMBERED) answers.clear()
    answers.set(userAgent, answer)
  }
  return answer
}

/**
 * True when the browser loads the page speculatively (link prefetch, prerender): the `Purpose`
 * or `Sec-Purpose` header says `prefetch` or `prerender`. A prerendered page a person then
 * opens is not seen again by the server, which undercounts slightly rather than counting
 * every hovered link.
 */
export function isSpeculative(purpose: string | undefined): boolean {
  return !!purpose && /\b(prefetch|prerender|preview)\b/i.test(purpose)
}
