import type { NextStepNames } from '../kernel/next-step.ts'

/** The core's next steps as a person in the dashboard takes them: the page where it is done. */
export const dashboardNextSteps: NextStepNames = {
  'account.me': 'your settings (/settings)',
  'profiles.list': 'My links (/my-links)',
  'profiles.create': 'My links (/my-links)',
  'profiles.checkLogin': 'the address check on My links (/my-links)',
  'profiles.getSettings': 'the page’s settings (/my-links)',
  'profiles.changeSettings': 'the page’s settings (/my-links)',
  'slots.list': 'the page’s blocks (/my-links)',
  'slots.create': 'the page’s blocks (/my-links)',
  'slotTypes.list': 'the API reference (/v1/docs)',
  'slotTypes.get': 'the API reference (/v1/docs)',
  'music.lookup': 'the API reference (/v1/docs)',
  'files.upload': 'an upload',
  'files.issueUploadUrl': 'an upload',
  'tokens.revoke': 'the list of tokens (/settings/tokens)',
}
