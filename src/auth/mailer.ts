import type Nodemailer from 'nodemailer'
import { onFirstUse } from '../kernel/on-first-use.ts'
import type { Config } from '../config.ts'

const nodemailer = onFirstUse<typeof Nodemailer>('nodemailer')

export interface Mail {
  to: string
  subject: string
  text: string
}

/** Sends plain-text mail through SMTP_URL; undefined when the service has no outgoing mail. */
export function mailerOf(config: Config): ((mail: Mail) => Promise<void>) | undefined {
  const mail = config.mail
  if (!mail) return undefined
  const transport = nodemailer().createTransport(mail.smtpUrl)
  return async (m) => {
    await transport.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text })
  }
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Sends plain-text mail through SMTP_URL; undefined when the service has none. */
    readonly mailer: ((mail: Mail) => Promise<void>) | undefined
  }
}
