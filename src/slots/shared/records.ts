/**
 * The dashboard records a slot shows (see `SlotTypeDef.record`), defined once here: slot
 * modules must not import src/store, so the repositories build theirs on these.
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
