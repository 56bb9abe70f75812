import type { NextStepNames } from '../kernel/next-step.ts'

/**
 * The core's next steps as the API names them: the route's method and path as the spec writes
 * them (relative to {base_url}). test/architecture/next-steps.test.ts checks that each is a route
 * row. Tokens have no route: the dashboard issues and revokes them.
 */
export const restNextSteps: NextStepNames = {
  'account.me': 'GET /me',
  'profiles.list': 'GET /profiles',
  'profiles.create': 'POST /profiles',
  'profiles.checkLogin': 'GET /profiles/check-login',
  'profiles.getSettings': 'GET /profiles/{profileKey}/settings',
  'profiles.changeSettings': 'PATCH /profiles/{profileKey}/settings',
  'slots.list': 'GET /profiles/{profileKey}/slots',
  'slots.create': 'POST /profiles/{profileKey}/slots',
  'slotTypes.list': 'GET /slot-types',
  'slotTypes.get': 'GET /slot-types/{type}',
  'music.lookup': 'GET /music/lookup',
  'files.upload': 'POST /files',
  'files.issueUploadUrl': 'POST /files/upload-url',
  'tokens.revoke': 'the dashboard (/settings/tokens)',
}
