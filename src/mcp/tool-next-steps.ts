import type { NextStepNames } from '../kernel/next-step.ts'

/**
 * The core's next steps as an agent connected over MCP takes them: the tool that does it.
 * test/architecture/next-steps.test.ts checks that each names a tool of tools/index.ts. Tokens
 * are no tool's business: people manage them in the dashboard.
 */
export const toolNextSteps: NextStepNames = {
  'account.me': 'get_me',
  'profiles.list': 'list_profiles',
  'profiles.create': 'create_profile',
  'profiles.checkLogin': 'check_login',
  'profiles.getSettings': 'get_profile_settings',
  'profiles.changeSettings': 'update_profile_settings',
  'slots.list': 'list_slots',
  'slots.create': 'create_slots',
  'slotTypes.list': 'list_slot_types',
  'slotTypes.get': 'list_slot_types',
  'music.lookup': 'lookup_music',
  'files.upload': 'upload_image_from_url',
  'files.issueUploadUrl': 'get_upload_url',
  'tokens.revoke': 'the dashboard (/settings/tokens)',
}
