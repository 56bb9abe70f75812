// Passkeys need the browser's WebAuthn API: this script asks the service for a challenge,
// lets the device answer it, and posts the answer with the form's other fields.
;(() => {
  const text = (buf) => String.fromCharCode(...new Uint8Array(buf))
  const b64u = (buf) => btoa(text(buf)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  const ids = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }))

  function publicKeyOf(kind, o) {
    o.challenge = bytes(o.challenge)
    if (kind === 'create') {
      o.user.id = bytes(o.user.id)
      o.excludeCredentials = ids(o.excludeCredentials)
    } else o.allowCredentials = ids(o.allowCredentials)
    return o
  }

  function answerOf(c) {
    const r = c.response
    const response = { clientDataJSON: b64u(r.clientDataJSON) }
    if (r.attestationObject) {
      response.attestationObject = b64u(r.attestationObject)
      response.transports = r.getTransports ? r.getTransports() : []
    } else {
      response.authenticatorData = b64u(r.authenticatorData)
      response.signature = b64u(r.signature)
      if (r.userHandle) response.userHandle = b64u(r.userHandle)
    }
    const attachment = c.authenticatorAttachment || undefined
    return JSON.stringify({
      id: c.id,
      rawId: b64u(c.rawId),
      type: c.type,
      response,
      clientExtensionResults: c.getClientExtensionResults(),
      authenticatorAttachment: attachment,
    })
  }

  async function optionsFor(form) {
    const res = await fetch(form.dataset.options, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: form.elements._csrf.value }),
      credentials: 'same-origin',
    })
    const body = await res.json().catch(() => ({}))
    if (!res.ok) throw new Error(body.message || 'The service did not answer. Reload the page and try again.')
    return body
  }

  for (const form of document.querySelectorAll('form[data-passkey]')) {
    const problem = form.querySelector('[data-passkey-problem]')
    const say = (words) => {
      problem.textContent = words
      problem.hidden = false
    }
    form.addEventListener('submit', async (event) => {
      if (form.elements.credential.value) return
      event.preventDefault()
      if (!window.PublicKeyCredential) return say('This browser cannot use passkeys. Use another way, or another browser.')
      const button = form.querySelector('button[type="submit"]')
      button.disabled = true
      try {
        const kind = form.dataset.passkey
        const publicKey = publicKeyOf(kind, await optionsFor(form))
        form.elements.credential.value = answerOf(await navigator.credentials[kind]({ publicKey }))
        form.submit()
      } catch (err) {
        say(err?.name === 'NotAllowedError' ? 'No passkey was used: it was cancelled or took too long. Try again.' : String(err?.message || err))
        button.disabled = false
      }
    })
  }
})()
