import { ownerPrincipal } from '../auth/principal.ts'
import { randomPassword } from '../auth/secrets.ts'
import type { Ability } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import { defineCommand } from './command.ts'
import { userByEmail } from './user-by-email.ts'

const CREATE_ONE = '; create one with: cli -- users create'

export const usersCreate = defineCommand({
  name: 'users create',
  summary: 'Create an account.',
  options: {
    email: { type: 'string', value: 'E', description: 'sign-in e-mail of the new account' },
    password: { type: 'string', value: 'P', description: "its password (the dashboard's rules: long enough, not a common one)" },
    name: { type: 'string', value: 'N', description: 'display name' },
    timezone: { type: 'string', value: 'TZ', description: 'IANA time zone for analytics days, e.g. Europe/Berlin (default UTC)' },
  },
  required: ['email', 'password'],
  async run(ctx, v) {
    const user = await useCases.account.register(ctx, {
      email: String(v.email),
      password: String(v.password),
      name: v.name as string | undefined,
      timezone: v.timezone as string | undefined,
    })
    console.log(`Created user ${user.id} <${user.email}>`)
  },
})

export const usersSetPassword = defineCommand({
  name: 'users set-password',
  summary: 'Set a new password (printed when --password is left out); ends every session of the user.',
  options: {
    email: { type: 'string', value: 'E', description: "the account's e-mail" },
    password: { type: 'string', value: 'P', description: 'the new password; left out, a random one is printed' },
  },
  required: ['email'],
  async run(ctx, v) {
    const user = await userByEmail(ctx, v.email, CREATE_ONE)
    const password = typeof v.password === 'string' ? v.password : randomPassword()
    // The operator resets a password because it may be known to someone else: signed-in
    // browsers must not outlive it (the use case ends them all).
    const { sessionsEnded: ended } = await useCases.account.changePassword(ctx, ownerPrincipal(user), { password })
    console.log(`Password changed for <${user.email}>; ${ended} signed-in session${ended === 1 ? '' : 's'} ended.`)
    if (typeof v.password !== 'string') console.log(password)
  },
})

export const usersResetTwoFactor = defineCommand({
  name: 'users reset-two-factor',
  summary: 'Turn off two-factor codes of an account whose owner lost the phone and the recovery codes; ends every session of the user.',
  options: {
    email: { type: 'string', value: 'E', description: "the account's e-mail" },
  },
  required: ['email'],
  async run(ctx, v) {
    const user = await userByEmail(ctx, v.email, CREATE_ONE)
    const { wasOn, sessionsEnded: ended } = await useCases.twoFactor.resetByOperator(ctx, { userId: user.id })
    console.log(
      wasOn
        ? `Two-factor codes turned off for <${user.email}>; ${ended} signed-in session${ended === 1 ? '' : 's'} ended. The password alone signs in now.`
        : `<${user.email}> had no two-factor codes; ${ended} signed-in session${ended === 1 ? '' : 's'} ended.`,
    )
  },
})

export const tokensCreate = defineCommand({
  name: 'tokens create',
  summary: 'Issue a personal token; prints it alone on the last line.',
  options: {
    email: { type: 'string', value: 'E', description: 'the account the token acts for' },
    abilities: { type: 'string', value: 'A,B', description: 'comma-separated, e.g. profile:read,profile:write (default: every ability)' },
    name: { type: 'string', value: 'N', description: 'a label to recognise the token by' },
  },
  required: ['email'],
  async run(ctx, v) {
    const user = await userByEmail(ctx, v.email, CREATE_ONE)
    const abilities = v.abilities
      ? (String(v.abilities)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean) as Ability[])
      : undefined
    const { token } = await useCases.tokens.issue(ctx, ownerPrincipal(user), { name: v.name as string | undefined, abilities })
    console.log(token)
  },
})

export const migrate = defineCommand({
  name: 'migrate',
  summary: 'Apply pending database migrations.',
  options: {},
  async run(ctx) {
    // createContext already migrated; report what is in place.
    const applied = await useCases.operator.migrate(ctx)
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The store is up to date.')
  },
})
