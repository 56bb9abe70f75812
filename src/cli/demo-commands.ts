import { demo as demoUseCases } from '../core/use-cases.ts'
import { defineCommand } from './command.ts'

export const demo = defineCommand({
  name: 'demo',
  summary: 'Create a demo page: one slot of each of the ten types and a legacy slot.',
  options: {
    email: { type: 'string', value: 'E', description: "the page's owner; created with a printed random password when there is none" },
    login: { type: 'string', value: 'L', description: "the page's address" },
    theme: { type: 'string', value: 'ID', description: 'a theme id (default: the default theme)' },
  },
  required: ['email', 'login'],
  async run(ctx, v) {
    const themeId = v.theme === undefined ? undefined : Number(v.theme)
    const { user, password, profile } = await demoUseCases.createDemoPage(ctx, { email: String(v.email), login: String(v.login), themeId })
    if (password) console.log(`Created user ${user.id} <${user.email}> with password ${password}`)
    console.log(`Demo page ${profile.id} at ${profile.computed.url} (11 slots: the ten types and a legacy one)`)
  },
})
