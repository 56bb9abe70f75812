import { Type } from '@sinclair/typebox'
import { discoveryDocument } from '../http/discovery-document.ts'
import { DataOf } from '../http/envelope-schemas.ts'
import { route, routes } from '../http/routes.ts'
import { openApiJson } from './openapi-document.ts'
import { Identity } from '../auth/identity.ts'
import { account as accountUseCases } from '../core/use-cases.ts'

export default routes('Discovery', 'Where to start: what the API offers and what this token may do.', '/v1', [
  route({
    method: 'GET',
    url: '/',
    operationId: 'getApiIndex',
    summary: 'Describe the API (no token needed)',
    scope: 'public',
    reply: { 200: DataOf(Type.Object({}, { additionalProperties: true })) },
    handler: async ({ ctx }) => discoveryDocument(ctx.config),
  }),
  route({
    method: 'GET',
    url: '/me',
    operationId: 'getMe',
    summary: 'Who the token acts for, and how much of each limit is left',
    description: 'Intended as the first call: tells whether the token can write and how much of each limit is left.',
    scope: 'profile:read',
    reply: { 200: DataOf(Identity) },
    handler: async ({ ctx, principal }) => accountUseCases.me(ctx, principal),
  }),
  route({
    method: 'GET',
    url: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'The machine-readable description of this API (OpenAPI 3.1)',
    scope: 'profile:read',
    reply: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document.' }) },
    raw: true,
    handler: async ({ ctx, modules, reply }) => {
      reply.type('application/json')
      return openApiJson(ctx.config, modules)
    },
  }),
])
