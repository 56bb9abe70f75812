import type { AppContext } from '../context.ts'
import { type FormSubmission, formSubmissionsRepository } from '../store/form-submissions.ts'
import { queueEvent } from '../webhooks/outbox.ts'
import { type ImageRecord, type StoredFile, filesRepository } from '../store/files.ts'
import { type FormRecord, formsRepository } from '../store/forms.ts'
import { type Language, languagesRepository } from '../store/languages.ts'
import { type StoredProfile, profilesRepository } from '../store/profiles.ts'
import { type StoredSlot, slotsRepository } from '../store/slots.ts'
import { type User, usersRepository } from '../store/users.ts'
import { isSlotShown } from '../slots/shown-slots.ts'

// What an anonymous visitor's requests read and write: the public page, its images, its click
// redirects and its forms (pages/). No principal: a visitor is nobody, and whether a page is
// published is the public pages' rule. Plain reads on the hot path (the page cache's misses),
// kept as thin as the repositories they call.

const pageByLogin = (ctx: AppContext, login: string): Promise<StoredProfile | undefined> => profilesRepository.findByLogin(ctx.db, login)
const pageById = (ctx: AppContext, id: number): Promise<StoredProfile | undefined> => profilesRepository.findById(ctx.db, id)
/** The page's owner (their time zone and language dress the page). */
const ownerOf = (ctx: AppContext, profile: StoredProfile): Promise<User | undefined> => usersRepository.findById(ctx.db, profile.userId)
const language = (ctx: AppContext, id: number): Promise<Language | undefined> => languagesRepository.findById(ctx.db, id)
/** Every slot of the page, in page order, as stored. */
const slotsOf = (ctx: AppContext, profileId: number): Promise<StoredSlot[]> => slotsRepository.listByProfile(ctx.db, profileId)
/** One slot of the page (a click's block), or undefined. */
const slotOf = (ctx: AppContext, profileId: number, slotId: number): Promise<StoredSlot | undefined> => slotsRepository.findInProfile(ctx.db, profileId, slotId)
/** A slot by id alone (a form posts to its slot's address). */
const slot = (ctx: AppContext, slotId: number): Promise<StoredSlot | undefined> => slotsRepository.findById(ctx.db, slotId)
const file = (ctx: AppContext, path: string): Promise<StoredFile | undefined> => filesRepository.findByPath(ctx.db, path)
/** The stored images (sizes and variants) of these upload paths. */
const images = (ctx: AppContext, paths: string[]): Promise<Map<string, ImageRecord>> => filesRepository.imagesByPath(ctx.db, paths)
const formsOf = (ctx: AppContext, userId: number, ids: number[]): Promise<FormRecord[]> => formsRepository.findManyOfUser(ctx.db, userId, ids)
/** The main host's sitemap files by number (id ranges `perFile` wide), each holding at least one page. */
const sitemapFiles = (ctx: AppContext, perFile: number): Promise<number[]> => profilesRepository.mainHostRanges(ctx.db, perFile)

/** The logins one sitemap file lists, read a few thousand at a time: a file is never held whole. */
async function* sitemapLogins(ctx: AppContext, file: number, perFile: number): AsyncGenerator<string> {
  const range = { fromId: file * perFile, toId: (file + 1) * perFile, limit: 5000 }
  for (let afterId = -1; ; ) {
    const rows = await profilesRepository.mainHostLogins(ctx.db, { ...range, afterId })
    for (const row of rows) yield row.login
    if (rows.length < range.limit) return
    afterId = rows[rows.length - 1].id
  }
}

/**
 * What a visitor sent through a page's form, kept for its owner, and a `form.submitted` webhook
 * queued in the same transaction. The visitor's answer never waits for a delivery: the sender
 * is only nudged.
 */
async function submitForm(ctx: AppContext, profile: StoredProfile, form: FormRecord, slotId: number, data: Record<string, string>): Promise<FormSubmission> {
  let queued = 0
  const submission = await ctx.db.transaction().execute(async (trx) => {
    const saved = await formSubmissionsRepository.insert(trx, { formId: form.id, profileId: profile.id, slotId, data })
    queued = await queueEvent(trx, {
      userId: profile.userId,
      profileId: profile.id,
      type: 'form.submitted',
      data: {
        profileId: profile.id,
        login: profile.login,
        slotId,
        form: { id: form.id, title: form.title, fields: form.fields.map((f) => ({ name: f.name, label: f.label, type: f.type })) },
        submission: { id: saved.id, createdAt: saved.createdAt, data: saved.data },
      },
    })
    return saved
  })
  if (queued) ctx.webhooks.nudge()
  return submission
}

/** Whether the slot is on its public page now; the owner's zone is read only for a schedule without offsets. */
async function isShownNow(ctx: AppContext, profile: StoredProfile, slot: StoredSlot): Promise<boolean> {
  const v = slot.visibility
  if (v.hidden) return false
  if (v.startsAt === null && v.endsAt === null) return true
  const timeZone = (await usersRepository.findById(ctx.db, profile.userId))?.timezone ?? 'UTC'
  return isSlotShown(slot, timeZone, Date.now())
}

export const visitorUseCases = Object.freeze({
  pageByLogin,
  sitemapFiles,
  sitemapLogins,
  pageById,
  ownerOf,
  language,
  slotsOf,
  slotOf,
  slot,
  isShownNow,
  file,
  images,
  formsOf,
  submitForm,
})
