import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { queuePublication } from '../webhooks/page-changes.ts'
import { parseInclude } from '../profiles/include.ts'
import { markdownTokens, pageMarkdown } from '../profiles/markdown.ts'
import { resolveProfileKey } from '../profiles/profile-key.ts'
import { toProfileResource } from '../profiles/profile-resource.ts'
import type { LoginCheck, ProfileResource, ProfileSettings, UpdateProfileRequest, UpdateSettingsRequest } from '../profiles/profile-schemas.ts'
import { profileService } from '../profiles/profile-service.ts'
import { settingsService } from '../profiles/settings.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import { profilesRepository, type StoredProfile } from '../store/profiles.ts'
import { deleteProfile } from './profile-deletion.ts'
import { presentedSlots } from '../infra/presented-slots.ts'
import { type ProfileKey, readAccount, readProfile, type WriteOptions, writeAccount, writeProfile } from './unit-of-work.ts'

export type { StoredProfile }

// spec, Profiles: one use case per operation, for every face (see slot-use-cases.ts).

/** spec, GET /profiles: every page of the principal's account, oldest first. */
async function list(ctx: AppContext, principal: Principal): Promise<ProfileResource[]> {
  return readAccount(ctx, principal, async (db) => (await profilesRepository.listByUser(db, principal.user.id)).map((p) => toProfileResource(ctx.config, p)))
}

/** spec, POST /profiles: a new empty page; the account's first is its main one. */
async function create(ctx: AppContext, principal: Principal, input: { login: string }, options: WriteOptions = {}): Promise<ProfileResource> {
  let queued = 0
  const created = await writeAccount(ctx, principal, options, async (trx) => {
    const profile = await profileService.create(trx, principal.user.id, input.login)
    if (profile.status && !options.dryRun) queued = await queuePublication(trx, principal.user.id, profile)
    return toProfileResource(ctx.config, profile)
  })
  if (queued) ctx.webhooks.nudge()
  return created
}

type PageWithSlots = ProfileResource & { slots: SlotResource[] }

/**
 * The answers with slots last given for a page, beside the page read (a token's reads share one
 * StoredProfile per account revision, owned-profiles.ts): while neither the page nor its
 * presented slots changed, the answer is the same frozen object, and the REST face sends the
 * bytes it already encoded for it (http/presented-json.ts).
 */
const pagesWithSlots = new WeakMap<StoredProfile, { ctx: AppContext; slots: readonly unknown[]; answer: Readonly<PageWithSlots> }>()

/** spec, GET /profiles/{profileKey}; `include: 'slots'` (a comma list) embeds the slots. */
async function get(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { include?: string } = {},
): Promise<ProfileResource & { slots?: SlotResource[] }> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => {
    if (!parseInclude(input.include).has('slots')) return toProfileResource(ctx.config, profile)
    const { slots } = await presentedSlots(ctx, db, profile)
    const kept = pagesWithSlots.get(profile)
    if (kept?.ctx === ctx && kept.slots === slots) return kept.answer
    const answer = Object.freeze({ ...toProfileResource(ctx.config, profile), slots: slots as SlotResource[] })
    pagesWithSlots.set(profile, { ctx, slots, answer })
    return answer
  })
}

/** spec, PATCH /profiles/{profileKey}: omitted fields stay, null clears; socials replace the row. */
async function update(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: UpdateProfileRequest,
  options: WriteOptions = {},
): Promise<ProfileResource> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) =>
    toProfileResource(ctx.config, await profileService.update(trx, profile, input)),
  )
}

/**
 * spec, GET /profiles/check-login: whether `login` is free, and why not. `profile` (one of the
 * principal's pages, id or login) checks a rename: its own login is not reported as taken.
 */
async function checkLogin(ctx: AppContext, principal: Principal, input: { login: string; profile?: string }): Promise<LoginCheck> {
  return readAccount(ctx, principal, async (db) => {
    const own = input.profile ? await resolveProfileKey(db, principal.user.id, input.profile) : undefined
    const verdict = await profileService.checkLogin(db, input.login, own?.id)
    return { login: input.login, profile: input.profile || null, ...verdict }
  })
}

/** spec, GET /profiles/{profileKey}/settings: login, language and the choices a client may offer. */
async function getSettings(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<ProfileSettings> {
  return readProfile(ctx, principal, profileKey, (db, profile) => settingsService.toResource(db, ctx.config, profile, principal.user))
}

/** spec, PATCH /profiles/{profileKey}/settings: a new login moves the page at once (old and new addresses are announced). */
async function changeSettings(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: UpdateSettingsRequest,
  options: WriteOptions = {},
): Promise<ProfileSettings> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) =>
    settingsService.toResource(trx, ctx.config, await settingsService.update(trx, profile, input), principal.user),
  )
}

/** spec, GET /profiles/{profileKey}/markdown: the page as a model reads it, with its token count. */
async function markdown(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<{ markdown: string; tokens: number }> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => {
    const text = await pageMarkdown(db, ctx.config, profile)
    return { markdown: text, tokens: await markdownTokens(text) }
  })
}

/** The dashboard's theme picker: the API keeps themeId read-only (spec, Profiles), people choose here. */
async function chooseTheme(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  themeId: number,
  options: WriteOptions = {},
): Promise<ProfileResource> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) =>
    toProfileResource(ctx.config, await profilesRepository.update(trx, profile.id, { themeId })),
  )
}

export const profileUseCases = Object.freeze({
  list,
  create,
  get,
  update,
  checkLogin,
  getSettings,
  changeSettings,
  chooseTheme,
  markdown,
  remove: deleteProfile,
})
