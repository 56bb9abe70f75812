import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { PACKED_BYTES, REGISTERS, maxPackedInto, maxPackedIntoScalar, maxPackedIntoSimd } from '../../src/analytics/packed-registers.ts'

const registers = (fill: (i: number) => number) => Uint8Array.from({ length: REGISTERS }, (_, i) => fill(i))

/** Packs six-bit registers four to three bytes, after `offset` bytes of something else. */
function pack(regs: Uint8Array, offset = 0): Uint8Array {
  const out = new Uint8Array(offset + PACKED_BYTES)
  for (let i = 0, o = offset; i < REGISTERS; i += 4, o += 3) {
    out[o] = (regs[i]! << 2) | (regs[i + 1]! >>> 4)
    out[o + 1] = ((regs[i + 1]! & 15) << 4) | (regs[i + 2]! >>> 2)
    out[o + 2] = ((regs[i + 2]! & 3) << 6) | regs[i + 3]!
  }
  return out
}

describe('folding packed registers', () => {
  it('runs on WebAssembly SIMD in this runtime', () => {
    assert.ok(maxPackedIntoSimd, 'Node 20 has WebAssembly SIMD; without it the fold falls back to the scalar loop')
    assert.equal(maxPackedInto, maxPackedIntoSimd)
  })

  it('takes each register from its own six bits, in every position of a three-byte group', () => {
    // Register i holds i mod 64: every value, in each of the four positions (a, b, c, d).
    const ranks = registers((i) => (i + (i >>> 6)) & 63)
    for (const fold of [maxPackedIntoScalar, maxPackedIntoSimd!]) {
      const regs = new Uint8Array(REGISTERS)
      fold(regs, [pack(ranks, 1)], 1)
      assert.deepEqual(regs, ranks)
    }
  })

  it('keeps the larger rank of each register, and leaves higher registers alone', () => {
    const low = registers(() => 1)
    const high = registers(() => 40)
    const regs = registers((i) => (i % 2 ? 63 : 0))
    maxPackedInto(regs, [pack(low), pack(high)], 0)
    assert.deepEqual(
      regs,
      registers((i) => (i % 2 ? 63 : 40)),
    )
  })

  it('gives the same registers with SIMD as with the scalar loop (property)', () => {
    const body = fc.constant(null).map(() => randomBytes(1 + PACKED_BYTES) as Uint8Array)
    fc.assert(
      fc.property(fc.array(body, { minLength: 0, maxLength: 5 }), fc.nat({ max: 63 }), (bodies, start) => {
        const scalar = registers((i) => (i * 7 + start) & 63)
        const simd = Uint8Array.from(scalar)
        maxPackedIntoScalar(scalar, bodies, 1)
        maxPackedIntoSimd!(simd, bodies, 1)
        assert.deepEqual(simd, scalar)
      }),
      { numRuns: 50 },
    )
  })
})
