import { h } from '../slots/shared/html.ts'
import type { PageInput, PageRow } from './page-routes.ts'

// The first page a stranger sees (`/` signed out), and where a forgotten password leads.

export const welcomePages: PageRow[] = [{ method: 'GET', url: '/login/forgot', signedIn: false, handler: forgotPassword }]

/** `/` for a visitor: what this is, how to get in, and where programs connect. */
export function welcomePage(p: PageInput<any>) {
  const open = p.ctx.config.registration === 'open'
  const base = p.ctx.config.publicUrl
  return p.render({
    title: 'Welcome',
    narrow: true,
    body: h`<h1>Slotline</h1>
<p>One page for all your links: buttons, music, videos, events and forms under one short address you can share or print as a QR code. You see how many people visit and what they click, without cookies.</p>
<p class="actions"><a class="button" href="/login">Sign in</a>${open ? h`<a class="button secondary" href="/register">Create an account</a>` : ''}</p>
${open ? '' : h`<p class="muted">New accounts are created by the operator of this service.</p>`}
<section class="card" aria-labelledby="programs-h">
<h2 id="programs-h">For programs and AI assistants</h2>
<p>Scripts use the <a href="/v1/docs">API reference</a> (base address <code>${base}/v1</code>) with a token from your account.</p>
<p>AI assistants connect through MCP at <code>${base}/mcp</code>; they ask you to approve them first.</p>
</section>`,
  })
}

/** Without outgoing mail the service cannot prove an address is yours: the operator resets it. */
async function forgotPassword(p: PageInput<any>) {
  return p.render({
    title: 'Forgot your password?',
    narrow: true,
    body: h`<h1>Forgot your password?</h1>
<p>This service does not send e-mail, so it cannot send you a link to choose a new password.</p>
<p>Ask the operator of this service to set a new one for you. They run:</p>
<code class="secret">npm run --silent cli -- users set-password --email you@example.com</code>
<p>Then <a href="/login">sign in</a> with the new password and change it under Account.</p>`,
  })
}
