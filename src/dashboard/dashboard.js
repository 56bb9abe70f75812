// Progressive enhancements only: every form works without this script.
;(() => {
  // Copy buttons: <button data-copy="element-id">.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy)
      if (!source) return
      try {
        await navigator.clipboard.writeText(source.textContent.trim())
        button.textContent = 'Copied'
      } catch {
        button.textContent = 'Select and copy by hand'
      }
    })
  }

  // The time zone select starts on the browser's own zone when the server had no choice yet.
  const zone = document.querySelector('select[data-browser-zone]')
  if (zone) {
    const mine = Intl.DateTimeFormat().resolvedOptions().timeZone
    if (mine && [...zone.options].some((o) => o.value === mine)) zone.value = mine
  }

  // Live login check: <input data-login-check="/my-links/check-login" aria-describedby="…-status">.
  for (const input of document.querySelectorAll('input[data-login-check]')) {
    const status = document.getElementById(input.dataset.status)
    let timer
    let asked = ''
    input.addEventListener('input', () => {
      clearTimeout(timer)
      timer = setTimeout(async () => {
        const login = input.value.trim()
        if (!login || login === asked) return
        asked = login
        const url = new URL(input.dataset.loginCheck, location.href)
        url.searchParams.set('login', login)
        if (input.dataset.profile) url.searchParams.set('profile', input.dataset.profile)
        try {
          const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
          if (!res.ok || login !== input.value.trim()) return
          const verdict = await res.json()
          status.textContent = verdict.message
          status.className = verdict.available ? 'hint' : 'error'
        } catch {
          status.textContent = ''
        }
      }, 300)
    })
  }
})()
