import { invalidField } from '../../kernel/errors.ts'
import type { ForeignBlock, ForeignPage } from './foreign-page.ts'

type Json = Record<string, any>

// LinkStack's button ids of blocks that are not links (its buttons table): heading, spacer, text.
const HEADING_IDS = new Set([42])
const SPACER_IDS = new Set([43])
const TEXT_IDS = new Set([93])

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v))

/**
 * LinkStack's JSON export ("Export all data": the user row and its links). Newer exports name a
 * block's `type` (link, heading, spacer, text, email, telephone); older ones only its
 * `button_id`. Links marked `up_link: "yes"` are the icons at the top: social links here. The
 * avatar comes as base64 in `image_data` when the export has it.
 */
export function readLinkStack(json: unknown): ForeignPage {
  const root = json && typeof json === 'object' ? (json as Json) : undefined
  const user: Json | undefined = Array.isArray(root?.user) ? root.user[0] : root?.user
  const links: Json[] | undefined = Array.isArray(root?.links) ? root.links : undefined
  if (!user || typeof user !== 'object' || !links) throw invalidField('content', 'Not a LinkStack export: expected {"user": …, "links": […]}.')
  const page: ForeignPage = {
    username: str(user.littlelink_name) || str(user.name),
    title: str(user.littlelink_name) || str(user.name),
    bio: str(user.littlelink_description),
    socials: [],
    blocks: [],
    skipped: [],
  }
  const image = str(user.image_data).replace(/^data:[^,]*,/, '')
  if (image) page.avatarBytes = new Uint8Array(Buffer.from(image, 'base64'))
  const ordered = links
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l && typeof l === 'object')
    .sort((a, b) => (Number(a.l.order ?? a.i) - Number(b.l.order ?? b.i)) || Number(a.l.id ?? a.i) - Number(b.l.id ?? b.i))
  for (const { l, i } of ordered) {
    const where = `linkstack.links.${i}`
    const type = str(l.type).toLowerCase()
    const buttonId = Number(l.button_id)
    const title = str(l.title)
    let url = str(l.link)
    if (type === 'email' && url && !url.startsWith('mailto:')) url = `mailto:${url}`
    if ((type === 'telephone' || type === 'phone') && url && !url.startsWith('tel:')) url = `tel:${url}`
    if (str(l.up_link) === 'yes' && url) {
      page.socials.push({ url, where })
      continue
    }
    let block: ForeignBlock | undefined
    if (type === 'heading' || HEADING_IDS.has(buttonId)) block = { kind: 'heading', title, where }
    else if (type === 'spacer' || SPACER_IDS.has(buttonId)) block = { kind: 'spacer', where }
    else if (type === 'text' || TEXT_IDS.has(buttonId)) block = { kind: 'paragraph', title: '', text: title || str(l.type_params?.text), where }
    else if (url) block = { kind: 'link', title, url, where }
    if (block) page.blocks.push(block)
    else page.skipped.push({ field: where, reason: `A LinkStack ${type || `button ${buttonId}`} without a link has no block here.` })
  }
  return page
}
