import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { HyperLogLog } from '../../src/analytics/hll.ts'

const digest = (s: string) => createHash('sha256').update(s).digest()

function sketchOf(items: Iterable<string>): HyperLogLog {
  const h = new HyperLogLog()
  for (const item of items) h.addDigest(digest(item))
  return h
}

const range = (from: number, to: number, prefix = 'v') => Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`)
const within = (estimate: number, truth: number, fraction: number) =>
  assert.ok(Math.abs(estimate - truth) <= truth * fraction, `estimate ${estimate} is not within ${fraction * 100} % of ${truth}`)

describe('HyperLogLog', () => {
  it('counts an empty sketch as zero and small sets exactly', () => {
    assert.equal(new HyperLogLog().estimate(), 0)
    assert.equal(sketchOf(range(0, 100)).estimate(), 100)
  })

  it('ignores repeats of the same item', () => {
    const h = sketchOf([...range(0, 500), ...range(0, 500), ...range(0, 500)])
    within(h.estimate(), 500, 0.01)
  })

  it('estimates 10,000 and 1,000,000 distinct items within 2 %', () => {
    within(sketchOf(range(0, 10_000)).estimate(), 10_000, 0.02)
    const big = new HyperLogLog()
    // Plain counter bits through a mixer stand in for digests here: a million SHA-256 runs would slow the suite.
    for (let i = 0; i < 1_000_000; i++) big.addHash(mix(i), mix(i ^ 0x5bd1e995))
    within(big.estimate(), 1_000_000, 0.02)
  })

  it('merges into the union of both sets, counting shared items once', () => {
    const a = sketchOf(range(0, 6000))
    const b = sketchOf(range(4000, 10_000))
    a.merge(b)
    within(a.estimate(), 10_000, 0.02)
  })

  it('survives serialisation in both the sparse and the dense form', () => {
    for (const n of [0, 1, 50, 3000, 20_000]) {
      const h = sketchOf(range(0, n))
      const bytes = h.serialise()
      assert.equal(HyperLogLog.from(bytes).estimate(), h.estimate(), `n = ${n}`)
      assert.equal(HyperLogLog.estimateOf(bytes), h.estimate(), `n = ${n}`)
      assert.deepEqual(HyperLogLog.from(bytes).serialise(), bytes)
    }
    assert.equal(sketchOf(range(0, 50)).serialise()[0], 1, 'a small sketch stays sparse')
    assert.equal(sketchOf(range(0, 20_000)).serialise().length, 1 + 12_288, 'a large one packs six bits per register')
  })

  it('merges serialised sketches the same way as live ones', () => {
    const parts = [range(0, 3000, 'a'), range(0, 9000, 'b'), range(0, 10, 'c')]
    const live = new HyperLogLog()
    const fromBytes = HyperLogLog.dense()
    for (const p of parts) {
      const s = sketchOf(p)
      live.merge(s)
      fromBytes.mergeBytes(s.serialise())
    }
    assert.equal(fromBytes.estimate(), live.estimate())
  })

  it('merges dense sketches, from bytes (twice) or live, into exactly the sketch of all their items (property)', () => {
    // Dense from 5,000 hashes on; the extreme hashes give the top ranks (up to 51) and rank 1.
    const hashes = fc.array(fc.tuple(fc.nat({ max: 0xffffffff }), fc.oneof(fc.nat({ max: 0xffffffff }), fc.constant(0))), { minLength: 5000, maxLength: 6000 })
    fc.assert(
      fc.property(hashes, hashes, fc.nat({ max: (1 << 14) - 1 }), (xs, ys, index) => {
        const extremes: Array<[number, number]> = [
          [(index << 18) >>> 0, 0],
          [((index << 18) | (1 << 17)) >>> 0, 1],
        ]
        const all = new HyperLogLog()
        const a = new HyperLogLog()
        const b = new HyperLogLog()
        for (const [hi, lo] of [...xs, ...extremes]) {
          a.addHash(hi, lo)
          all.addHash(hi, lo)
        }
        for (const [hi, lo] of ys) {
          b.addHash(hi, lo)
          all.addHash(hi, lo)
        }
        const aBytes = a.serialise()
        const bBytes = b.serialise()
        const fromBytes = HyperLogLog.dense()
        fromBytes.mergeBytes(aBytes)
        fromBytes.mergeBytes(bBytes)
        // The same bytes again, into a union that starts from them.
        const again = HyperLogLog.from(bBytes)
        again.mergeBytes(aBytes)
        const live = HyperLogLog.dense()
        live.merge(b)
        live.merge(a)
        for (const union of [fromBytes, again, live]) assert.deepEqual(union.serialise(), all.serialise())
      }),
      { numRuns: 25 },
    )
  })

  it('refuses bytes in an unknown format', () => {
    assert.throws(() => HyperLogLog.from(Buffer.from([9, 1, 2, 3])), /unknown HyperLogLog format/)
  })

  it('is order-independent and idempotent when merging (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 300 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 300 }), (xs, ys) => {
        const a = new HyperLogLog()
        const b = new HyperLogLog()
        for (const [hi, lo] of xs) a.addHash(hi, lo)
        for (const [hi, lo] of ys) b.addHash(hi, lo)
        const ab = HyperLogLog.from(a.serialise())
        ab.merge(b)
        const ba = HyperLogLog.from(b.serialise())
        ba.merge(a)
        ba.merge(a)
        assert.deepEqual(ab.serialise(), ba.serialise())
      }),
    )
  })
})

/** A 32-bit integer mixer (murmur3 finaliser): spreads counter values over the hash space. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}
