import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { accounts } from '../auth/accounts.ts'
import { ownerPrincipal, type Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { THEMES } from '../profiles/design-tokens.ts'
import { toProfileResource } from '../profiles/profile-resource.ts'
import type { ProfileResource } from '../profiles/profile-schemas.ts'
import { eventsRepository } from '../store/events.ts'
import { formsRepository } from '../store/forms.ts'
import { profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { type User, usersRepository } from '../store/users.ts'
import { invalidField } from '../kernel/errors.ts'
import { fileUseCases } from './file-use-cases.ts'
import { profileUseCases } from './profile-use-cases.ts'
import { slotService } from '../slots/slot-service.ts'
import { writeProfile } from './unit-of-work.ts'
import { loadSharp } from '../media/sharp.ts'

/** A small two-colour PNG, so the demo's pictures are real uploads that look like something. */
async function demoImage(width: number, height: number, from: string, to: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`
  const sharp = await loadSharp()
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** Stored the way POST /files stores: the same pipeline, storage driver and files row. */
async function upload(ctx: AppContext, principal: Principal, png: Buffer): Promise<string> {
  const file = await fileUseCases.upload(ctx, principal, { stream: Readable.from(png), length: png.length })
  if (!file) throw new Error('The demo image was not stored.')
  return file.path
}

export interface DemoPageInput {
  /** The page's owner; created with a random password when there is none. */
  email: string
  login: string
  themeId?: number
}

/**
 * A demo page with one slot of each of the ten types and one legacy slot (supported: false),
 * through the same use cases as the API, so the page cache hears of every change. `password`
 * is set when the owner was created here.
 */
async function createDemoPage(ctx: AppContext, input: DemoPageInput): Promise<{ user: User; password?: string; profile: ProfileResource }> {
  const { email, themeId } = input
  if (themeId !== undefined && !THEMES.some((t) => t.id === themeId)) {
    throw invalidField('themeId', `Takes a theme id: ${THEMES.map((t) => `${t.id} ${t.name}`).join(', ')}.`)
  }
  const { user: owner, password } = await demoOwner(ctx, email)
  // The same use cases as the API, so the page cache hears of every change.
  const principal = ownerPrincipal(owner)
  const pictures = await demoPictures(ctx, principal)

  const created = await profileUseCases.create(ctx, principal, { login: input.login })
  await profileUseCases.update(ctx, principal, created.id, {
    title: 'Jane Demo',
    description: 'Photographer and musician in Lisbon.\nThis page shows every kind of block Slotline has.',
    socials: [{ link: 'instagram.com/slotline.demo' }, { link: 'github.com/slotline' }, { link: 'mailto:hello@example.com' }],
  })
  // Event and form slots are the dashboard's to make (read-only through the API): the same
  // transaction and announcement as a use case, around the dashboard's own steps.
  const profile = await writeProfile(ctx, principal, created.id, {}, async (trx, page) => {
    const { event, form } = await demoEventAndForm(trx, owner)
    await slotService.appendManaged(trx, page, demoSlots(pictures, event.id, form.id))
    // A block type the API no longer knows: it reads as supported: false.
    const count = await slotsRepository.countByProfile(trx, page.id)
    await slotsRepository.insertMany(
      trx,
      page.id,
      [{ type: 'countdown', data: { title: 'Album release', endsAt: '2027-06-01T00:00:00.000Z' } }].map((s) => ({ ...s, position: count })),
    )
    return themeId === undefined ? page : profilesRepository.update(trx, page.id, { themeId })
  })
  return { user: owner, password, profile: toProfileResource(ctx.config, profile) }
}

async function demoOwner(ctx: AppContext, email: string): Promise<{ user: User; password?: string }> {
  const user = await usersRepository.findByEmail(ctx.db, email.trim().toLowerCase())
  if (user) return { user }
  const password = randomBytes(12).toString('base64url')
  return { user: await accounts.createUser(ctx.db, { email, password, name: 'Demo' }), password }
}

type DemoPictures = { portrait: string; first: string; second: string }

async function demoPictures(ctx: AppContext, principal: Principal): Promise<DemoPictures> {
  const [portrait, first, second] = await Promise.all([
    demoImage(800, 800, '#1d3557', '#e63946').then((png) => upload(ctx, principal, png)),
    demoImage(800, 600, '#2a9d8f', '#e9c46a').then((png) => upload(ctx, principal, png)),
    demoImage(800, 600, '#264653', '#f4a261').then((png) => upload(ctx, principal, png)),
  ])
  return { portrait, first, second }
}

async function demoEventAndForm(trx: Parameters<typeof eventsRepository.insert>[0], owner: User) {
  const event = await eventsRepository.insert(trx, {
    userId: owner.id,
    title: 'Spring exhibition',
    description: 'Prints, a short talk and music.',
    startsAt: '2027-04-17T17:00:00.000Z',
    endsAt: '2027-04-17T21:00:00.000Z',
    timezone: 'Europe/Lisbon',
    location: 'Galeria, Rua da Rosa 1, Lisbon',
    link: 'https://example.com/spring-exhibition',
  })
  const form = await formsRepository.insert(trx, {
    userId: owner.id,
    title: 'Say hello',
    description: 'I answer within a day.',
    fields: [
      { name: 'name', label: 'Your name', type: 'text', required: true },
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      { name: 'message', label: 'Message', type: 'textarea', required: false },
    ],
    submitLabel: 'Send',
  })
  return { event, form }
}

/** One block of each of the ten types, in the order a visitor sees them. */
function demoSlots(pictures: DemoPictures, eventId: number, formId: number) {
  return [
    { type: 'button', data: { title: 'Book a session', subtitle: 'Free 15-minute call', link: 'example.com/book' } },
    { type: 'picture', data: { path: pictures.portrait, link: 'https://example.com/portfolio' } },
    {
      type: 'gallery',
      data: {
        title: 'Recent work',
        items: [
          { path: pictures.first, text: 'Alfama, at dawn' },
          { path: pictures.second, text: 'Porto', link: 'https://example.com/porto' },
        ],
      },
    },
    {
      type: 'text',
      data: { title: 'About', description: '<p>I shoot <strong>film</strong> and write songs.</p><ul><li>Portraits</li><li>Weddings</li></ul>' },
    },
    { type: 'youtube', data: { title: 'Showreel', description: 'Two minutes of my favourite shoots.', link: 'https://youtu.be/dQw4w9WgXcQ' } },
    {
      type: 'faq',
      data: {
        title: 'Questions',
        items: [
          { title: 'Do you travel?', text: 'Yes, anywhere in Europe.' },
          { title: 'When do I get the photos?', text: 'Within two weeks.' },
        ],
      },
    },
    { type: 'divider', data: {} },
    { type: 'event', data: { eventId } },
    {
      type: 'music',
      data: {
        album: 'Blue Hours',
        artist: 'Jane Demo',
        links: [{ link: 'https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy' }, { link: 'https://music.apple.com/us/album/1440857781' }],
      },
    },
    { type: 'form', data: { formId, view: 'button', buttonText: 'Write to me' } },
  ]
}

export const demoUseCases = Object.freeze({ createDemoPage })
