import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type CamelCased, camelRow } from '../../src/store/camel-row.ts'

describe('camelRow', () => {
  it('renames every column to camelCase and keeps each value as the driver returned it', () => {
    const row = { id: 7, user_id: 3, bg_image: null, slots_revision: 2, language_code: 'en' }
    assert.deepEqual(camelRow(row), { id: 7, userId: 3, bgImage: null, slotsRevision: 2, languageCode: 'en' })
  })

  it('replaces the values of converted columns and leaves the rest as they are', () => {
    const row = { id: 1, socials: '[{"link":"a.example","order":0}]', is_main: 1, created_at: '2026-01-01T00:00:00.000Z' }
    const record = camelRow(row, { socials: JSON.parse(row.socials) as unknown[], isMain: row.is_main === 1 })
    assert.deepEqual(record, { id: 1, socials: [{ link: 'a.example', order: 0 }], isMain: true, createdAt: '2026-01-01T00:00:00.000Z' })
    assert.deepEqual(Object.keys(record), ['id', 'socials', 'isMain', 'createdAt'])
  })

  it('gives a record the columns of the row it maps, and no others', () => {
    assert.deepEqual(camelRow({ data: 'x', expires_at: 'y' }), { data: 'x', expiresAt: 'y' })
    assert.deepEqual(camelRow({}), {})
  })

  it('renames at the type level exactly as at run time', () => {
    const record: CamelCased<{ token_hash: string; last_used_at: string | null; id: number }> = camelRow({ token_hash: 'h', last_used_at: null, id: 1 })
    assert.equal(record.tokenHash, 'h')
    assert.equal(record.lastUsedAt, null)
  })
})
