import type { AppContext } from '../context.ts'
import * as useCases from '../core/use-cases.ts'
import type { OptionValues } from './command.ts'

/**
 * The account a command's `--email` names. An unknown address stops the command: `next` ends
 * the message with what the operator can do about it.
 */
export async function userByEmail(ctx: AppContext, email: OptionValues[string], next = '.') {
  const user = await useCases.operator.findUser(ctx, { email: String(email) })
  if (!user) throw new Error(`No user with e-mail ${email}${next}`)
  return user
}
