import { Type } from '@sinclair/typebox'
import { ConnectDomainInput, CustomDomain, domains } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

// One tool for the whole set-up, so tools/list stays within its budget: the first call connects
// and shows the records, the same call after they are created checks them. Removing a domain is
// for the dashboard, the API and the command line, where the owner sees what stops being served.
export default defineTool({
  name: 'connect_domain',
  title: 'Put a page on its own domain',
  description:
    'Connects a domain to a page and checks its DNS records; call it first for the records to create, then again after they exist until state is active.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(ConnectDomainInput) }),
  outputSchema: Type.Object({ domain: CustomDomain }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async ({ profileKey, domain, dryRun }, { ctx, principal }) => {
    const connected = (await domains.connect(ctx, principal, profileKey, { domain }, { dryRun })).domain!
    const checked = dryRun ? connected : (await domains.check(ctx, principal, profileKey)).domain!
    const next =
      checked.state === 'active'
        ? `The page is served at ${checked.url}.`
        : `State ${checked.state}: ${checked.problem ?? 'create the records shown'}; call connect_domain again once they exist.`
    return { structured: { domain: checked }, text: doneText(dryRun, `${checked.domain}: ${next}`) }
  },
})
