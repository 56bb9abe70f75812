/** Icon name for a social link, from its scheme or host; `link` when nothing matches. */
const HOST_ICONS: Array<[RegExp, string]> = [
  [/(^|\.)instagram\.com$/, 'instagram'],
  [/(^|\.)tiktok\.com$/, 'tiktok'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
  [/(^|\.)(x\.com|twitter\.com)$/, 'x'],
  [/(^|\.)(facebook\.com|fb\.com)$/, 'facebook'],
  [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)github\.com$/, 'github'],
  [/(^|\.)(t\.me|telegram\.me|telegram\.org)$/, 'telegram'],
]

export function socialIcon(link: string): string {
  const lower = link.toLowerCase()
  if (lower.startsWith('mailto:')) return 'email'
  if (lower.startsWith('tel:')) return 'phone'
  if (lower.startsWith('whatsapp:')) return 'whatsapp'
  let host: string
  try {
    host = new URL(link).hostname.replace(/^www\./, '')
  } catch {
    return 'link'
  }
  for (const [re, icon] of HOST_ICONS) if (re.test(host)) return icon
  return 'link'
}
