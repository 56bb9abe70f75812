import { Type } from '@sinclair/typebox'
import {
  DeliveriesQuery,
  Delivery,
  NewWebhookEndpoint as NewEndpoint,
  SecretRotation,
  WebhookEndpoint as Endpoint,
  WebhookEndpointChanges as EndpointChanges,
  webhooks,
} from '../core/use-cases.ts'
import { route, routes, withMeta } from '../http/routes.ts'
import { DataOf, DataWithMeta } from '../http/envelope-schemas.ts'

const EndpointParams = Type.Object({ endpoint: Type.Integer({ minimum: 1, description: 'The webhook endpoint id.' }) })
const DeliveryParams = Type.Object({ endpoint: EndpointParams.properties.endpoint, delivery: Type.Integer({ minimum: 1, description: 'The delivery id.' }) })
const WithSecret = Type.Object(
  {
    data: Endpoint,
    meta: Type.Object({ secret: Type.String({ description: 'The signing secret (whsec_…), shown in this answer only.' }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
)

export default routes(
  'Webhooks',
  'Signed HTTP deliveries of what happens on your pages (a lead, a change, a day’s figures) to your other tools, per the Standard Webhooks specification.',
  '/v1/webhooks',
  [
    route({
      method: 'GET',
      url: '',
      operationId: 'listWebhooks',
      summary: 'Your webhook endpoints',
      scope: 'profile:read',
      reply: { 200: DataOf(Type.Array(Endpoint)) },
      handler: ({ ctx, principal }) => webhooks.list(ctx, principal),
    }),
    route({
      method: 'POST',
      url: '',
      operationId: 'createWebhook',
      summary: 'Add a webhook endpoint',
      description:
        'Deliveries are POSTed as JSON {type, timestamp, data} with the headers webhook-id, webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the secret in meta.secret, shown once). ' +
        'A 2xx answer is success; others are tried again for about three days; 410 switches the endpoint off.',
      scope: 'profile:write',
      body: NewEndpoint,
      reply: { 201: WithSecret },
      errors: [409, 422],
      handler: async ({ ctx, principal, body, dryRun }) => {
        const { endpoint, secret } = await webhooks.create(ctx, principal, body, { dryRun })
        return withMeta(endpoint, { secret })
      },
    }),
    route({
      method: 'GET',
      url: '/:endpoint',
      operationId: 'getWebhook',
      summary: 'One webhook endpoint',
      scope: 'profile:read',
      params: EndpointParams,
      reply: { 200: DataOf(Endpoint) },
      errors: [404],
      handler: ({ ctx, principal, params }) => webhooks.get(ctx, principal, params.endpoint),
    }),
    route({
      method: 'PATCH',
      url: '/:endpoint',
      operationId: 'updateWebhook',
      summary: 'Change a webhook endpoint (URL, events, pages, on or off)',
      scope: 'profile:write',
      params: EndpointParams,
      body: EndpointChanges,
      reply: { 200: DataOf(Endpoint) },
      errors: [404, 422],
      handler: ({ ctx, principal, params, body, dryRun }) => webhooks.update(ctx, principal, params.endpoint, body, { dryRun }),
    }),
    route({
      method: 'DELETE',
      url: '/:endpoint',
      operationId: 'deleteWebhook',
      summary: 'Remove a webhook endpoint and its delivery log',
      scope: 'profile:write',
      params: EndpointParams,
      reply: { 204: null },
      errors: [404],
      handler: ({ ctx, principal, params, dryRun }) => webhooks.remove(ctx, principal, params.endpoint, { dryRun }),
    }),
    route({
      method: 'POST',
      url: '/:endpoint/secret',
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret',
      description:
        'The new secret is in meta.secret, shown once. The old one keeps signing beside it for graceHours (default 24), so a receiver can switch without missing a delivery.',
      scope: 'profile:write',
      params: EndpointParams,
      body: SecretRotation,
      reply: { 200: WithSecret },
      errors: [404, 422],
      handler: async ({ ctx, principal, params, body, dryRun }) => {
        const { endpoint, secret } = await webhooks.rotateSecret(ctx, principal, params.endpoint, body ?? {}, { dryRun })
        return withMeta(endpoint, { secret })
      },
    }),
    route({
      method: 'POST',
      url: '/:endpoint/test',
      operationId: 'sendWebhookTest',
      summary: 'Send a test event',
      description: 'Queues a webhook.test delivery to the endpoint, whatever events it takes; follow it in its deliveries.',
      scope: 'profile:write',
      params: EndpointParams,
      reply: { 202: DataOf(Delivery) },
      errors: [404],
      handler: ({ ctx, principal, params, dryRun }) => webhooks.sendTest(ctx, principal, params.endpoint, { dryRun }),
    }),
    route({
      method: 'GET',
      url: '/:endpoint/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log of an endpoint, newest first',
      scope: 'profile:read',
      params: EndpointParams,
      query: DeliveriesQuery,
      reply: { 200: DataWithMeta(Type.Array(Delivery), Type.Object({ nextCursor: Type.Union([Type.Integer(), Type.Null()]), limit: Type.Integer() })) },
      errors: [404, 422],
      handler: async ({ ctx, principal, params, query }) => {
        const page = await webhooks.deliveries(ctx, principal, params.endpoint, query)
        return withMeta(page.deliveries, { nextCursor: page.nextCursor, limit: page.limit })
      },
    }),
    route({
      method: 'POST',
      url: '/:endpoint/deliveries/:delivery/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Send a delivery again',
      description: 'The same webhook-id and body, its attempts starting over; a delivery still queued is left as it is.',
      scope: 'profile:write',
      params: DeliveryParams,
      reply: { 202: DataOf(Delivery) },
      errors: [404],
      handler: ({ ctx, principal, params, dryRun }) => webhooks.redeliver(ctx, principal, params.endpoint, params.delivery, { dryRun }),
    }),
  ],
)
