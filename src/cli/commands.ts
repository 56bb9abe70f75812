import { migrate, tokensCreate, usersCreate, usersSetPassword } from './accounts.ts'
import { analyticsPurge, analyticsSeed } from './analytics.ts'
import { backup, restore } from './backup.ts'
import { formsSubmissions } from './forms.ts'
import { demo } from './demo.ts'
import { filesPurge } from './files.ts'
import { pagesExport, pagesImport } from './pages.ts'
import type { Command } from './command.ts'

/** Every command of the CLI, in the order `--help` lists them. */
export const commands: Command[] = [usersCreate, usersSetPassword, tokensCreate, migrate, demo, pagesExport, pagesImport, filesPurge, analyticsPurge, analyticsSeed, formsSubmissions, backup, restore]
