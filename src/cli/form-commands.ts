import * as useCases from '../core/use-cases.ts'
import { defineCommand } from './command.ts'
import { userByEmail } from './user-by-email.ts'

export const formsSubmissions = defineCommand({
  name: 'forms submissions',
  summary: "Print what visitors sent through a user's forms, one JSON object a line.",
  options: {
    email: { type: 'string', value: 'E', description: 'the owner of the forms' },
    form: { type: 'string', value: 'ID', description: "only this form's answers" },
  },
  required: ['email'],
  async run(ctx, v) {
    const user = await userByEmail(ctx, v.email)
    const formId = v.form === undefined ? undefined : Number(v.form)
    if (formId !== undefined && !Number.isSafeInteger(formId)) throw new Error('--form takes a form id.')
    for (const s of await useCases.operator.formSubmissions(ctx, { userId: user.id, formId })) {
      console.log(JSON.stringify({ id: s.id, form: s.formId, formTitle: s.formTitle, slot: s.slotId, at: s.createdAt, data: s.data }))
    }
  },
})
