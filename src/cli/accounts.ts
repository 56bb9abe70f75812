import { accounts } from '../auth/accounts.ts'
import type { Ability } from '../store/tokens.ts'
import { usersRepository } from '../store/users.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { defineCommand } from './command.ts'

export const usersCreate = defineCommand({
  name: 'users create',
  summary: 'Create an account.',
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, timezone: { type: 'string' } },
  required: ['email', 'password'],
  async run(ctx, v) {
    const user = await accounts.createUser(ctx.db, {
      email: String(v.email),
      password: String(v.password),
      name: v.name as string | undefined,
      timezone: v.timezone as string | undefined,
    })
    console.log(`Created user ${user.id} <${user.email}>`)
  },
})

export const tokensCreate = defineCommand({
  name: 'tokens create',
  summary: 'Issue a personal token; prints it alone on the last line.',
  options: { email: { type: 'string' }, abilities: { type: 'string' }, name: { type: 'string' } },
  required: ['email'],
  async run(ctx, v) {
    const user = await usersRepository.findByEmail(ctx.db, String(v.email))
    if (!user) throw new Error(`No user with e-mail ${v.email}; create one with: cli -- users create`)
    const abilities = v.abilities
      ? (String(v.abilities)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean) as Ability[])
      : undefined
    const { token } = await accounts.createToken(ctx.db, user.id, { name: v.name as string | undefined, abilities })
    console.log(token)
  },
})

export const migrate = defineCommand({
  name: 'migrate',
  summary: 'Apply pending database migrations.',
  options: {},
  async run(ctx) {
    // createContext already migrated; report what is in place.
    const applied = await migrateToLatest(ctx.db)
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The store is up to date.')
  },
})
