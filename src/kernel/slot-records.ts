/**
 * The records an event or form slot shows (see `SlotTypeDef.record`): the store reads them and
 * the slot types render them, and the slot types stand on nothing but the kernel.
 */

/** What an event slot shows of its event (the dashboard's events table). */
export interface EventView {
  id: number
  title: string
  description: string
  startsAt: string
  endsAt: string | null
  timezone: string
  location: string
  /** Tickets or details page; empty for none. */
  link: string
}

/** One input of a form (the dashboard's forms table). */
export interface FormField {
  name: string
  label: string
  type: 'text' | 'email' | 'tel' | 'textarea' | 'checkbox'
  required: boolean
}

/** What a form slot shows of its form. */
export interface FormView {
  id: number
  title: string
  description: string
  fields: FormField[]
  submitLabel: string
}
