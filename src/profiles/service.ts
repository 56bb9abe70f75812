import { AppError, invalidField } from '../http/errors.ts'
import { limits } from '../limits.ts'
import type { Db } from '../store/db.ts'
import { isUniqueViolation } from '../store/errors.ts'
import { type Profile, profilesRepository } from '../store/profiles.ts'
import { loginProblem } from './logins.ts'

/** Login rules that need the store: free, or held by `exceptProfileId`. */
export async function assertLoginAvailable(db: Db, login: string, exceptProfileId?: number): Promise<void> {
  const problem = loginProblem(login)
  if (problem) throw invalidField('login', problem.message)
  const holder = await profilesRepository.findByLogin(db, login)
  if (holder && holder.id !== exceptProfileId) {
    throw invalidField('login', `The login "${login}" is already taken. GET /profiles/check-login suggests whether one is free.`)
  }
}

async function create(db: Db, userId: number, login: string): Promise<Profile> {
  await profilesRepository.lockUser(db, userId)
  const count = await profilesRepository.countByUser(db, userId)
  if (count >= limits.profilesPerUser) {
    throw new AppError('limit_reached', {
      message: `You have reached the limit of ${limits.profilesPerUser} profiles. Delete one in the dashboard first.`,
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

export const profileService = Object.freeze({ create })
