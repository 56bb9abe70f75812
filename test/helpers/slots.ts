import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before } from 'node:test'
import fc from 'fast-check'
import { checkSlotData } from '../../src/slots/slot-data.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import { h } from '../../src/slots/shared/html.ts'
import { wireSchema } from '../../src/slots/shared/schema-parts.ts'
import type { RenderContext, SlotType } from '../../src/slots/types.ts'
import type { Db } from '../../src/store/db.ts'
import { filesRepository } from '../../src/store/files.ts'
import type { StoredProfile } from '../../src/store/profiles.ts'
import { slotsRepository } from '../../src/store/slots.ts'
import type { User } from '../../src/store/users.ts'
import { type ApiResponse, makeAccount, makeProfile, startApp, type TestApp } from './app.ts'

/** A file row owned by `userId`, as POST /files would leave it; answers its path. */
export async function ownFile(t: TestApp, userId: number, path = `u${userId}/${randomBytes(6).toString('hex')}.png`): Promise<string> {
  await filesRepository.insert(t.ctx.db, { userId, path, mime: 'image/png', size: 100, width: 10, height: 10 })
  return path
}

/** A slot written straight to the store, past every rule: legacy types, event and form slots. */
export async function insertRawSlot(t: TestApp, profile: StoredProfile, type: string, data: unknown) {
  const count = await slotsRepository.countByProfile(t.ctx.db, profile.id)
  const [slot] = await slotsRepository.insertMany(t.ctx.db, profile.id, [{ type, data, position: count }])
  return slot
}

/** Primary button slots written straight to the store, one per title in order, linking to example.com/<position>. */
export async function insertButtonSlots(db: Db, profileId: number, titles: string[]) {
  const rows = titles.map((title, position) => ({
    type: 'button',
    position,
    data: { title, subtitle: '', link: `https://example.com/${position}`, style: 'primary', customize: null },
  }))
  return slotsRepository.insertMany(db, profileId, rows)
}

/** The validator alone (defaults, schema, rules), keys under `data`. */
export const check = (type: SlotType, data: unknown) => checkSlotData(slotTypes[type], data, 'data')

/** The keys a 422 of the validator names, or fails when the data passed. */
export function refusedKeys(type: SlotType, data: unknown): string[] {
  const result = check(type, data)
  assert.equal(result.ok, false, `expected ${JSON.stringify(data)} to be refused`)
  return result.ok ? [] : Object.keys(result.errors)
}

/** Data accepted by the validator, or fails with the errors it named. */
export function accepted(type: SlotType, data: unknown): Record<string, unknown> {
  const result = check(type, data)
  if (!result.ok) assert.fail(`expected ${JSON.stringify(data)} to pass, got ${JSON.stringify(result.errors)}`)
  return result.data
}

export const PROPERTY_RUNS = 40

const FIELD_NAME = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,14}$/)
const ANY_VALUE = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))

type Mutation = { data: Record<string, unknown>; keys: string[] }

/**
 * Invalid variants of valid data, derived from the type's wire schema: unknown keys, computed
 * keys, out-of-bound values, wrong types, missing required fields. Each comes with the error keys
 * (under `data.`) a refusal must name.
 */
export function invalidVariants(type: SlotType, valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Mutation> {
  const def = slotTypes[type]
  const schema = wireSchema(def.schema) as any
  const properties: Record<string, any> = schema.properties ?? {}
  const required: string[] = schema.required ?? []
  const computed = wireSchema(def.computed) as any
  const names = Object.keys(properties)

  const unknownKeys = fc
    .tuple(
      valid,
      fc.uniqueArray(
        FIELD_NAME.filter((k) => !names.includes(k)),
        { minLength: 1, maxLength: 3 },
      ),
      ANY_VALUE,
    )
    .map(([data, keys, value]) => ({ data: { ...data, ...Object.fromEntries(keys.map((k) => [k, value])) }, keys: keys.map((k) => `data.${k}`) }))

  const computedTop = Object.keys(computed.properties ?? {}).filter((k) => computed.properties[k].type !== 'array' || !names.includes(k))
  const computedNested = Object.keys(computed.properties ?? {}).filter((k) => computed.properties[k].type === 'array' && names.includes(k))
  const computedKeys: Array<fc.Arbitrary<Mutation>> = []
  if (computedTop.length) {
    computedKeys.push(
      fc.tuple(valid, fc.subarray(computedTop, { minLength: 1 })).map(([data, keys]) => ({
        data: { ...data, ...Object.fromEntries(keys.map((k) => [k, 'x'])) },
        keys: keys.map((k) => `data.${k}`),
      })),
    )
  }
  for (const list of computedNested) {
    const leafs = Object.keys(computed.properties[list].items.properties)
    computedKeys.push(
      fc.tuple(valid, fc.subarray(leafs, { minLength: 1 })).map(([data, keys]) => {
        const items = [...(data[list] as Array<Record<string, unknown>>)]
        items[0] = { ...items[0], ...Object.fromEntries(keys.map((k) => [k, 'x'])) }
        return { data: { ...data, [list]: items }, keys: keys.map((k) => `data.${list}.0.${k}`) }
      }),
    )
  }

  const perField: Array<fc.Arbitrary<Mutation>> = names.map((name) => {
    const p = properties[name]
    const options: Array<(data: Record<string, unknown>) => unknown> = []
    if (p.type === 'string') {
      options.push(() => 42)
      if (p.maxLength !== undefined) options.push(() => 'x'.repeat(p.maxLength + 1))
      if (p.enum) options.push(() => 'not-one-of-them')
    } else if (p.type === 'integer') {
      options.push(() => 'seven')
      options.push(() => 1.5)
      if (p.minimum !== undefined) options.push(() => p.minimum - 1)
      if (p.maximum !== undefined) options.push(() => p.maximum + 1)
    } else if (p.type === 'boolean') {
      options.push(() => 'yes')
    } else if (p.type === 'array') {
      options.push(() => 'not a list')
      if (p.minItems) options.push(() => [])
      if (p.maxItems !== undefined) options.push((data) => Array.from({ length: p.maxItems + 1 }, () => (data[name] as unknown[])[0]))
    } else if (p.anyOf) {
      options.push(() => 42)
    }
    if (required.includes(name)) options.push(() => undefined)
    return fc.tuple(valid, fc.integer({ min: 0, max: options.length - 1 })).map(([data, i]) => {
      const value = options[i](data)
      const next = { ...data }
      if (value === undefined) delete next[name]
      else next[name] = value
      return { data: next, keys: [`data.${name}`] }
    })
  })

  return fc.oneof(unknownKeys, ...computedKeys, ...perField)
}

/** Property: every invalid variant is refused by the validator, naming each key it must. */
export function assertInvalidRefused(type: SlotType, valid: fc.Arbitrary<Record<string, unknown>>, numRuns = PROPERTY_RUNS) {
  fc.assert(
    fc.property(invalidVariants(type, valid), ({ data, keys }) => {
      const result = check(type, data)
      if (result.ok) return false
      for (const key of keys) assert.ok(key in result.errors, `expected ${key} in ${JSON.stringify(result.errors)} for ${JSON.stringify(data)}`)
      return true
    }),
    { numRuns },
  )
}

/** Property: valid data is accepted and comes back as written plus defaults. */
export function assertValidAccepted(
  type: SlotType,
  valid: fc.Arbitrary<Record<string, unknown>>,
  expected: (data: Record<string, unknown>) => Record<string, unknown>,
  numRuns = PROPERTY_RUNS,
) {
  fc.assert(
    fc.property(valid, (data) => {
      assert.deepEqual(accepted(type, data), expected(data))
    }),
    { numRuns },
  )
}

/** Plain text that every plain-text and rich-text rule keeps as written. */
export const plainWords = (maxLength: number, minLength = 0) =>
  fc
    .stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.!?'-]*$/)
    .map((s) => s.replace(/\s+/g, ' ').trim().slice(0, maxLength).trim())
    .filter((s) => s.length >= minLength && s.length <= maxLength)

/** Generated button-styled data as a writer sends it: `customize` only with style custom, where it is required. */
export function customizeOnlyWhenCustom<D extends { style?: string; customize?: object }>(d: D): Record<string, unknown> {
  const data: Record<string, unknown> = { ...d }
  if (d.style !== 'custom') delete data.customize
  else data.customize ??= {}
  return data
}

/** https links that normalise to themselves. */
export const webLink = fc
  .tuple(fc.constantFrom('example.com', 'shop.example.org', 'jane.example.net'), fc.stringMatching(/^[a-z0-9-]{0,12}$/))
  .map(([host, path]) => `https://${host}/${path}`)

/**
 * One app per test file for a slot type's suite: registers before/after on the enclosing describe
 * and answers an object whose fields are read inside tests, once the app is up.
 */
export function useSlotApi(type: SlotType): SlotApi {
  let ready: { t: TestApp; user: User; token: string; profile: StoredProfile; base: string } | undefined
  const get = () => {
    if (!ready) throw new Error('useSlotApi: read its fields inside a test, after before() has run')
    return ready
  }
  before(async () => {
    const t = await startApp()
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    ready = { t, user, token, profile, base: `/v1/profiles/${profile.id}/slots` }
  })
  after(() => ready?.t.close())
  return {
    type,
    get t() {
      return get().t
    },
    get user() {
      return get().user
    },
    get token() {
      return get().token
    },
    get profile() {
      return get().profile
    },
    get base() {
      return get().base
    },
    create: (data) => get().t.request('POST', get().base, { token: get().token, body: { type, data } }),
  }
}

export interface SlotApi {
  readonly type: SlotType
  readonly t: TestApp
  /** The account owning `profile`, with a read/write `token`. */
  readonly user: User
  readonly token: string
  readonly profile: StoredProfile
  /** `/v1/profiles/{id}/slots` of `profile`. */
  readonly base: string
  /** POST `{type, data}` to `base` with `token`. */
  create(data: unknown): Promise<ApiResponse>
}

/** The context a page gives `html()`, with click and file URLs easy to match and the slot's record, if any. */
export const renderContext = (record?: unknown): RenderContext => ({
  h,
  clickHref: (id: number, i: number) => `/go/${id}/${i}`,
  fileUrl: (p: string) => `/static/${p}`,
  record,
})

/**
 * Valid samples created for real and read back as written plus defaults. `prepare` turns a sample
 * into what is sent (own uploads for its paths); `alsoCheck` adds assertions on the 201.
 */
export async function assertRoundTripOverHttp(
  api: SlotApi,
  valid: fc.Arbitrary<Record<string, any>>,
  withDefaults: (data: Record<string, any>) => Record<string, unknown>,
  options: {
    samples?: number
    prepare?: (data: Record<string, any>) => Promise<Record<string, unknown>>
    alsoCheck?: (created: ApiResponse, sent: Record<string, any>) => void
  } = {},
) {
  for (const data of fc.sample(valid, options.samples ?? 3)) {
    const sent = options.prepare ? await options.prepare(data) : data
    const res = await api.create(sent)
    assert.equal(res.status, 201, JSON.stringify(res.body))
    assert.deepEqual((await api.t.request('GET', `${api.base}/${res.body.data.id}`, { token: api.token })).body.data.data, withDefaults(sent))
    options.alsoCheck?.(res, sent)
  }
}

/** A few invalid variants sent for real: always a 422 naming the keys, never a 5xx. */
export async function assertInvalidOverHttp(api: SlotApi, valid: fc.Arbitrary<Record<string, unknown>>, samples = 4) {
  for (const { data, keys } of fc.sample(invalidVariants(api.type, valid), samples)) {
    const res = await api.create(data)
    assert.equal(res.status, 422, `${JSON.stringify(data)} → ${res.status} ${res.text}`)
    for (const key of keys) assert.ok(key in res.body.errors, `expected ${key} in ${JSON.stringify(res.body.errors)}`)
  }
}
