import * as useCases from '../core/use-cases.ts'
import type { User } from '../core/use-cases.ts'
import type { PageInput, PageRow } from './page-routes.ts'
import { sendOptions } from './passkey-forms.ts'

/** Where a passkey's challenge for a signed-in step comes from (an approval of an application). */
export const CONFIRM_PASSKEY_OPTIONS = '/settings/confirm/passkey-options'

export const ownerProofPages: PageRow[] = [{ method: 'POST', url: CONFIRM_PASSKEY_OPTIONS, signedIn: true, handler: passkeyOptions }]

async function passkeyOptions(p: PageInput<User>) {
  return sendOptions(p, () => useCases.passkeys.signInOptions(p.ctx, { sessionId: p.req.session.sessionId, userId: p.user.id }))
}
