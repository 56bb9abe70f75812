import type { Db } from '../store/db.ts'
import { type StoredProfile, profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { webhooksRepository } from '../store/webhooks.ts'
import type { WebhookEventData } from './event-types.ts'
import { queueEvent } from './outbox.ts'

/** A page as a webhook compares it: its fields and, per block, its place and content. */
export interface PageSnapshot {
  profile: StoredProfile
  slots: Map<number, { position: number; content: string }>
}

const PAGE_EVENTS = ['page.updated', 'page.published', 'page.unpublished'] as const

/** The page fields a change names, as the API names them. */
const FIELDS: Array<[keyof StoredProfile, string]> = [
  ['login', 'login'],
  ['title', 'title'],
  ['description', 'bio'],
  ['avatar', 'avatar'],
  ['bgImage', 'cover'],
  ['socials', 'socials'],
  ['themeId', 'theme'],
  ['languageId', 'language'],
  ['isMain', 'main'],
]

/** Whether any endpoint takes a page event of this page: a write describes itself only then. */
export async function isPageWatched(db: Db, userId: number, profileId: number): Promise<boolean> {
  return (await webhooksRepository.subscribers(db, userId, PAGE_EVENTS, profileId)).length > 0
}

export async function snapshotPage(db: Db, profileId: number): Promise<PageSnapshot | undefined> {
  const profile = await profilesRepository.findById(db, profileId)
  if (!profile) return undefined
  const slots = new Map(
    (await slotsRepository.listByProfile(db, profileId)).map((s) => [s.id, { position: s.position, content: JSON.stringify([s.data, s.visibility]) }]),
  )
  return { profile, slots }
}

/** What changed between two snapshots of one page, in the words of `page.updated`. */
export function pageChanges(before: PageSnapshot, after: PageSnapshot): WebhookEventData<'page.updated'>['changes'] {
  const slotsAdded = [...after.slots.keys()].filter((id) => !before.slots.has(id))
  const slotsRemoved = [...before.slots.keys()].filter((id) => !after.slots.has(id))
  const kept = [...after.slots.keys()].filter((id) => before.slots.has(id))
  const slotsEdited = kept.filter((id) => before.slots.get(id)!.content !== after.slots.get(id)!.content)
  const order = (s: PageSnapshot) => kept.slice().sort((a, b) => s.slots.get(a)!.position - s.slots.get(b)!.position)
  const reordered = order(before).join() !== order(after).join()
  const profileFields = FIELDS.filter(([key]) => JSON.stringify(before.profile[key]) !== JSON.stringify(after.profile[key])).map(([, name]) => name)
  return { slotsAdded, slotsRemoved, slotsEdited, reordered, profileFields }
}

/** Queues the page events a write caused, in its transaction; returns how many deliveries. */
export async function queuePageEvents(trx: Db, userId: number, before: PageSnapshot, after: PageSnapshot | undefined): Promise<number> {
  // Deleted: a public page stops being public.
  if (!after) return before.profile.status ? queuePublication(trx, userId, before.profile, true) : 0
  const page = { profileId: after.profile.id, login: after.profile.login }
  let queued = 0
  const changes = pageChanges(before, after)
  const changed = changes.slotsAdded.length + changes.slotsRemoved.length + changes.slotsEdited.length + changes.profileFields.length > 0 || changes.reordered
  if (changed) queued += await queueEvent(trx, { userId, profileId: page.profileId, type: 'page.updated', data: { ...page, changes } })
  if (before.profile.status !== after.profile.status) queued += await queuePublication(trx, userId, after.profile)
  return queued
}

/** `page.published` or `page.unpublished` as the page stands now (a deleted page is unpublished). */
export async function queuePublication(trx: Db, userId: number, profile: StoredProfile, deleted = false): Promise<number> {
  const type = profile.status && !deleted ? 'page.published' : 'page.unpublished'
  return queueEvent(trx, { userId, profileId: profile.id, type, data: { profileId: profile.id, login: profile.login } })
}
