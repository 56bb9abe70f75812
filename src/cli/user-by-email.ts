import type { AppContext } from '../context.ts'
import { usersRepository } from '../store/users.ts'
import type { OptionValues } from './command.ts'

/**
 * The account a command's `--email` names. An unknown address stops the command: `next` ends
 * the message with what the operator can do about it.
 */
export async function userByEmail(ctx: AppContext, email: OptionValues[string], next = '.') {
  const user = await usersRepository.findByEmail(ctx.db, String(email))
  if (!user) throw new Error(`No user with e-mail ${email}${next}`)
  return user
}
