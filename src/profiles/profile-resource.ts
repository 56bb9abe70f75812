import type { Config } from '../config.ts'
import { publicFileUrl } from '../media/file-url.ts'
import type { StoredProfile } from '../store/profiles.ts'
import type { ProfileResource } from './profile-schemas.ts'
import { socialIcon } from './social-icons.ts'

export const publicPageUrl = (config: Config, login: string) => `${config.publicUrl}/${login}`

/** ProfileResource as the spec shows it: stored fields plus the server-derived `computed`. */
export function toProfileResource(config: Config, p: StoredProfile): ProfileResource {
  return {
    id: p.id,
    login: p.login,
    title: p.title,
    description: p.description,
    avatar: p.avatar,
    bgImage: p.bgImage,
    socials: p.socials,
    themeId: p.themeId,
    languageId: p.languageId,
    seoTitle: p.seoTitle,
    seoDescription: p.seoDescription,
    seoSubject: p.seoSubject,
    computed: {
      url: publicPageUrl(config, p.login),
      avatarUrl: p.avatar ? publicFileUrl(config.publicUrl, p.avatar) : null,
      bgImageUrl: p.bgImage ? publicFileUrl(config.publicUrl, p.bgImage) : null,
      socials: p.socials.map((s) => ({ icon: socialIcon(s.link) })),
      isMain: p.isMain,
      status: p.status,
    },
  }
}
