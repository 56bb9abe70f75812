import type { AppContext } from '../context.ts'
import { publicFileUrl, squareCrops } from '../media/file-url.ts'
import { domainUseCases } from './domain-use-cases.ts'
import { socialIcon } from '../profiles/social-icons.ts'
import { slotService } from '../slots/slot-service.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { toSlotResource, toSlotView } from '../slots/slot-resource.ts'
import type { FormState, ImageFacts, RenderContext } from '../slots/types.ts'
import { type Messages, messagesFor, supportedLanguage } from '../i18n/catalogue.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { visitorUseCases as visitor } from './visitor-use-cases.ts'
import { shownSlots } from '../slots/shown-slots.ts'
import { formActionPath, slotClickPath, socialClickPath } from '../rendering/click-paths.ts'
import { renderPageDocument } from '../rendering/page-shell.ts'
import { remoteImageUrl } from '../rendering/remote-image-url.ts'
import { socialCardUrl } from '../rendering/social-card-url.ts'
import { socialIconSvg } from '../rendering/social-icon-svg.ts'

/**
 * The language the page renders in (its own, else its owner's: spec, Profile settings), as a
 * catalogue we have, and the owner's time zone for dates.
 */
export async function pageLocale(ctx: AppContext, profile: StoredProfile): Promise<{ lang: string; t: Messages; timeZone: string | undefined }> {
  const [chosen, owner] = await Promise.all([
    profile.languageId === null ? undefined : visitor.language(ctx, profile.languageId),
    visitor.ownerOf(ctx, profile),
  ])
  const lang = supportedLanguage(chosen?.code ?? owner?.languageCode ?? 'en')
  return { lang, t: messagesFor(lang), timeZone: owner?.timezone }
}

export interface RenderOptions {
  /** A refused form submission to show again, values and problems in place (never cached). */
  formState?: FormState
  /** The moment the page is rendered for (which blocks are in their window); default now. */
  now?: number
}

/** A rendered page and the moment it stops being right (a block's window opens or closes), if any. */
export interface RenderedPage {
  html: string
  /** ms since the epoch; undefined: nothing scheduled ahead. */
  expiresAt: number | undefined
}

/** The uploads a slot shows (its type's `files()`); none for legacy types or data that does not read. */
function uploadsOf(type: string, data: unknown): string[] {
  try {
    return (
      slotTypeOf(type)
        ?.files?.(data as never)
        .map((f) => f.path) ?? []
    )
  } catch {
    return []
  }
}

/**
 * The public page of a published profile as HTML. Every slot goes through its type's renderer;
 * legacy types are left out, and a slot whose stored data no longer renders is logged and left
 * out rather than taking the whole page down.
 */
export async function renderProfilePage(ctx: AppContext, profile: StoredProfile, options: RenderOptions = {}): Promise<string> {
  return (await renderScheduledPage(ctx, profile, options)).html
}

/** The size and WebP candidates of each stored image, for `<img>` and the cover. */
function imageFacts(images: Awaited<ReturnType<typeof visitor.images>>, fileUrl: (path: string) => string) {
  return (path: string): ImageFacts | undefined => {
    const found = images.get(path)
    if (!found) return undefined
    const webp = found.variants.map((v) => ({ src: fileUrl(v.path), width: v.width }))
    // A WebP upload is its own full-width candidate (the pipeline makes no copy of it at that width).
    if (found.mime === 'image/webp' && webp.length && webp[webp.length - 1].width < found.width) webp.push({ src: fileUrl(path), width: found.width })
    return { width: found.width, height: found.height, webp }
  }
}

/**
 * renderProfilePage with the moment the page changes by itself: the public page cache keeps a
 * copy exactly until then (scheduled blocks), on every instance alike, with no message between them.
 */
export async function renderScheduledPage(ctx: AppContext, profile: StoredProfile, options: RenderOptions = {}): Promise<RenderedPage> {
  const [all, { lang, t, timeZone }] = await Promise.all([visitor.slotsOf(ctx, profile.id), pageLocale(ctx, profile)])
  const { slots, expiresAt } = shownSlots(all, timeZone ?? 'UTC', options.now ?? Date.now())
  const fileUrl = (path: string) => publicFileUrl(ctx.config.publicUrl, path)
  const resources = slots.map((slot) => toSlotResource(slot, { fileUrl }))
  const [records, images] = await Promise.all([
    slotService.records(ctx.db, profile.userId, slots),
    visitor.images(ctx, [
      ...resources.flatMap((resource) => (resource.supported ? uploadsOf(resource.type, resource.data) : [])),
      ...(profile.bgImage ? [profile.bgImage] : []),
    ]),
  ])
  const image = imageFacts(images, fileUrl)
  let firstImages = true
  const blocks: Array<{ id: number; type: string; html: SafeHtml }> = []
  slots.forEach((slot, i) => {
    const def = slotTypeOf(slot.type)
    if (!def) return
    const resource = resources[i]
    if (!resource.supported) {
      ctx.log.error({ slotId: slot.id, type: slot.type }, 'slot left out of its public page: its stored data does not read')
      return
    }
    const hasImages = uploadsOf(resource.type, resource.data).length > 0
    const r: RenderContext = {
      h,
      clickHref: (slotId, index) => slotClickPath(profile.id, slotId, index),
      fileUrl,
      remoteImage: (url) => remoteImageUrl(ctx, url),
      formAction: formActionPath,
      record: records.get(slot.id),
      lang,
      t,
      icon: (name) => socialIconSvg(name).svg,
      timeZone,
      formState: options.formState,
      image,
      // The first slot with images is near the top; every later image loads lazily.
      eagerImages: hasImages && firstImages,
    }
    try {
      blocks.push({ id: slot.id, type: slot.type, html: def.html(toSlotView(resource), r) })
      if (hasImages) firstImages = false
    } catch (err) {
      ctx.log.error({ err, slotId: slot.id, type: slot.type }, 'slot left out of its public page: it does not render')
    }
  })
  const pageUrl = await domainUseCases.pageAddress(ctx, profile)
  const html = renderPageDocument({
    login: profile.login,
    lang,
    t,
    themeId: profile.themeId,
    pageUrl,
    title: profile.title,
    description: profile.description,
    seoTitle: profile.seoTitle,
    seoDescription: profile.seoDescription,
    seoSubject: profile.seoSubject,
    sameAs: profile.socials.map((s) => s.link).filter((link) => /^https?:\/\//i.test(link)),
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
    avatarUrl: profile.avatar ? fileUrl(profile.avatar) : null,
    avatarCrops: profile.avatar ? squareCrops(ctx.config.publicUrl, profile.avatar) : null,
    bgImageUrl: profile.bgImage ? fileUrl(profile.bgImage) : null,
    // Known dimensions reserve the cover's space before it loads (no layout shift); its WebP
    // variants are what the page shows.
    bgImage: profile.bgImage ? (image(profile.bgImage) ?? null) : null,
    cardUrl: socialCardUrl(ctx, profile, pageUrl),
    socials: profile.socials.map((s) => ({ order: s.order, icon: socialIcon(s.link), href: socialClickPath(profile.id, s.order) })),
    blocks,
  })
  return { html, expiresAt }
}

/** A public page drawn by the one renderer: for the public pages and the dashboard's previews. */
export const pageRenderingUseCases = Object.freeze({ locale: pageLocale, page: renderProfilePage, scheduledPage: renderScheduledPage })
