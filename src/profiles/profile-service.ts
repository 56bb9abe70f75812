import { AppError, type FieldErrors, invalid, invalidField, mergeErrors } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import type { Db } from '../store/db.ts'
import { isUniqueViolation } from '../store/unique-violation.ts'
import { filesRepository } from '../store/files.ts'
import { type StoredProfile, type ProfileChanges, profilesRepository } from '../store/profiles.ts'
import { isDigitsOnly, type LoginProblem, loginProblem } from './logins.ts'
import { plainText } from '../slots/shared/plain-text.ts'
import type { UpdateProfileRequest } from './profile-schemas.ts'
import { normaliseSocials } from './socials.ts'

export type LoginVerdict = { available: true; reason: null; message: string } | { available: false; reason: LoginProblem | 'taken'; message: string }

/**
 * Every login rule, as a verdict rather than an error: length, pattern, reserved words (all
 * case-insensitive), then uniqueness. The login held by `exceptProfileId` counts as free, so a
 * page can be checked against its own current address.
 */
export async function checkLogin(db: Db, login: string, exceptProfileId?: number): Promise<LoginVerdict> {
  const problem = loginProblem(login)
  if (problem) return { available: false, ...problem }
  const holder = await profilesRepository.findByLogin(db, login)
  if (holder && holder.id !== exceptProfileId) {
    return { available: false, reason: 'taken', message: `The login "${login}" is already taken.` }
  }
  const digits = isDigitsOnly(login) ? ` ${digitsOnlyNote(login)}` : ''
  if (holder) return { available: true, reason: null, message: `"${login}" is this profile's current login.${digits}` }
  return { available: true, reason: null, message: `"${login}" is available.${digits}` }
}

// A client that addresses pages by login would otherwise reach the page whose id is that number.
const digitsOnlyNote = (login: string) => `Its public page is /${login}, but in API paths a segment of digits is always an id: use the profile's id there.`

/** Login rules that need the store: free, or held by `exceptProfileId`. */
export async function assertLoginAvailable(db: Db, login: string, exceptProfileId?: number): Promise<void> {
  const verdict = await checkLogin(db, login, exceptProfileId)
  if (!verdict.available) throw invalidField('login', loginErrorMessage(verdict))
}

/** The 422 message for a refused login: the verdict, plus where to look when it is taken. */
export const loginErrorMessage = (verdict: LoginVerdict) =>
  verdict.reason === 'taken' ? `${verdict.message} {{profiles.checkLogin}} tells whether another one is free.` : verdict.message

async function create(db: Db, userId: number, login: string): Promise<StoredProfile> {
  await profilesRepository.lockUser(db, userId)
  const count = await profilesRepository.countByUser(db, userId)
  if (count >= limits.profilesPerUser) {
    throw new AppError('limit_reached', {
      message: `You have reached the limit of ${limits.profilesPerUser} profiles. Delete one in the dashboard (/my-links) first.`,
    })
  }
  await assertLoginAvailable(db, login)
  try {
    return await profilesRepository.insert(db, { userId, login, isMain: count === 0 })
  } catch (err) {
    // Two requests racing for one login: the loser gets the same answer as a late request.
    if (isUniqueViolation(err)) throw invalidField('login', `The login "${login}" is already taken.`)
    throw err
  }
}

const IMAGE_FIELDS = ['avatar', 'bgImage'] as const

/**
 * spec, Profile update payload: omitted fields stay, null clears. Every problem is reported at
 * once, keyed by field (`title`, `socials.2.link`). An empty body changes nothing.
 */
async function update(db: Db, profile: StoredProfile, body: UpdateProfileRequest): Promise<StoredProfile> {
  const errors: FieldErrors = {}
  const changes: ProfileChanges = {}
  if (body.title !== undefined) changes.title = body.title?.trim() || null
  if (body.description !== undefined) changes.description = body.description === null ? null : plainText(body.description) || null
  if (body.seoTitle !== undefined) changes.seoTitle = body.seoTitle?.replace(/\s+/g, ' ').trim() || null
  if (body.seoDescription !== undefined)
    changes.seoDescription = body.seoDescription === null ? null : plainText(body.seoDescription).replace(/\s+/g, ' ').trim() || null
  if (body.seoSubject !== undefined) changes.seoSubject = body.seoSubject
  if (body.socials !== undefined) {
    const result = normaliseSocials(body.socials)
    mergeErrors(errors, result.errors)
    changes.socials = result.socials
  }
  // An image already on the page passes as is: reading a profile and sending it back must work.
  const newPaths = IMAGE_FIELDS.filter((f) => body[f] != null && body[f] !== profile[f])
  const owned = await filesRepository.ownedPaths(
    db,
    profile.userId,
    newPaths.map((f) => body[f] as string),
  )
  for (const field of newPaths) {
    const path = body[field] as string
    if (owned.has(path)) continue
    errors[field] = [
      /^[a-z][a-z0-9+.-]*:\/\//i.test(path)
        ? 'Send the file path {{files.upload}} returned, not a URL: upload the image first.'
        : 'None of your uploads has this path: upload the image with {{files.upload}} and send the path it returns.',
    ]
  }
  for (const field of IMAGE_FIELDS) if (body[field] !== undefined) changes[field] = body[field]
  if (Object.keys(errors).length) throw invalid(errors)
  if (!Object.keys(changes).length) return profile
  await profilesRepository.lockForWrite(db, profile.id)
  return profilesRepository.update(db, profile.id, changes)
}

export const profileService = Object.freeze({ create, update, checkLogin })
