import { Transform, type TransformCallback } from 'node:stream'

/** Passes bytes through until more than `max` have gone by, then fails with `tooLarge()`. */
export class ByteLimit extends Transform {
  seen = 0
  constructor(
    private readonly max: number,
    private readonly tooLarge: (max: number) => Error,
  ) {
    super()
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.seen += chunk.length
    if (this.seen > this.max) done(this.tooLarge(this.max))
    else done(null, chunk)
  }
}
