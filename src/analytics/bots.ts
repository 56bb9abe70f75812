import { isbot } from 'isbot'

/**
 * Which requests are not visits: crawlers, link unfurlers, scripted clients and speculative
 * loads. A page view is one GET by a person's browser (ARCHITECTURE, public page clicks), so
 * anything that announces itself as automated, or sends no user agent at all, is left out.
 */

/**
 * True for crawlers, unfurlers, scripted HTTP clients and headless browsers (isbot's maintained
 * pattern, which follows new crawlers better than a list of ours could), and for a missing or
 * blank agent: browsers always send one, so its absence means a script.
 */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true
  return isbot(userAgent)
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
