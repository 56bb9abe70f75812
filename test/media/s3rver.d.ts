// s3rver ships no types; this is the slice the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      port?: number
      address?: string
      directory: string
      silent?: boolean
      configureBuckets?: Array<{ name: string; configs?: unknown[] }>
    })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
