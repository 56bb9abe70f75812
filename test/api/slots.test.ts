import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { limits } from '../../src/kernel/limits.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { eventsRepository } from '../../src/store/events.ts'
import type { StoredProfile } from '../../src/store/profiles.ts'
import { slotsRepository } from '../../src/store/slots.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { insertRawSlot } from '../helpers/slots.ts'

let t: TestApp
before(async () => {
  t = await startApp()
})
after(() => t.close())

interface Page {
  user: User
  token: string
  profile: StoredProfile
  base: string
}

async function page(): Promise<Page> {
  const { user, token } = await makeAccount(t)
  const profile = await makeProfile(t, user)
  return { user, token, profile, base: `/v1/profiles/${profile.id}/slots` }
}

const text = (title: string) => ({ type: 'text', data: { title } })

async function fill(p: Page, titles: string[]) {
  const res = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: titles.map(text) } })
  assert.equal(res.status, 201, res.text)
  return res.body.data as Array<{ id: number; order: number; data: { title: string } }>
}

/** Titles in page order, after checking positions are exactly 0..n-1. */
async function titles(p: Page): Promise<string[]> {
  const slots = await slotsRepository.listByProfile(t.ctx.db, p.profile.id)
  assert.deepEqual(
    slots.map((s) => s.position),
    slots.map((_, i) => i),
    'positions are dense',
  )
  return slots.map((s) => (s.data as { title?: string }).title ?? s.type)
}

async function event(p: Page) {
  const e = await eventsRepository.insert(t.ctx.db, {
    userId: p.user.id,
    title: 'Gig',
    description: '',
    startsAt: '2026-05-01T20:00:00.000Z',
    endsAt: null,
    timezone: 'UTC',
    location: '',
    link: '',
  })
  const [slot] = await slotService.appendManaged(t.ctx.db, p.profile, [{ type: 'event', data: { eventId: e.id } }])
  return slot
}

/** 401 without a token, 403 for a read-only token (writes), 404 for another account's page. */
async function assertGuarded(method: string, path: (p: Page) => string, body?: unknown) {
  const mine = await page()
  const anon = await t.request(method, path(mine), { body })
  assert.equal(anon.status, 401)
  if (method !== 'GET') {
    const readOnly = await makeToken(t, mine.user, ['profile:read'])
    const res = await t.request(method, path(mine), { token: readOnly, body })
    assert.equal(res.status, 403)
    assert.equal(res.body.code, 'forbidden')
  }
  const stranger = await makeAccount(t)
  const foreign = await t.request(method, path(mine), { token: stranger.token, body })
  assert.equal(foreign.status, 404)
  assert.equal(foreign.body.code, 'not_found')
}

describe(`GET /profiles/{profileKey}/slots (${STORE})`, () => {
  it('answers 401 without a token and 404 for another account’s page', async () => {
    await assertGuarded('GET', (p) => p.base)
  })

  it('lists every slot in page order with the resource fields', async () => {
    const p = await page()
    await fill(p, ['a', 'b'])
    const res = await t.request('GET', `/v1/profiles/${p.profile.login}/slots`, { token: p.token })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((s: any) => [s.type, s.order, s.supported, s.data.title]),
      [
        ['text', 0, true, 'a'],
        ['text', 1, true, 'b'],
      ],
    )
    const [first] = res.body.data
    assert.deepEqual(Object.keys(first).sort(), ['computed', 'createdAt', 'data', 'id', 'order', 'supported', 'type', 'updatedAt', 'visibility'])
    assert.deepEqual(first.visibility, { hidden: false, startsAt: null, endsAt: null })
    assert.ok(!Number.isNaN(Date.parse(first.createdAt)))
  })

  it('reads a legacy slot with supported: false and a message, as stored', async () => {
    const p = await page()
    await insertRawSlot(t, p.profile, 'countdown', { endsAt: '2026-12-31T00:00:00Z' })
    const [slot] = (await t.request('GET', p.base, { token: p.token })).body.data
    assert.deepEqual([slot.type, slot.supported, slot.data, slot.computed], ['countdown', false, { endsAt: '2026-12-31T00:00:00Z' }, {}])
    assert.match(slot.message, /not supported by the API.*deleted or reordered/)
  })
})

describe(`POST /profiles/{profileKey}/slots (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('POST', (p) => p.base, text('x'))
  })

  it('appends without order, and inserts at order shifting the rest down', async () => {
    const p = await page()
    await fill(p, ['a', 'b', 'c'])
    const res = await t.request('POST', p.base, { token: p.token, body: { ...text('new'), order: 1 } })
    assert.equal(res.status, 201)
    assert.equal(res.body.data.order, 1)
    assert.deepEqual(await titles(p), ['a', 'new', 'b', 'c'])
    await t.request('POST', p.base, { token: p.token, body: text('last') })
    await t.request('POST', p.base, { token: p.token, body: { ...text('far'), order: 99 } })
    await t.request('POST', p.base, { token: p.token, body: { ...text('first'), order: 0 } })
    assert.deepEqual(await titles(p), ['first', 'a', 'new', 'b', 'c', 'last', 'far'])
  })

  it('refuses event, form and unknown types with 422 naming type', async () => {
    const p = await page()
    for (const type of ['event', 'form', 'countdown']) {
      const res = await t.request('POST', p.base, { token: p.token, body: { type, data: {} } })
      assert.equal(res.status, 422, type)
      assert.ok('type' in res.body.errors, type)
    }
    assert.deepEqual(await titles(p), [])
  })

  it('refuses a negative order and unknown body keys', async () => {
    const p = await page()
    const res = await t.request('POST', p.base, { token: p.token, body: { ...text('x'), order: -1, position: 2 } })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['order', 'position'])
  })

  it(`refuses the ${limits.slotsPerProfile + 1}th slot with 409 limit_reached`, async () => {
    const p = await page()
    await slotsRepository.insertMany(
      t.ctx.db,
      p.profile.id,
      Array.from({ length: limits.slotsPerProfile - 1 }, (_, i) => ({ type: 'divider', data: {}, position: i })),
    )
    assert.equal((await t.request('POST', p.base, { token: p.token, body: { type: 'divider' } })).status, 201)
    const res = await t.request('POST', p.base, { token: p.token, body: { type: 'divider' } })
    assert.equal(res.status, 409)
    assert.equal(res.body.code, 'limit_reached')
    assert.equal(await slotsRepository.countByProfile(t.ctx.db, p.profile.id), limits.slotsPerProfile)
  })

  it('keeps positions dense under parallel creates at one page', async () => {
    const p = await page()
    await fill(p, ['seed'])
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.request('POST', p.base, { token: p.token, body: { ...text(`p${i}`), ...(i % 3 === 0 ? { order: 0 } : {}) } })),
    )
    assert.deepEqual(
      results.map((r) => r.status),
      results.map(() => 201),
    )
    const list = await titles(p)
    assert.equal(list.length, 13)
    assert.equal(new Set(list).size, 13)
  })

  it('names keys called constructor and __proto__ like any other unknown key', async () => {
    const p = await page()
    const payload = '{"type": "button", "data": {"title": "x", "link": "example.com", "constructor": 1, "__proto__": {"polluted": true}}}'
    const res = await t.request('POST', p.base, { token: p.token, payload, headers: { 'content-type': 'application/json' } })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['data.__proto__', 'data.constructor'])
    assert.equal(({} as { polluted?: boolean }).polluted, undefined)
  })

  it('answers arbitrary JSON as data with 201 or 422, never a 5xx', async () => {
    const p = await page()
    const types = ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'divider', 'music']
    const samples = fc.sample(fc.tuple(fc.constantFrom(...types), fc.jsonValue({ maxDepth: 3 })), 40)
    for (const [type, data] of samples) {
      const res = await t.request('POST', p.base, { token: p.token, body: { type, data } })
      assert.ok(res.status === 201 || res.status === 422, `${type} ${JSON.stringify(data)} → ${res.status} ${res.text}`)
    }
    const shaped = fc.sample(
      fc.dictionary(fc.constantFrom('title', 'link', 'items', 'links', 'path', '__proto__', 'constructor', 'style'), fc.jsonValue({ maxDepth: 2 })),
      30,
    )
    for (const data of shaped) {
      const res = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: types.map((type) => ({ type, data })) } })
      assert.ok(res.status === 201 || res.status === 422, `${JSON.stringify(data)} → ${res.status} ${res.text}`)
    }
  })

  it('stores nothing for a dry run (Precognition: true)', async () => {
    const p = await page()
    const ok = await t.request('POST', p.base, { token: p.token, body: text('x'), headers: { precognition: 'true' } })
    assert.equal(ok.status, 204)
    const bad = await t.request('POST', p.base, { token: p.token, body: { type: 'button', data: {} }, headers: { precognition: 'true' } })
    assert.equal(bad.status, 422)
    assert.ok('data.link' in bad.body.errors)
    assert.deepEqual(await titles(p), [])
  })

  it('creates once for a repeated Idempotency-Key', async () => {
    const p = await page()
    const headers = { 'idempotency-key': 'slot-create-1' }
    const first = await t.request('POST', p.base, { token: p.token, body: text('once'), headers })
    const again = await t.request('POST', p.base, { token: p.token, body: text('once'), headers })
    assert.equal(first.status, 201)
    assert.equal(again.status, 201)
    assert.equal(again.body.data.id, first.body.data.id)
    assert.deepEqual(await titles(p), ['once'])
  })
})

describe(`concurrent writes to one page (${STORE})`, () => {
  it('keep positions dense when creates, batches and deletes race', async () => {
    const p = await page()
    const seeded = await fill(p, ['s0', 's1', 's2', 's3', 's4', 's5'])
    const writes = [
      ...seeded.map((s) => t.request('DELETE', `${p.base}/${s.id}`, { token: p.token })),
      ...Array.from({ length: 6 }, (_, i) => t.request('POST', p.base, { token: p.token, body: { ...text(`n${i}`), order: i } })),
      t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [text('b0'), text('b1')], insertAt: 1 } }),
    ]
    const statuses = (await Promise.all(writes)).map((r) => r.status)
    assert.ok(
      statuses.every((s) => s === 201 || s === 204),
      JSON.stringify(statuses),
    )
    assert.deepEqual((await titles(p)).sort(), ['b0', 'b1', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5'])
  })
})

describe(`PATCH /profiles/{profileKey}/slots (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('PATCH', (p) => p.base, { slots: [{ id: 1, data: {} }] })
  })

  it('merges each data at the top level and leaves positions alone', async () => {
    const p = await page()
    const [a, b] = await fill(p, ['a', 'b'])
    const res = await t.request('PATCH', p.base, {
      token: p.token,
      body: {
        slots: [
          { id: b.id, data: { title: 'B' } },
          { id: a.id, data: { link: 'example.com' } },
        ],
      },
    })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((s: any) => [s.id, s.order, s.data.title, s.data.link]),
      [
        [b.id, 1, 'B', ''],
        [a.id, 0, 'a', 'https://example.com'],
      ],
    )
    assert.deepEqual(await titles(p), ['a', 'B'])
  })

  it('changes nothing when one slot is invalid, naming slots.<index>.data.<field>', async () => {
    const p = await page()
    const [a, b] = await fill(p, ['a', 'b'])
    const res = await t.request('PATCH', p.base, {
      token: p.token,
      body: {
        slots: [
          { id: a.id, data: { title: 'A' } },
          { id: b.id, data: { link: 'javascript:x', extra: 1 } },
        ],
      },
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['slots.1.data.extra', 'slots.1.data.link'])
    assert.deepEqual(await titles(p), ['a', 'b'])
  })

  it('refuses an event or legacy slot with 409 read_only, changing nothing', async () => {
    const p = await page()
    const [a] = await fill(p, ['a'])
    const e = await event(p)
    const legacy = await insertRawSlot(t, p.profile, 'countdown', {})
    for (const id of [e.id, legacy.id]) {
      const res = await t.request('PATCH', p.base, {
        token: p.token,
        body: {
          slots: [
            { id: a.id, data: { title: 'A' } },
            { id, data: {} },
          ],
        },
      })
      assert.equal(res.status, 409)
      assert.equal(res.body.code, 'read_only')
    }
    assert.deepEqual((await titles(p))[0], 'a')
  })

  it('refuses ids not on this page and repeated ids, naming slots.<index>.id', async () => {
    const p = await page()
    const other = await page()
    const [a] = await fill(p, ['a'])
    const [foreign] = await fill(other, ['x'])
    const res = await t.request('PATCH', p.base, {
      token: p.token,
      body: {
        slots: [
          { id: a.id, data: {} },
          { id: a.id, data: {} },
          { id: foreign.id, data: {} },
        ],
      },
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['slots.1.id', 'slots.2.id'])
  })

  it(`takes 1 to ${limits.slotsPerBatch} slots`, async () => {
    const p = await page()
    assert.equal((await t.request('PATCH', p.base, { token: p.token, body: { slots: [] } })).status, 422)
    const many = Array.from({ length: limits.slotsPerBatch + 1 }, (_, i) => ({ id: i + 1, data: {} }))
    const res = await t.request('PATCH', p.base, { token: p.token, body: { slots: many } })
    assert.equal(res.status, 422)
    assert.ok('slots' in res.body.errors)
  })
})

describe(`DELETE /profiles/{profileKey}/slots (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('DELETE', (p) => `${p.base}?ids[]=1`)
  })

  it('deletes the ids given as query ids[], answering meta deleted and total, positions dense', async () => {
    const p = await page()
    const [a, , c, d] = await fill(p, ['a', 'b', 'c', 'd'])
    const res = await t.request('DELETE', `${p.base}?ids[]=${a.id}&ids[]=${c.id}`, { token: p.token })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, { meta: { deleted: 2, total: 2 } })
    assert.deepEqual(await titles(p), ['b', 'd'])
    const single = await t.request('DELETE', `${p.base}?ids[]=${d.id}`, { token: p.token })
    assert.deepEqual(single.body, { meta: { deleted: 1, total: 1 } })
  })

  it('takes the ids as a JSON body {ids} too', async () => {
    const p = await page()
    const [a, b] = await fill(p, ['a', 'b'])
    const res = await t.request('DELETE', p.base, { token: p.token, body: { ids: [b.id, a.id] } })
    assert.deepEqual([res.status, res.body], [200, { meta: { deleted: 2, total: 0 } }])
  })

  it('refuses the whole request when one id is not on this page', async () => {
    const p = await page()
    const other = await page()
    const [a] = await fill(p, ['a'])
    const [foreign] = await fill(other, ['x'])
    const res = await t.request('DELETE', `${p.base}?ids[]=${a.id}&ids[]=${foreign.id}`, { token: p.token })
    assert.equal(res.status, 422)
    assert.match(res.body.errors.ids[0], new RegExp(`${foreign.id}`))
    assert.deepEqual(await titles(p), ['a'])
    assert.deepEqual(await titles(other), ['x'])
  })

  it('refuses a request without ids, or with more than the batch limit', async () => {
    const p = await page()
    assert.equal((await t.request('DELETE', p.base, { token: p.token })).status, 422)
    const many = Array.from({ length: limits.slotsPerBatch + 1 }, (_, i) => `ids[]=${i + 1}`).join('&')
    assert.equal((await t.request('DELETE', `${p.base}?${many}`, { token: p.token })).status, 422)
    assert.equal((await t.request('DELETE', `${p.base}?ids[]=abc`, { token: p.token })).status, 422)
  })

  it('deletes event and legacy slots too', async () => {
    const p = await page()
    const e = await event(p)
    const legacy = await insertRawSlot(t, p.profile, 'countdown', {})
    const res = await t.request('DELETE', p.base, { token: p.token, body: { ids: [e.id, legacy.id] } })
    assert.deepEqual(res.body, { meta: { deleted: 2, total: 0 } })
  })
})

describe(`POST /profiles/{profileKey}/slots/batch (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('POST', (p) => `${p.base}/batch`, { slots: [text('x')] })
  })

  it('creates in array order, appended, or placed as a whole at insertAt', async () => {
    const p = await page()
    await fill(p, ['a', 'b'])
    const res = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [text('x'), { type: 'divider' }, text('y')], insertAt: 1 } })
    assert.equal(res.status, 201)
    assert.deepEqual(
      res.body.data.map((s: any) => s.order),
      [1, 2, 3],
    )
    assert.deepEqual(await titles(p), ['a', 'x', 'divider', 'y', 'b'])
    await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [text('z')], insertAt: null } })
    assert.deepEqual((await titles(p)).at(-1), 'z')
  })

  it('is all or nothing, naming slots.<index>.data.<field> for every problem', async () => {
    const p = await page()
    const res = await t.request('POST', `${p.base}/batch`, {
      token: p.token,
      body: {
        slots: [
          text('fine'),
          { type: 'button', data: { title: 'x', link: 'javascript:alert(1)', url: 'x' } },
          { type: 'youtube', data: { link: 'https://vimeo.com/1' } },
          { type: 'gallery', data: { items: [{ path: 'u1/nope.png' }] } },
        ],
      },
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['slots.1.data.link', 'slots.1.data.url', 'slots.2.data.link', 'slots.3.data.items.0.path'])
    assert.deepEqual(await titles(p), [])
  })

  it('refuses an event or form in the batch with 409 read_only', async () => {
    const p = await page()
    for (const type of ['event', 'form']) {
      const res = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [text('x'), { type, data: { [`${type}Id`]: 1 } }] } })
      assert.equal(res.status, 409)
      assert.equal(res.body.code, 'read_only')
    }
    assert.deepEqual(await titles(p), [])
  })

  it(`takes 1 to ${limits.slotsPerBatch} slots of the ten types`, async () => {
    const p = await page()
    assert.equal((await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [] } })).status, 422)
    const tooMany = Array.from({ length: limits.slotsPerBatch + 1 }, () => ({ type: 'divider' }))
    assert.equal((await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: tooMany } })).status, 422)
    const unknown = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [{ type: 'countdown', data: {} }] } })
    assert.equal(unknown.status, 422)
    assert.ok('slots.0.type' in unknown.body.errors)
    const full = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: tooMany.slice(1) } })
    assert.equal(full.status, 201)
    assert.equal(full.body.data.length, limits.slotsPerBatch)
  })

  it('refuses a batch that would pass the page limit with 409 limit_reached', async () => {
    const p = await page()
    await slotsRepository.insertMany(
      t.ctx.db,
      p.profile.id,
      Array.from({ length: limits.slotsPerProfile - 1 }, (_, i) => ({ type: 'divider', data: {}, position: i })),
    )
    const res = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [{ type: 'divider' }, { type: 'divider' }] } })
    assert.equal(res.status, 409)
    assert.equal(res.body.code, 'limit_reached')
  })

  it('keeps positions dense under parallel batches at one page', async () => {
    const p = await page()
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [text(`${i}a`), text(`${i}b`)], insertAt: i % 2 ? 0 : null } }),
      ),
    )
    assert.ok(results.every((r) => r.status === 201))
    const list = await titles(p)
    assert.equal(list.length, 12)
    for (let i = 0; i < 6; i++) assert.equal(list.indexOf(`${i}b`), list.indexOf(`${i}a`) + 1, 'a batch stays together')
  })
})

describe(`PUT /profiles/{profileKey}/slots/order (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('PUT', (p) => `${p.base}/order`, { order: [1] })
  })

  it('sets the order of every slot, legacy and event slots included', async () => {
    const p = await page()
    const [a, b] = await fill(p, ['a', 'b'])
    const e = await event(p)
    const legacy = await insertRawSlot(t, p.profile, 'countdown', {})
    const res = await t.request('PUT', `${p.base}/order`, { token: p.token, body: { order: [legacy.id, b.id, e.id, a.id] } })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((s: any) => [s.id, s.order]),
      [
        [legacy.id, 0],
        [b.id, 1],
        [e.id, 2],
        [a.id, 3],
      ],
    )
    assert.deepEqual(await titles(p), ['countdown', 'b', 'event', 'a'])
  })

  it('refuses a list missing an id, repeating one or naming another page’s slot, with 422 naming order', async () => {
    const p = await page()
    const other = await page()
    const [a, b, c] = await fill(p, ['a', 'b', 'c'])
    const [foreign] = await fill(other, ['x'])
    for (const order of [
      [a.id, b.id],
      [a.id, b.id, c.id, c.id],
      [a.id, b.id, c.id, foreign.id],
      [a.id, a.id, b.id],
    ]) {
      const res = await t.request('PUT', `${p.base}/order`, { token: p.token, body: { order } })
      assert.equal(res.status, 422, JSON.stringify(order))
      assert.deepEqual(Object.keys(res.body.errors), ['order'])
    }
    assert.equal((await t.request('PUT', `${p.base}/order`, { token: p.token, body: { order: [] } })).status, 422)
    assert.deepEqual(await titles(p), ['a', 'b', 'c'])
  })
})

describe(`GET /profiles/{profileKey}/slots/{slot} (${STORE})`, () => {
  it('answers 401 without a token and 404 for another account’s page', async () => {
    await assertGuarded('GET', (p) => `${p.base}/1`)
  })

  it('reads one slot', async () => {
    const p = await page()
    const [a] = await fill(p, ['a'])
    const res = await t.request('GET', `${p.base}/${a.id}`, { token: p.token })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.data.title, 'a')
  })

  it('answers 404 for an unknown slot and for a slot of another page of the same account', async () => {
    const p = await page()
    const second = await makeProfile(t, p.user)
    const [theirs] = await fill({ ...p, profile: second, base: `/v1/profiles/${second.id}/slots` }, ['x'])
    for (const id of [999999, theirs.id]) {
      const res = await t.request('GET', `${p.base}/${id}`, { token: p.token })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
    }
  })
})

describe(`PATCH /profiles/{profileKey}/slots/{slot} (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('PATCH', (p) => `${p.base}/1`, { data: {} })
  })

  it('merges data at the top level, keeping the id and the position', async () => {
    const p = await page()
    const [, b] = await fill(p, ['a', 'b'])
    await t.request('PATCH', `${p.base}/${b.id}`, { token: p.token, body: { data: { description: '<p>Hi</p>' } } })
    const res = await t.request('PATCH', `${p.base}/${b.id}`, { token: p.token, body: { data: { title: 'B' } } })
    assert.equal(res.status, 200)
    assert.deepEqual([res.body.data.id, res.body.data.order, res.body.data.data.title, res.body.data.data.description], [b.id, 1, 'B', '<p>Hi</p>'])
  })

  it('refuses a change of type with 422 naming type, and accepts the same type', async () => {
    const p = await page()
    const [a] = await fill(p, ['a'])
    const res = await t.request('PATCH', `${p.base}/${a.id}`, { token: p.token, body: { type: 'button', data: { title: 'x' } } })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['type'])
    assert.equal((await t.request('PATCH', `${p.base}/${a.id}`, { token: p.token, body: { type: 'text', data: { title: 'x' } } })).status, 200)
  })

  it('refuses unknown and computed keys, naming each under data', async () => {
    const p = await page()
    const res = await t.request('POST', p.base, { token: p.token, body: { type: 'youtube', data: { link: 'https://youtu.be/dQw4w9WgXcQ' } } })
    const patch = await t.request('PATCH', `${p.base}/${res.body.data.id}`, { token: p.token, body: { data: { videoId: 'x', autoplay: true } } })
    assert.equal(patch.status, 422)
    assert.deepEqual(Object.keys(patch.body.errors).sort(), ['data.autoplay', 'data.videoId'])
  })

  it('refuses event and legacy slots with 409 read_only', async () => {
    const p = await page()
    const e = await event(p)
    const legacy = await insertRawSlot(t, p.profile, 'countdown', {})
    for (const id of [e.id, legacy.id]) {
      const res = await t.request('PATCH', `${p.base}/${id}`, { token: p.token, body: { data: {} } })
      assert.equal(res.status, 409)
      assert.equal(res.body.code, 'read_only')
    }
  })

  it('answers 404 for an unknown slot', async () => {
    const p = await page()
    assert.equal((await t.request('PATCH', `${p.base}/999999`, { token: p.token, body: { data: {} } })).status, 404)
  })
})

describe(`DELETE /profiles/{profileKey}/slots/{slot} (${STORE})`, () => {
  it('answers 401, 403 for a read-only token and 404 for another account’s page', async () => {
    await assertGuarded('DELETE', (p) => `${p.base}/1`)
  })

  it('deletes with 204 and closes the gap', async () => {
    const p = await page()
    const [, b] = await fill(p, ['a', 'b', 'c'])
    const res = await t.request('DELETE', `${p.base}/${b.id}`, { token: p.token })
    assert.equal(res.status, 204)
    assert.equal(res.text, '')
    assert.deepEqual(await titles(p), ['a', 'c'])
    assert.equal((await t.request('DELETE', `${p.base}/${b.id}`, { token: p.token })).status, 404)
  })

  it('deletes legacy and event slots', async () => {
    const p = await page()
    const legacy = await insertRawSlot(t, p.profile, 'countdown', {})
    const e = await event(p)
    assert.equal((await t.request('DELETE', `${p.base}/${legacy.id}`, { token: p.token })).status, 204)
    assert.equal((await t.request('DELETE', `${p.base}/${e.id}`, { token: p.token })).status, 204)
  })
})

describe(`GET /profiles/{profileKey}?include=slots (${STORE})`, () => {
  it('embeds every slot in page order with include=slots', async () => {
    const p = await page()
    await fill(p, ['a', 'b'])
    const res = await t.request('GET', `/v1/profiles/${p.profile.id}?include=slots`, { token: p.token })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.slots.map((s: any) => s.data.title),
      ['a', 'b'],
    )
    const list = await t.request('GET', p.base, { token: p.token })
    assert.deepEqual(res.body.data.slots, list.body.data)
  })

  it('leaves slots out without include, and accepts a comma list', async () => {
    const p = await page()
    assert.equal('slots' in (await t.request('GET', `/v1/profiles/${p.profile.id}`, { token: p.token })).body.data, false)
    const res = await t.request('GET', `/v1/profiles/${p.profile.id}?include=slots,%20slots`, { token: p.token })
    assert.deepEqual(res.body.data.slots, [])
  })

  it('refuses an unknown include value with 422 naming include', async () => {
    const p = await page()
    const res = await t.request('GET', `/v1/profiles/${p.profile.id}?include=slots,themes`, { token: p.token })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['include'])
    assert.match(res.body.errors.include[0], /themes/)
  })

  it('answers 401 without a token and 404 for another account’s page', async () => {
    const p = await page()
    assert.equal((await t.request('GET', `/v1/profiles/${p.profile.id}?include=slots`)).status, 401)
    const stranger = await makeUser(t)
    const token = await makeToken(t, stranger)
    assert.equal((await t.request('GET', `/v1/profiles/${p.profile.id}?include=slots`, { token })).status, 404)
  })
})
