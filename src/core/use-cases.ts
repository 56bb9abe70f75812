// Every operation of the spec, by resource, for the faces (REST routes, dashboard, MCP tools,
// command line). Each takes (ctx, principal, [profileKey,] input, { dryRun }).
export { accountUseCases as account } from './account-use-cases.ts'
export { analyticsUseCases as analytics } from './analytics-use-cases.ts'
export { editorUseCases as editor } from './editor-use-cases.ts'
export { fileUseCases as files } from './file-use-cases.ts'
export { runIdempotent } from './idempotent.ts'
export { musicUseCases as music } from './music-use-cases.ts'
export { profileUseCases as profiles } from './profile-use-cases.ts'
export { slotUseCases as slots } from './slot-use-cases.ts'
export type { ProfileKey, WriteOptions } from './unit-of-work.ts'
