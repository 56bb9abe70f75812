import type { McpServer } from '@modelcontextprotocol/server'
import { fromJsonSchema } from '@modelcontextprotocol/server'

const steps = (about: string) =>
  [
    `Build a Slotline link-in-bio page${about ? ` about: ${about}` : ''}. Call the tools in this order:`,
    '1. get_me — who you act for, whether you can write, the limits.',
    '2. check_login, then create_profile with a free login (or list_profiles and reuse one).',
    '3. upload_image_from_url for an avatar, then update_profile with title, description, avatar (the returned path) and socials; upsert_social_link adds one link later.',
    '4. list_slot_types (or read slotline://slot-types/<type>) for what each block holds; lookup_music for a release turns into a ready music slot.',
    '5. create_slots with every block at once (array order is page order); dryRun: true first if unsure.',
    '6. move_slot to move one block (reorder_slots with every id once for a new order); update_slots to fix texts.',
    '7. get_profile_markdown to read the page as a visitor would, and fix what reads badly.',
    '8. Later: get_profile_analytics for views, clicks per block and findings.',
  ].join('\n')

// Compiled once: the server that registers it is built for every request.
const argsSchema = fromJsonSchema<{ about?: string }>({
  type: 'object',
  properties: { about: { type: 'string', maxLength: 500, description: 'Who or what the page is for (optional).' } },
})

/** "Build a page": the call order an agent should follow, as one user message. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'build_page',
    {
      title: 'Build a page',
      description: 'Walks through building a link-in-bio page with the Slotline tools, in the right order.',
      argsSchema,
    },
    ({ about }) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: steps(about ?? '') } }] }),
  )
}
