import type { McpServer } from '@modelcontextprotocol/server'
import { slotTypes } from '../slots/registry.ts'
import { describeSlotType } from '../slots/slot-type-description.ts'
import { renderNextSteps, renderNextStepsIn } from '../kernel/next-step.ts'
import { toolNextSteps } from './tool-next-steps.ts'
import { inToolWords, schemaInToolWords } from './tool-words.ts'

export const slotTypeUri = (type: string) => `slotline://slot-types/${type}`

/** Each slot type's data schema, computed fields, labels and a valid example, from the registry. */
export function registerSlotTypeResources(server: McpServer): void {
  for (const def of Object.values(slotTypes)) {
    server.registerResource(
      `slot-type-${def.type}`,
      slotTypeUri(def.type),
      {
        title: `Slot type: ${def.title}`,
        description: `${inToolWords(renderNextSteps(def.description, toolNextSteps))} JSON Schema of data, computed fields and an example.`,
        mimeType: 'application/json',
      },
      async (uri) => ({
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify(schemaInToolWords(renderNextStepsIn(describeSlotType(def), toolNextSteps))),
          },
        ],
      }),
    )
  }
}
