import { makeAccount, makeProfile, startApp } from '../test/helpers/app.ts'
import { ratioAgainstBaseline } from './lib.ts'

const SLOTS = 50

/** A page of 50 slots of several types, written through the API as a client would. */
function fiftySlots(from: number) {
  return Array.from({ length: SLOTS / 2 }, (_, i) => {
    const n = from + i
    switch (n % 5) {
      case 0:
        return { type: 'button', data: { title: `Shop ${n}`, link: `https://shop.example/${n}` } }
      case 1:
        return { type: 'text', data: { title: `Note ${n}`, description: '<p>Opening hours <strong>9 to 5</strong>, closed on Sundays.</p>' } }
      case 2:
        return { type: 'faq', data: { title: 'Questions', items: [{ title: 'Do you ship?', text: 'Yes, anywhere in Europe.' }] } }
      case 3:
        return { type: 'youtube', data: { title: `Video ${n}`, link: 'https://youtu.be/dQw4w9WgXcQ' } }
      default:
        return { type: 'divider', data: {} }
    }
  })
}

/** GET /v1/profiles/{key}?include=slots and GET …/slots of a 50-slot page against bare node:http with the same bytes. */
export async function benchProfileRead(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  try {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user, 'fifty.slots')
    for (const from of [0, SLOTS / 2]) {
      const res = await t.request('POST', `/v1/profiles/${profile.id}/slots/batch`, { token, body: { slots: fiftySlots(from) } })
      if (res.status !== 201) throw new Error(`seeding: ${res.status} ${res.text}`)
    }
    const headers = { authorization: `Bearer ${token}` }
    // Issue #32: at least 0.5 of the bare server on SQLite, 0.3 on PostgreSQL.
    const options = { headers, connections: 50, target: store === 'sqlite' ? 0.5 : 0.3 }
    await ratioAgainstBaseline(`GET /v1/profiles/{key}?include=slots, 50 slots (${store})`, `${t.url}/v1/profiles/${profile.id}?include=slots`, options)
    await ratioAgainstBaseline(`GET /v1/profiles/{key}/slots, 50 slots (${store})`, `${t.url}/v1/profiles/${profile.id}/slots`, options)
  } finally {
    await t.close()
  }
}
