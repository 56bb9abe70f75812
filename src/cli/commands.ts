import { migrate, tokensCreate, usersCreate, usersResetTwoFactor, usersSetPassword } from './account-commands.ts'
import { analyticsPurge, analyticsSeed } from './analytics-commands.ts'
import { backup, restore } from './backup-commands.ts'
import { formsSubmissions } from './form-commands.ts'
import { demo } from './demo-commands.ts'
import { domainsAdd, domainsCheck, domainsList, domainsRemove } from './domain-commands.ts'
import { filesPurge } from './file-commands.ts'
import { pagesExport, pagesImport } from './page-commands.ts'
import { webhooksAdd, webhooksList, webhooksTest } from './webhook-commands.ts'
import { populationGenerate } from './population-commands.ts'
import type { Command } from './command.ts'

/** Every command of the CLI, in the order `--help` lists them. */
export const commands: Command[] = [
  usersCreate,
  usersSetPassword,
  usersResetTwoFactor,
  tokensCreate,
  migrate,
  demo,
  pagesExport,
  pagesImport,
  filesPurge,
  analyticsPurge,
  analyticsSeed,
  populationGenerate,
  formsSubmissions,
  webhooksList,
  webhooksAdd,
  webhooksTest,
  domainsList,
  domainsAdd,
  domainsCheck,
  domainsRemove,
  backup,
  restore,
]
