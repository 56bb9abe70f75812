import type { AnyToolDef } from '../define-tool.ts'
import checkLogin from './check-login.ts'
import connectDomain from './connect-domain.ts'
import createProfile from './create-profile.ts'
import createSlots from './create-slots.ts'
import deleteSlots from './delete-slots.ts'
import deleteSocialLink from './delete-social-link.ts'
import exportPage from './export-page.ts'
import getAnalytics from './get-analytics.ts'
import getMe from './get-me.ts'
import getProfileAnalytics from './get-profile-analytics.ts'
import getProfileMarkdown from './get-profile-markdown.ts'
import getProfileSettings from './get-profile-settings.ts'
import getProfile from './get-profile.ts'
import getUploadUrl from './get-upload-url.ts'
import hideSlot from './hide-slot.ts'
import listFormSubmissions from './list-form-submissions.ts'
import listWebhooks from './list-webhooks.ts'
import importPage from './import-page.ts'
import listProfiles from './list-profiles.ts'
import listSlotTypes from './list-slot-types.ts'
import listSlots from './list-slots.ts'
import lookupMusic from './lookup-music.ts'
import moveSlot from './move-slot.ts'
import moveSocialLink from './move-social-link.ts'
import reorderSlots from './reorder-slots.ts'
import scheduleSlot from './schedule-slot.ts'
import showSlot from './show-slot.ts'
import updateProfileSettings from './update-profile-settings.ts'
import updateProfile from './update-profile.ts'
import updateSlots from './update-slots.ts'
import uploadImageFromUrl from './upload-image-from-url.ts'
import upsertSocialLink from './upsert-social-link.ts'

/**
 * Every tool, in the order an agent meets them (tools/list shows this order). Listed by hand:
 * nothing registers itself by being imported.
 */
export const tools: readonly AnyToolDef[] = Object.freeze([
  getMe,
  listSlotTypes,
  listProfiles,
  getProfile,
  checkLogin,
  createProfile,
  updateProfile,
  upsertSocialLink,
  moveSocialLink,
  deleteSocialLink,
  getProfileSettings,
  updateProfileSettings,
  getProfileMarkdown,
  connectDomain,
  exportPage,
  importPage,
  listSlots,
  createSlots,
  updateSlots,
  reorderSlots,
  moveSlot,
  hideSlot,
  showSlot,
  scheduleSlot,
  deleteSlots,
  lookupMusic,
  uploadImageFromUrl,
  getUploadUrl,
  getAnalytics,
  getProfileAnalytics,
  listFormSubmissions,
  listWebhooks,
] as unknown as AnyToolDef[])
