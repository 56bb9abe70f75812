import type { Config } from '../config.ts'
import { type FieldErrors, invalid } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import type { Db } from '../store/db.ts'
import { isUniqueViolation } from '../store/unique-violation.ts'
import { languagesRepository } from '../store/languages.ts'
import { type StoredProfile, type ProfileChanges, profilesRepository } from '../store/profiles.ts'
import type { User } from '../store/users.ts'
import { RESERVED_LOGINS } from './logins.ts'
import { publicPageUrl } from './profile-resource.ts'
import type { ProfileSettings, UpdateSettingsRequest } from './profile-schemas.ts'
import { checkLogin, loginErrorMessage } from './profile-service.ts'

/** ProfileSettingsResource: the page's login and language, with the choices a client may offer. */
async function toResource(db: Db, config: Config, profile: StoredProfile, owner: User): Promise<ProfileSettings> {
  const languages = await languagesRepository.listActive(db)
  const chosen = profile.languageId === null ? undefined : await languagesRepository.findById(db, profile.languageId)
  return {
    profileId: profile.id,
    login: profile.login,
    languageId: profile.languageId,
    languageCode: chosen?.code ?? null,
    computed: {
      url: publicPageUrl(config, profile.login),
      // spec, Profile settings: with no language of its own the page renders in its owner's.
      effectiveLanguageCode: chosen?.code ?? owner.languageCode,
    },
    options: {
      languages: languages.map((l) => ({ id: l.id, code: l.code, name: l.name })),
      login: { minLength: limits.login.minLength, maxLength: limits.login.maxLength, pattern: limits.login.pattern, reserved: [...RESERVED_LOGINS] },
    },
  }
}

/** What one side of the language selector asks for: nothing (not sent or refused), a language, or null. */
type Choice = { given: false } | { given: true; languageId: number | null }

/** undefined is "not sent"; null is "follow the owner"; anything else must be an active language. */
async function chooseLanguage(db: Db, field: 'languageCode' | 'languageId', value: string | number | null | undefined, errors: FieldErrors): Promise<Choice> {
  if (value === undefined) return { given: false }
  if (value === null) return { given: true, languageId: null }
  const language = typeof value === 'string' ? await languagesRepository.findByCode(db, value) : await languagesRepository.findById(db, value)
  if (language?.isActive) return { given: true, languageId: language.id }
  errors[field] = [`There is no language ${JSON.stringify(value)}: {{profiles.getSettings}} lists them in options.languages.`]
  return { given: false }
}

/**
 * spec, Profile settings: changes the login and/or the page language; omitted fields stay.
 * A new login passes every login rule; the old address stops resolving with this commit.
 */
async function update(db: Db, profile: StoredProfile, body: UpdateSettingsRequest): Promise<StoredProfile> {
  const errors: FieldErrors = {}
  const changes: ProfileChanges = {}
  if (body.login !== undefined && body.login !== profile.login) {
    const verdict = await checkLogin(db, body.login, profile.id)
    if (verdict.available) changes.login = body.login
    else errors.login = [loginErrorMessage(verdict)]
  }
  const byCode = await chooseLanguage(db, 'languageCode', body.languageCode, errors)
  const byId = await chooseLanguage(db, 'languageId', body.languageId, errors)
  if (byCode.given && byId.given && byCode.languageId !== byId.languageId) {
    errors.languageId = ['languageCode and languageId name different languages; send only one of them.']
  }
  const choice = byCode.given ? byCode : byId
  if (choice.given) changes.languageId = choice.languageId
  if (Object.keys(errors).length) throw invalid(errors)
  if (!Object.keys(changes).length) return profile
  await profilesRepository.lockForWrite(db, profile.id)
  try {
    return await profilesRepository.update(db, profile.id, changes)
  } catch (err) {
    // Another page took the login between the check and the write.
    if (isUniqueViolation(err)) throw invalid({ login: [`The login "${body.login}" is already taken.`] })
    throw err
  }
}

export const settingsService = Object.freeze({ toResource, update })
