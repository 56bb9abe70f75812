import { purgeExpiredAnalytics } from '../analytics/analytics-purge.ts'
import { seedHistory, type SeedResult } from '../analytics/seed.ts'
import type { AppContext } from '../context.ts'
import { purgeStaleTempFiles, purgeUnusedFiles, type PurgeResult } from '../media/file-purge.ts'
import { type FormSubmission, formSubmissionsRepository } from '../store/form-submissions.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { profilesRepository } from '../store/profiles.ts'
import { type User, usersRepository } from '../store/users.ts'
import { notFound } from '../kernel/errors.ts'
import { populationUseCases } from './population-generator.ts'

// The operator's operations: whoever runs the command line (or starts the service) holds the
// machine and its store, so these take no principal. No network face may call them.

/** The account with this e-mail (as stored: trimmed, lower case), or undefined. */
async function findUser(ctx: AppContext, input: { email: string }): Promise<User | undefined> {
  return usersRepository.findByEmail(ctx.db, input.email)
}

/** Whether the store has no account yet (the first start creates the owner's). */
async function isEmpty(ctx: AppContext): Promise<boolean> {
  return (await usersRepository.count(ctx.db)) === 0
}

/** Applies pending migrations; answers the names applied (createContext already migrated). */
async function migrate(ctx: AppContext): Promise<string[]> {
  return migrateToLatest(ctx.db)
}

/** Drops analytics past retention (the service also does it daily). */
async function purgeAnalytics(ctx: AppContext): Promise<{ before: string; removed: number }> {
  return purgeExpiredAnalytics(ctx.db)
}

/** Fills a page's analytics with realistic history (replacing those days), in its owner's time zone. */
async function seedAnalytics(ctx: AppContext, input: { login: string; days: number; events: number }): Promise<SeedResult & { login: string }> {
  const profile = await profilesRepository.findByLogin(ctx.db, input.login)
  if (!profile) throw notFound('profile', `No profile with login "${input.login}".`)
  const owner = await usersRepository.findById(ctx.db, profile.userId)
  const result = await seedHistory(ctx.db, profile, { days: input.days, events: input.events, timezone: owner?.timezone ?? 'UTC' })
  return { ...result, login: profile.login }
}

/** What visitors sent through a user's forms (one form's answers when formId is given). */
async function formSubmissions(ctx: AppContext, input: { userId: number; formId?: number }): Promise<Array<FormSubmission & { formTitle: string }>> {
  return formSubmissionsRepository.listOfUser(ctx.db, input.userId, input.formId)
}

/** Uploads nothing references, older than `olderThanMs`, and leftover temp uploads. */
async function purgeFiles(ctx: AppContext, input: { olderThanMs: number }): Promise<PurgeResult & { tempFiles: string[] }> {
  const result = await purgeUnusedFiles(ctx, input.olderThanMs)
  return { ...result, tempFiles: await purgeStaleTempFiles(ctx) }
}

export const operatorUseCases = Object.freeze({
  findUser,
  isEmpty,
  migrate,
  purgeAnalytics,
  seedAnalytics,
  formSubmissions,
  purgeFiles,
  generatePopulation: populationUseCases.generatePopulation,
})
