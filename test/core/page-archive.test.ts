import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { zipSync } from 'fflate'
import { AppError } from '../../src/kernel/errors.ts'
import { ARCHIVE_LIMITS, readArchive, writeArchive } from '../../src/transfer/page-archive.ts'

const refusal = (fn: () => unknown): AppError => {
  try {
    fn()
  } catch (err) {
    assert.ok(err instanceof AppError, String(err))
    return err
  }
  assert.fail('expected a refusal')
}

describe('page archives', () => {
  it('reads back what it writes, entry by entry', () => {
    const image = randomBytes(5000)
    const entries = readArchive(
      writeArchive([
        { name: 'page.json', data: Buffer.from('{"a":1}') },
        { name: 'files/1.png', data: image },
      ]),
    )
    assert.deepEqual([...entries.keys()], ['page.json', 'files/1.png'])
    assert.deepEqual(Buffer.from(entries.get('files/1.png')!), image)
  })

  it('writes the same bytes for the same entries (no clock inside)', () => {
    const entries = [{ name: 'page.json', data: Buffer.from('{}') }]
    assert.deepEqual(writeArchive(entries), writeArchive(entries))
  })

  it('caps the total inflated across entries, even when each is under the entry cap and ratio', () => {
    const limits = { ...ARCHIVE_LIMITS, maxTotalBytes: 200_000, maxEntryBytes: 150_000 }
    const zip = zipSync({ a: randomBytes(100_000), b: randomBytes(100_000), c: randomBytes(100_000) }, { level: 0 })
    const err = refusal(() => readArchive(zip, limits))
    assert.equal(err.code, 'payload_too_large')
    assert.match(err.message, /inflates past 200000 bytes/)
  })

  it('caps one entry by its actual inflated size, whatever its header declares', () => {
    const limits = { ...ARCHIVE_LIMITS, maxEntryBytes: 50_000 }
    const err = refusal(() => readArchive(zipSync({ big: randomBytes(80_000) }, { level: 0 }), limits))
    assert.equal(err.code, 'payload_too_large')
    assert.match(err.message, /"big"/)
  })

  it('refuses a backslash or a NUL in a name, and ./ segments', () => {
    for (const name of ['files\\..\\x', 'files/./x', 'C:/x']) {
      assert.equal(refusal(() => readArchive(zipSync({ [name]: Buffer.from('x') }))).code, 'validation_failed', name)
    }
  })

  it('refuses a damaged archive as a 422, not a fault', () => {
    const zip = Buffer.from(zipSync({ 'page.json': randomBytes(4000) }, { level: 6 }))
    zip.fill(0xff, 40, 200)
    const err = refusal(() => readArchive(zip))
    assert.equal(err.status, 422)
  })
})
