/** The text line of a write: what was done, or what a dry run would have done. */
export const doneText = (dryRun: boolean | undefined, text: string) => (dryRun ? `Dry run, nothing stored: ${text}` : text)
