import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { medianInterval } from '../../bench/lib.ts'

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => n - i) // descending: the input order must not matter

describe('the confidence interval of a benchmark median', () => {
  it('is bounded by the order statistics the binomial distribution gives', () => {
    // P(B(30, ½) ≤ 9) = 2.1 % and P(B(40, ½) ≤ 13) = 1.9 %; one more rank would pass 2.5 %.
    assert.deepEqual(medianInterval(oneTo(30)), [10, 21])
    assert.deepEqual(medianInterval(oneTo(40)), [14, 27])
    assert.deepEqual(medianInterval(oneTo(24)), [7, 18])
  })

  it('is the whole range when there are too few values for 95 %', () => {
    assert.deepEqual(medianInterval([3, 1, 2, 5, 4]), [1, 5])
  })

  it('holds the true median in 95 % of samples', () => {
    // mulberry32 with a fixed seed: the same samples every run.
    let state = 42
    const random = () => {
      state = (state + 0x6d2b79f5) | 0
      let x = Math.imul(state ^ (state >>> 15), 1 | state)
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
      return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
    }
    let covered = 0
    const trials = 10_000
    for (let t = 0; t < trials; t++) {
      // Skewed values (median ln 2 of an exponential distribution), as throughput ratios are.
      const [low, high] = medianInterval(Array.from({ length: 30 }, () => -Math.log(1 - random())))
      if (low <= Math.LN2 && Math.LN2 <= high) covered++
    }
    // Exactly 1 - 2 × 2.1 % = 95.7 % for 30 values; 10,000 samples land within 0.4 % of it.
    assert.ok(covered / trials >= 0.95, `covered ${covered} of ${trials}`)
    assert.ok(covered / trials <= 0.965, `covered ${covered} of ${trials}: wider than it needs to be`)
  })
})
