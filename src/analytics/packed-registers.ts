/**
 * Folding packed dense HyperLogLog registers (six bits each, four to three bytes) into unpacked
 * ones, keeping the larger rank of each register.
 *
 * A year of account analytics folds some 1,200 month sketches (20 million registers). Unpacking
 * six-bit fields one at a time is the cost of that fold in JavaScript; WebAssembly's 128-bit
 * SIMD unpacks and compares sixteen registers per step (docs/decisions/hyperloglog-simd.md).
 * A runtime without WebAssembly (node --jitless) gets the JavaScript loop, which also serves
 * as the reference the tests compare against.
 */

/** Precision 14: registers per sketch, and the packed bytes that hold them. */
export const PRECISION = 14
export const REGISTERS = 1 << PRECISION
export const PACKED_BYTES = (REGISTERS * 6) / 8

/** Where the module keeps the registers and the packed body it folds in (one 64 KiB page). */
const REGS_AT = 0
const BODY_AT = REGISTERS

/** Folds `bodies[i][offset..]` (PACKED_BYTES each) into `regs`, register by register. */
export function maxPackedIntoScalar(regs: Uint8Array, bodies: Uint8Array[], offset: number): void {
  for (const bytes of bodies) {
    for (let i = 0, o = offset; i < REGISTERS; i += 4, o += 3) {
      const x = bytes[o]!
      const y = bytes[o + 1]!
      const z = bytes[o + 2]!
      const a = x >>> 2
      const b = ((x & 3) << 4) | (y >>> 4)
      const c = ((y & 15) << 2) | (z >>> 6)
      const d = z & 63
      if (a > regs[i]!) regs[i] = a
      if (b > regs[i + 1]!) regs[i + 1] = b
      if (c > regs[i + 2]!) regs[i + 2] = c
      if (d > regs[i + 3]!) regs[i + 3] = d
    }
  }
}

// The few WebAssembly encodings the module needs (core and SIMD opcodes from the spec).
const leb = (n: number): number[] => {
  const out: number[] = []
  do {
    let byte = n & 127
    n >>>= 7
    if (n) byte |= 128
    out.push(byte)
  } while (n)
  return out
}
const simd = (op: number) => [0xfd, ...leb(op)]
const op = {
  loop: 0x03,
  end: 0x0b,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32LtU: 0x49,
  i32Add: 0x6a,
  v128Load: simd(0x00),
  v128Store: simd(0x0b),
  v128Const: simd(0x0c),
  i8x16Swizzle: simd(0x0e),
  i8x16NarrowI16x8U: simd(0x66),
  i8x16MaxU: simd(0x79),
  i16x8ShrU: simd(0x8d),
  i16x8Mul: simd(0x95),
}
const I32 = 0x7f
const V128 = 0x7b
const MEMARG = [0, 0]

/**
 * Twelve packed bytes hold sixteen registers; each group of three bytes x y z holds four:
 * a = x >> 2, b = (x & 3) << 4 | y >> 4, c = (y & 15) << 2 | z >> 6, d = z & 63.
 * Each register lies within one 16-bit big-endian pair of bytes (x y for a and b, y z for c and
 * d), so a swizzle builds the pairs as 16-bit lanes, a multiply shifts each register's bits to
 * the top of its lane (times 1, 64, 16, 1024, wrapping at 16 bits), and a shift right by 10
 * leaves the six bits. Lane bytes are little-endian: the low byte's index comes first.
 */
const PAIRS_LOW = [1, 0, 1, 0, 2, 1, 2, 1, 4, 3, 4, 3, 5, 4, 5, 4]
const PAIRS_HIGH = PAIRS_LOW.map((i) => i + 6)
const SHIFTS = [1, 64, 16, 1024, 1, 64, 16, 1024].flatMap((x) => [x & 255, x >>> 8])

// biome-ignore format: the WebAssembly instructions are grouped one per line by what they do
function foldModule(): Uint8Array<ArrayBuffer> {
  const [src, dst, dstEnd, packed] = [0, 1, 2, 3]
  const eightRegisters = (pairs: number[]) => [
    op.localGet, packed, ...op.v128Const, ...pairs, ...op.i8x16Swizzle,
    ...op.v128Const, ...SHIFTS, ...op.i16x8Mul,
    op.i32Const, 10, ...op.i16x8ShrU,
  ]
  // fold(src, dst): for each 16 registers at dst, 12 packed bytes at src; the last load reads
  // 4 bytes past the body, which stay inside the page.
  const body = [
    2, 1, I32, 1, V128,
    op.localGet, dst, op.i32Const, ...leb(REGISTERS), op.i32Add, op.localSet, dstEnd,
    op.loop, 0x40,
    op.localGet, dst,
    op.localGet, src, ...op.v128Load, ...MEMARG, op.localSet, packed,
    ...eightRegisters(PAIRS_LOW), ...eightRegisters(PAIRS_HIGH), ...op.i8x16NarrowI16x8U,
    op.localGet, dst, ...op.v128Load, ...MEMARG, ...op.i8x16MaxU,
    ...op.v128Store, ...MEMARG,
    op.localGet, src, op.i32Const, 12, op.i32Add, op.localSet, src,
    op.localGet, dst, op.i32Const, 16, op.i32Add, op.localTee, dst,
    op.localGet, dstEnd, op.i32LtU, op.brIf, 0,
    op.end,
    op.end,
  ]
  const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content]
  const name = (s: string) => [s.length, ...Buffer.from(s, 'latin1')]
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 2, I32, I32, 0]), // type: (i32, i32) -> ()
    ...section(3, [1, 0]), // one function of that type
    ...section(5, [1, 0, 1]), // one memory, one page
    ...section(7, [2, ...name('memory'), 2, 0, ...name('fold'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ])
}

type Folder = (regs: Uint8Array, bodies: Uint8Array[], offset: number) => void

function simdFolder(): Folder | undefined {
  if (typeof WebAssembly === 'undefined') return undefined
  const bytes = foldModule()
  if (!WebAssembly.validate(bytes)) return undefined
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes))
  const memory = new Uint8Array((exports.memory as WebAssembly.Memory).buffer)
  const fold = exports.fold as (src: number, dst: number) => void
  return (regs, bodies, offset) => {
    memory.set(regs, REGS_AT)
    for (const bytes of bodies) {
      memory.set(bytes.subarray(offset, offset + PACKED_BYTES), BODY_AT)
      fold(BODY_AT, REGS_AT)
    }
    regs.set(memory.subarray(REGS_AT, REGS_AT + REGISTERS))
  }
}

/** The SIMD folder where the runtime has one; tests compare it with the scalar one. */
export const maxPackedIntoSimd: Folder | undefined = simdFolder()

/**
 * Raises each of the 16,384 registers in `regs` to the largest rank any of the packed bodies
 * holds for it; each body is PACKED_BYTES long from `offset` (1 skips a format byte).
 */
export const maxPackedInto: Folder = maxPackedIntoSimd ?? maxPackedIntoScalar
