import { Readable } from 'node:stream'
import sharp from 'sharp'
import { uploadService } from '../../src/media/uploads.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { eventsRepository } from '../../src/store/events.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { type StoredProfile, profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import type { TestApp } from '../helpers/app.ts'

/** A desktop browser's agent: what the analytics intake counts as a person. */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

/** An uploaded image of the user's: a soft two-colour gradient with a circle, made locally. */
export async function uploadImage(t: TestApp, user: User, width: number, height: number, from: string, to: string): Promise<{ path: string; src: string }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.68}" cy="${height * 0.38}" r="${Math.min(width, height) * 0.2}" fill="#ffffff" fill-opacity="0.3"/></svg>`
  const png = await sharp(Buffer.from(svg)).png().toBuffer()
  const file = await uploadService.fromStream(t.ctx, user.id, Readable.from(png), png.length, { dryRun: false })
  return { path: file!.path, src: file!.src }
}

const imagesByUser = new WeakMap<TestApp, Map<number, ReturnType<typeof makeDemoImages>>>()

const makeDemoImages = (t: TestApp, user: User) =>
  Promise.all([
    uploadImage(t, user, 400, 400, '#f6a96b', '#b3446c'),
    uploadImage(t, user, 1600, 900, '#284b63', '#9ad1d4'),
    uploadImage(t, user, 800, 500, '#ffb347', '#ff6961'),
    uploadImage(t, user, 400, 400, '#77dd77', '#2e8b57'),
    uploadImage(t, user, 400, 400, '#aec6cf', '#4169e1'),
    uploadImage(t, user, 400, 400, '#fdd9b5', '#c9a0dc'),
    uploadImage(t, user, 400, 400, '#3b1f5e', '#e76f51'),
  ])

/** The demo's seven images, uploaded once per user and app (pages of one user may share files). */
function demoImages(t: TestApp, user: User) {
  let byUser = imagesByUser.get(t)
  if (!byUser) imagesByUser.set(t, (byUser = new Map()))
  let images = byUser.get(user.id)
  if (!images) byUser.set(user.id, (images = makeDemoImages(t, user)))
  return images
}

/** Every text a page shows, so a test can put the same payload in all of them. */
export interface PageTexts {
  title: string
  description: string
  buttonTitle: string
  buttonSubtitle: string
  galleryTitle: string
  caption: string
  textTitle: string
  textHtml: string
  videoTitle: string
  videoDescription: string
  faqTitle: string
  question: string
  answer: string
  album: string
  artist: string
  eventTitle: string
  eventDescription: string
  eventLocation: string
  formTitle: string
  formDescription: string
  fieldLabel: string
  submitLabel: string
  buttonText: string
  /** Appended to the query of every web link (button, picture, gallery, music, socials, event). */
  linkSuffix: string
}

export const DEMO_TEXTS: PageTexts = {
  title: 'Jane Doe',
  description: 'Illustrator & maker of small things.\nBased in Lisbon, open for commissions.',
  buttonTitle: 'Shop my prints',
  buttonSubtitle: 'New winter collection',
  galleryTitle: 'Recent work',
  caption: 'Harbour at dawn',
  textTitle: 'About me',
  textHtml: '<p>I draw <strong>maps</strong>, <em>birds</em> and city corners.</p><ul><li>Prints and posters</li><li>Murals</li></ul>',
  videoTitle: 'Studio tour',
  videoDescription: 'A walk through my workspace.',
  faqTitle: 'Questions',
  question: 'Do you ship abroad?',
  answer: 'Yes, worldwide.\nTracking is included.',
  album: 'Night Drawings',
  artist: 'Jane Doe & Friends',
  eventTitle: 'Open studio night',
  eventDescription: 'Prints, coffee and a live drawing session.',
  eventLocation: 'Rua das Flores 12, Lisbon',
  formTitle: 'Commission request',
  formDescription: 'Tell me what you have in mind.',
  fieldLabel: 'Your idea',
  submitLabel: 'Send request',
  buttonText: 'Ask a question',
  linkSuffix: '',
}

/**
 * A published page with one slot of every one of the ten types (several button styles), a
 * legacy slot, avatar, cover and socials, written through the API wherever the API can; every image is served by the app itself, so a browser
 * needs nothing beyond 127.0.0.1.
 */
export async function buildDemoPage(
  t: TestApp,
  user: User,
  token: string,
  profile: StoredProfile,
  texts: PageTexts = DEMO_TEXTS,
): Promise<{ slotIds: number[] }> {
  const q = (url: string) => (texts.linkSuffix ? `${url}?q=${encodeURIComponent(texts.linkSuffix)}` : url)
  const [avatar, cover, picture, first, second, third, album] = await demoImages(t, user)
  const patched = await t.request('PATCH', `/v1/profiles/${profile.id}`, {
    token,
    body: {
      title: texts.title,
      description: texts.description,
      avatar: avatar.path,
      bgImage: cover.path,
      socials: [
        { link: q('https://instagram.com/jane') },
        { link: q('https://github.com/jane') },
        { link: q('https://open.spotify.com/artist/jane') },
        { link: 'mailto:jane@example.com' },
        { link: q('https://jane.example.org') },
      ],
    },
  })
  if (patched.status !== 200) throw new Error(`PATCH profile: ${patched.status} ${patched.text}`)
  const event = await eventsRepository.insert(t.ctx.db, {
    userId: user.id,
    title: texts.eventTitle,
    description: texts.eventDescription,
    startsAt: '2026-12-12T18:00:00.000Z',
    endsAt: '2026-12-12T22:00:00.000Z',
    timezone: 'Europe/Lisbon',
    location: texts.eventLocation,
    link: q('https://example.org/studio-night'),
  })
  const form = await formsRepository.insert(t.ctx.db, {
    userId: user.id,
    title: texts.formTitle,
    description: texts.formDescription,
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      { name: 'idea', label: texts.fieldLabel, type: 'textarea', required: false },
    ],
    submitLabel: texts.submitLabel,
  })
  // Writable types through the API, as a client would; events and forms are the dashboard's.
  const writable = [
    { type: 'button', data: { title: texts.buttonTitle, subtitle: texts.buttonSubtitle, link: q('https://example.org/shop') } },
    { type: 'button', data: { title: texts.buttonTitle, link: 'mailto:jane@example.com', style: 'social-blue' } },
    {
      type: 'button',
      data: {
        title: texts.buttonTitle,
        subtitle: texts.buttonSubtitle,
        link: q('https://example.org/custom'),
        style: 'custom',
        customize: { backgroundColor: '#0f766e', textColor: '#ffffff', subtitleColor: '#ccfbf1', borderRadius: 28 },
      },
    },
    { type: 'picture', data: { path: picture.path, link: q('https://example.org/picture'), size: 'large' } },
    {
      type: 'gallery',
      data: {
        title: texts.galleryTitle,
        items: [
          { path: first.path, text: texts.caption, link: q('https://example.org/harbour') },
          { path: second.path, text: texts.caption },
          { path: third.path, text: '', link: q('https://example.org/third') },
        ],
      },
    },
    { type: 'text', data: { title: texts.textTitle, description: texts.textHtml, textStyle: 'border' } },
    { type: 'youtube', data: { title: texts.videoTitle, description: texts.videoDescription, link: 'https://youtu.be/dQw4w9WgXcQ' } },
    {
      type: 'faq',
      data: {
        title: texts.faqTitle,
        items: [
          { title: texts.question, text: texts.answer },
          { title: 'Can I commission a piece?', text: 'Yes: use the form below.' },
        ],
      },
    },
    { type: 'divider', data: {} },
    {
      type: 'music',
      data: {
        album: texts.album,
        artist: texts.artist,
        thumbnail: album.src,
        links: [{ link: q('https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy') }, { link: q('https://music.apple.com/us/album/1440857781') }],
      },
    },
    { type: 'text', data: { title: '', description: texts.textHtml, textStyle: 'plain' } },
  ]
  const created = await t.request('POST', `/v1/profiles/${profile.id}/slots/batch`, { token, body: { slots: writable } })
  if (created.status !== 201) throw new Error(`POST slots/batch: ${created.status} ${created.text}`)
  const fresh = (await profilesRepository.findById(t.ctx.db, profile.id))!
  const managed = await slotService.appendManaged(t.ctx.db, fresh, [
    { type: 'event', data: { eventId: event.id } },
    { type: 'form', data: { formId: form.id, view: 'inline', framed: true } },
    { type: 'form', data: { formId: form.id, view: 'button', buttonText: texts.buttonText, style: 'honey-yellow' } },
  ])
  const api: number[] = created.body.data.map((s: { id: number }) => s.id)
  // Page order: the event after the music block, the forms last.
  const slotIds = [...api.slice(0, 10), managed[0].id, api[10], managed[1].id, managed[2].id]
  const ordered = await t.request('PUT', `/v1/profiles/${profile.id}/slots/order`, { token, body: { order: slotIds } })
  if (ordered.status !== 200) throw new Error(`PUT slots/order: ${ordered.status} ${ordered.text}`)
  // A legacy block the API reports as unsupported; the public page leaves it out.
  const now = new Date().toISOString()
  await t.ctx.db
    .insertInto('slots')
    .values({ profile_id: profile.id, type: 'countdown', position: slotIds.length, data: JSON.stringify({ until: now }), created_at: now, updated_at: now })
    .execute()
  t.ctx.events.emit('profile-changed', { profileId: profile.id, logins: [profile.login] })
  return { slotIds }
}
