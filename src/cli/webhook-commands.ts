import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import { SUBSCRIBABLE_EVENTS } from '../webhooks/event-types.ts'
import { defineCommand } from './command.ts'
import { userByEmail } from './user-by-email.ts'

export const webhooksList = defineCommand({
  name: 'webhooks list',
  summary: "Print a user's webhook endpoints with their latest delivery, one JSON object a line.",
  options: { email: { type: 'string', value: 'E', description: 'the owner of the endpoints' } },
  required: ['email'],
  async run(ctx, v) {
    const principal = ownerPrincipal(await userByEmail(ctx, v.email))
    for (const e of await useCases.webhooks.list(ctx, principal)) {
      const [last] = (await useCases.webhooks.deliveries(ctx, principal, e.id, { limit: 1 })).deliveries
      console.log(
        JSON.stringify({
          ...e,
          lastDelivery: last ? { eventType: last.eventType, status: last.status, attempts: last.attempts, at: last.lastAttemptAt } : null,
        }),
      )
    }
  },
})

export const webhooksAdd = defineCommand({
  name: 'webhooks add',
  summary: 'Add a webhook endpoint to a user; prints its signing secret, shown this once.',
  options: {
    email: { type: 'string', value: 'E', description: 'the owner' },
    url: { type: 'string', value: 'URL', description: 'where deliveries are POSTed' },
    events: { type: 'string', value: 'TYPES', description: 'comma-separated event types, e.g. form.submitted,page.updated' },
  },
  required: ['email', 'url', 'events'],
  async run(ctx, v) {
    const principal = ownerPrincipal(await userByEmail(ctx, v.email))
    const eventTypes = String(v.events)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const unknown = eventTypes.filter((t) => !(SUBSCRIBABLE_EVENTS as string[]).includes(t))
    if (!eventTypes.length || unknown.length) throw new Error(`--events takes some of: ${SUBSCRIBABLE_EVENTS.join(', ')}.`)
    const { endpoint, secret } = await useCases.webhooks.create(ctx, principal, { url: String(v.url), eventTypes: eventTypes as never })
    console.log(`Endpoint ${endpoint.id} sends ${endpoint.eventTypes.join(', ')} to ${endpoint.url}.`)
    console.log(`Signing secret (shown once): ${secret}`)
  },
})

export const webhooksTest = defineCommand({
  name: 'webhooks test',
  summary: 'Send a test event to an endpoint now and print how its receiver answered.',
  options: {
    email: { type: 'string', value: 'E', description: 'the owner' },
    endpoint: { type: 'string', value: 'ID', description: 'the endpoint id (webhooks list)' },
  },
  required: ['email', 'endpoint'],
  async run(ctx, v) {
    const principal = ownerPrincipal(await userByEmail(ctx, v.email))
    const id = Number(v.endpoint)
    if (!Number.isSafeInteger(id) || id < 1) throw new Error('--endpoint takes an endpoint id.')
    const queued = await useCases.webhooks.sendTest(ctx, principal, id)
    // Sent from here, before the command ends: a claim left by an exiting process would hold it back.
    await ctx.webhooks.runOnce()
    const { deliveries } = await useCases.webhooks.deliveries(ctx, principal, id, { limit: 5 })
    const d = deliveries.find((x) => x.id === queued.id)!
    const answer = d.lastStatus === null ? `no answer (${d.lastError})` : `HTTP ${d.lastStatus}`
    console.log(`Test ${d.messageId}: ${d.status === 'succeeded' ? 'delivered' : 'not delivered, tried again later'}; ${answer}.`)
    if (d.status !== 'succeeded') process.exitCode = 1
  },
})
