import type { AppContext } from '../context.ts'
import { publicFileUrl } from '../media/file-url.ts'
import { publicPageUrl } from '../profiles/resource.ts'
import { socialIcon } from '../profiles/social-icons.ts'
import { slotService } from '../services/slot-service.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { toSlotResource, toSlotView } from '../slots/resource.ts'
import type { FormState, RenderContext } from '../slots/types.ts'
import { type Messages, messagesFor, supportedLanguage } from '../i18n/catalogue.ts'
import { filesRepository } from '../store/files.ts'
import { languagesRepository } from '../store/languages.ts'
import type { Profile } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { usersRepository } from '../store/users.ts'
import { formActionPath, slotClickPath, socialClickPath } from './click-paths.ts'
import { renderPageDocument } from './page-document.ts'
import { socialIconSvg } from './social-icon-svg.ts'

/**
 * The language the page renders in (its own, else its owner's: spec, Profile settings), as a
 * catalogue we have, and the owner's time zone for dates.
 */
export async function pageLocale(ctx: AppContext, profile: Profile): Promise<{ lang: string; t: Messages; timeZone: string | undefined }> {
  const [chosen, owner] = await Promise.all([
    profile.languageId === null ? undefined : languagesRepository.findById(ctx.db, profile.languageId),
    usersRepository.findById(ctx.db, profile.userId),
  ])
  const lang = supportedLanguage(chosen?.code ?? owner?.languageCode ?? 'en')
  return { lang, t: messagesFor(lang), timeZone: owner?.timezone }
}

export interface RenderOptions {
  /** A refused form submission to show again, values and problems in place (never cached). */
  formState?: FormState
}

/**
 * The public page of a published profile as HTML. Every slot goes through its type's renderer;
 * legacy types are left out, and a slot whose stored data no longer renders is logged and left
 * out rather than taking the whole page down.
 */
export async function renderProfilePage(ctx: AppContext, profile: Profile, options: RenderOptions = {}): Promise<string> {
  const [slots, { lang, t, timeZone }, cover] = await Promise.all([
    slotsRepository.listByProfile(ctx.db, profile.id),
    pageLocale(ctx, profile),
    profile.bgImage ? filesRepository.findByPath(ctx.db, profile.bgImage) : undefined,
  ])
  const records = await slotService.records(ctx.db, profile.userId, slots)
  const fileUrl = (path: string) => publicFileUrl(ctx.config.publicUrl, path)
  const blocks: Array<{ id: number; type: string; html: SafeHtml }> = []
  for (const slot of slots) {
    const def = slotTypeOf(slot.type)
    if (!def) continue
    const r: RenderContext = {
      h,
      clickHref: (slotId, index) => slotClickPath(profile.id, slotId, index),
      fileUrl,
      formAction: formActionPath,
      record: records.get(slot.id),
      lang,
      t,
      icon: (name) => socialIconSvg(name).svg,
      timeZone,
      formState: options.formState,
    }
    const resource = toSlotResource(slot, { fileUrl })
    if (!resource.supported) {
      ctx.log.error({ slotId: slot.id, type: slot.type }, 'slot left out of its public page: its stored data does not read')
      continue
    }
    try {
      blocks.push({ id: slot.id, type: slot.type, html: def.html(toSlotView(resource), r) })
    } catch (err) {
      ctx.log.error({ err, slotId: slot.id, type: slot.type }, 'slot left out of its public page: it does not render')
    }
  }
  return renderPageDocument({
    login: profile.login,
    lang,
    t,
    themeId: profile.themeId,
    pageUrl: publicPageUrl(ctx.config, profile.login),
    title: profile.title,
    description: profile.description,
    avatarUrl: profile.avatar ? fileUrl(profile.avatar) : null,
    bgImageUrl: profile.bgImage ? fileUrl(profile.bgImage) : null,
    // Known dimensions reserve the cover's space before it loads (no layout shift).
    bgImageSize: cover?.width && cover.height ? { width: cover.width, height: cover.height } : null,
    socials: profile.socials.map((s) => ({ order: s.order, icon: socialIcon(s.link), href: socialClickPath(profile.id, s.order) })),
    blocks,
  })
}
