import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CATALOGUES } from '../../src/i18n/catalogue.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { eventsRepository } from '../../src/store/events.ts'
import { languagesRepository } from '../../src/store/languages.ts'
import { type StoredProfile, profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`the public page speaks its language (${STORE})`, () => {
  let t: TestApp
  let user: User
  before(async () => {
    t = await startApp()
    user = await makeUser(t, { timezone: 'Asia/Tokyo' })
  })
  after(() => t.close())

  /** A page with an event (same-day range) and a video, in the language `code`. */
  async function pageIn(code: string, event: { startsAt: string; endsAt: string | null; timezone: string }): Promise<StoredProfile> {
    const profile = await makeProfile(t, user)
    const language = (await languagesRepository.findByCode(t.ctx.db, code))!
    await profilesRepository.update(t.ctx.db, profile.id, { languageId: language.id, socials: [{ link: 'https://github.com/x', order: 0 }] })
    const e = await eventsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Launch',
      description: '',
      location: '',
      link: 'https://example.com/t',
      ...event,
    })
    await slotService.appendManaged(t.ctx.db, profile, [
      { type: 'event', data: { eventId: e.id } },
      { type: 'youtube', data: { link: 'https://youtu.be/dQw4w9WgXcQ' } },
    ])
    return profile
  }

  const html = async (login: string) => (await fetch(`${t.url}/${login}`)).text()
  const lisbonEvening = { startsAt: '2027-04-17T17:00:00.000Z', endsAt: '2027-04-17T21:00:00.000Z', timezone: 'Europe/Lisbon' }

  it('writes an event on one day as one date with a time range, in the page language', async () => {
    const en = await html((await pageIn('en', lisbonEvening)).login)
    // ICU puts thin and narrow no-break spaces around the dash and before PM: \s matches them.
    // English as written where the event is (Lisbon): day before month, a 24-hour clock, the zone's own name.
    assert.match(en, /<time datetime="2027-04-17T17:00:00.000Z">Sat, 17 Apr 2027, 18:00–22:00\sWEST<\/time>/)
    const de = await html((await pageIn('de', lisbonEvening)).login)
    assert.match(de, /<time datetime="[^"]+">Sa\.,\s17\.\sApr\.\s2027,\s18:00–22:00\sUhr\sWESZ<\/time>/)
    const shown = />([^<]*)<\/time>/.exec(de)![1]
    assert.equal(shown.match(/2027/g)?.length, 1, 'the date appears once')
  })

  it('writes both ends when an event runs past midnight, and falls back to the owner’s zone', async () => {
    const overnight = await html(
      (await pageIn('en', { startsAt: '2027-04-17T13:00:00.000Z', endsAt: '2027-04-17T17:00:00.000Z', timezone: 'Not/AZone' })).login,
    )
    assert.match(overnight, /Sat, 17 Apr 2027, 22:00\sGMT\+9\s–\sSun, 18 Apr 2027, 02:00\sGMT\+9/)
  })

  it('uses the catalogue’s words for the page’s own labels', async () => {
    const fr = await html((await pageIn('fr', lisbonEvening)).login)
    for (const key of ['madeWith', 'eventDetails', 'playVideo', 'socialLinks'] as const) assert.ok(fr.includes(CATALOGUES.fr[key].replace(/’/g, '’')), key)
    assert.match(fr, /<html lang="fr" dir="ltr">/)
    assert.doesNotMatch(fr, /Made with Slotline|Details and tickets/)
  })

  it('sets dir="rtl" for Arabic, with Arabic words and dates', async () => {
    const ar = await html((await pageIn('ar', lisbonEvening)).login)
    assert.match(ar, /<html lang="ar" dir="rtl">/)
    assert.ok(ar.includes(CATALOGUES.ar.madeWith))
    assert.match(ar, /أبريل/)
  })

  it('answers a missing page in the visitor’s language, and says the answer varies by it', async () => {
    const res = await fetch(`${t.url}/no.such.page`, { headers: { 'accept-language': 'es-MX, es;q=0.9, en;q=0.5' } })
    assert.equal(res.status, 404)
    assert.equal(res.headers.get('vary'), 'Accept-Language')
    const body = await res.text()
    assert.match(body, /<html lang="es" dir="ltr">/)
    assert.ok(body.includes(`<title>${CATALOGUES.es.notFoundTitle}</title>`))
    assert.match(await (await fetch(`${t.url}/no.such.page`)).text(), /<title>This page does not exist<\/title>/)
  })
})
