import { invalidField } from '../../kernel/errors.ts'
import type { ForeignBlock, ForeignPage } from './foreign-page.ts'
import type { ParseBudget } from './parse-budget.ts'

type Json = Record<string, any>

// LinkStack's button ids (its ButtonSeeder, numbered in seeding order) of rows that are not plain
// links: e-mail, heading, spacer, phone, text, a social icon, a vCard.
const EMAIL_IDS = new Set([6, 7])
const HEADING_ID = 42
const SPACER_IDS = new Set([43, 47])
const PHONE_ID = 44
const TEXT_ID = 93
const ICON_ID = 94
const VCARD_ID = 96

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v))
const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A vCard row's contact details (JSON in its `link`) as lines of a text block, or undefined. */
function contactCard(link: string): string | undefined {
  let card: unknown
  try {
    card = JSON.parse(link)
  } catch {
    return undefined
  }
  if (!card || typeof card !== 'object') return undefined
  const c = card as Json
  const join = (...keys: string[]) =>
    keys
      .map((k) => str(c[k]).trim())
      .filter(Boolean)
      .join(' ')
  const lines = [
    join('prefix', 'first_name', 'middle_name', 'last_name', 'suffix'),
    [join('vtitle'), join('role'), join('organization')].filter(Boolean).join(', '),
    join('email'),
    join('work_email'),
    join('cell_phone'),
    join('work_phone'),
    join('home_phone'),
    join('work_url'),
    join('home_address_street', 'home_address_zip', 'home_address_city', 'home_address_state', 'home_address_country'),
    join('work_address_street', 'work_address_zip', 'work_address_city', 'work_address_state', 'work_address_country'),
  ].filter(Boolean)
  return lines.length ? `<p>${lines.map(escaped).join('<br>')}</p>` : undefined
}

/**
 * LinkStack's JSON exports (UserController): "Export all data" is the user's own row (name,
 * littlelink_name, littlelink_description, theme, …) with `links` beside its fields and the
 * avatar as base64 in `image_data`; "Export links" is `{"links": […]}` alone. Exports of older
 * versions and of forks put the row under `user`. Each link row names its block by `type`
 * (link, predefined, heading, spacer, text, email, telephone, vcard) or, in older rows, only by
 * `button_id`. The icons at the top of a page are rows with button 94 (older ones: `up_link`
 * "yes"): social links here.
 */
export function readLinkStack(json: unknown, budget: ParseBudget): ForeignPage {
  const root = json && typeof json === 'object' && !Array.isArray(json) ? (json as Json) : undefined
  const links: Json[] | undefined = Array.isArray(root?.links) ? root.links : undefined
  if (!root || !links)
    throw invalidField('content', 'Not a LinkStack export: expected its "Export all data" or "Export links" file, a JSON object with "links": […].')
  const nested = Array.isArray(root.user) ? root.user[0] : root.user
  const user: Json = nested && typeof nested === 'object' ? nested : root
  const page: ForeignPage = {
    username: str(user.littlelink_name) || str(user.name),
    title: str(user.name) || str(user.littlelink_name),
    bio: str(user.littlelink_description),
    socials: [],
    blocks: [],
    skipped: [],
  }
  const image = (str(root.image_data) || str(user.image_data)).replace(/^data:[^,]*,/, '')
  if (image) page.avatarBytes = new Uint8Array(Buffer.from(image, 'base64'))
  const ordered = links
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l && typeof l === 'object')
    .sort((a, b) => Number(a.l.order ?? a.i) - Number(b.l.order ?? b.i) || Number(a.l.id ?? a.i) - Number(b.l.id ?? b.i))
  for (const { l, i } of ordered) {
    budget.check()
    const where = `linkstack.links.${i}`
    const type = str(l.type).toLowerCase()
    const buttonId = Number(l.button_id)
    const title = str(l.title)
    let url = str(l.link)
    if (buttonId === ICON_ID || (str(l.up_link) === 'yes' && url)) {
      if (url) page.socials.push({ url, where })
      else page.skipped.push({ field: where, reason: `The LinkStack icon "${title}" has no address.` })
      continue
    }
    if ((type === 'email' || EMAIL_IDS.has(buttonId)) && url && !/^mailto:/i.test(url)) url = `mailto:${url}`
    if ((type === 'telephone' || buttonId === PHONE_ID) && url && !/^tel:/i.test(url)) url = `tel:${url}`
    let block: ForeignBlock | undefined
    if (type === 'heading' || buttonId === HEADING_ID) block = { kind: 'heading', title, where }
    else if (type === 'spacer' || SPACER_IDS.has(buttonId)) block = { kind: 'spacer', where }
    else if (type === 'text' || buttonId === TEXT_ID) block = { kind: 'paragraph', title: '', text: title, where }
    else if (type === 'vcard' || buttonId === VCARD_ID) {
      const card = contactCard(url)
      if (card) block = { kind: 'paragraph', title: title || 'Contact', text: card, where }
      else {
        page.skipped.push({ field: where, reason: `The LinkStack vCard "${title}" holds no contact details that could be read.` })
        continue
      }
    } else if (url) block = { kind: 'link', title, url, where }
    if (block) page.blocks.push(block)
    else page.skipped.push({ field: where, reason: `A LinkStack ${type || `button ${buttonId}`} without a link has no block here.` })
  }
  return page
}
