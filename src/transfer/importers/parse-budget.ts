import { invalidField } from '../../kernel/errors.ts'

/**
 * The time one foreign page may take to read. Readers check it as they go and, on long input,
 * pause so that other requests are served in between: a page that runs out of time is refused
 * with 422 naming the field it came from, never left to hold the process.
 */
export class ParseBudget {
  private readonly deadline: number

  constructor(
    private readonly seconds: number,
    private readonly field: string,
  ) {
    this.deadline = performance.now() + seconds * 1000
  }

  check(): void {
    if (performance.now() > this.deadline) {
      throw invalidField(this.field, `This page could not be read within ${this.seconds} seconds; it is not a page this service can import.`)
    }
  }

  /** Lets the event loop run whatever waits, then checks the time. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve))
    this.check()
  }
}
