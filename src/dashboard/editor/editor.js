// The editor without reloads: every form still posts to the server exactly as it does without
// this script; the answer's editor replaces the old one, focus returns to the control that was
// used, the result is announced, and the preview frame reloads. Adds drag and drop ordering and
// checks as you type (the server's dry run).
;(() => {
  const root = document.querySelector('.ed')
  if (!root) return
  const live = document.getElementById('ed-live')
  const announce = (text) => {
    live.textContent = ''
    setTimeout(() => {
      live.textContent = text
    }, 50)
  }

  const focusAfter = (key, hash) => {
    const by = (sel) => root.querySelector(sel)
    const firstIn = (sel) => by(`${sel} :is(input:not([type="hidden"]), select, textarea, button:not([tabindex="-1"]))`)
    // A block opened (new or to edit) or a schedule opened: its first field; the picker: its first type.
    // A refused save: its first field that needs attention.
    let target = by('.ed-main [autofocus]') || (by('.ed-main .notice.bad') && by('.ed-main [aria-invalid="true"]'))
    if (!target && key && /^(pick|edit)-/.test(key)) target = firstIn('#panel')
    if (!target && key && /^schedule-/.test(key)) target = firstIn(`#${key}`)
    if (!target && key === 'add-block') target = by('[data-focus^="pick-"]')
    // The server names the control to return to when the one pressed has moved (a block's row).
    if (!target && key) target = by(`[data-focus="${key}"]:not([disabled]):not([tabindex="-1"])`)
    if (!target && key && /^(up|down)-/.test(key)) target = by(`[data-focus="${key.replace(/^(up|down)/, (d) => (d === 'up' ? 'down' : 'up'))}"]`)
    if (!target) target = by('.notice.bad') && by('[aria-invalid="true"]')
    if (!target && document.getElementById('panel-h')) target = document.getElementById('panel-h')
    if (!target && hash) {
      const el = document.getElementById(hash.slice(1))
      target = el && (el.querySelector('a, button:not([disabled])') || el)
    }
    if (target) {
      if (!target.matches('a, button, input, select, textarea')) target.tabIndex = -1
      target.focus()
    }
  }

  const swap = async (res, key, push, hash) => {
    const html = await res.text()
    const known = new Set([...root.querySelectorAll('.ed-block[data-id]')].map((c) => c.dataset.id))
    const next = new DOMParser().parseFromString(html, 'text/html')
    const fresh = next.querySelector('.ed-main')
    if (!fresh) {
      location.href = res.url
      return
    }
    root.querySelector('.ed-main').replaceWith(fresh)
    const title = next.querySelector('.ed h1')
    if (title) root.querySelector('h1').replaceWith(title)
    document.title = next.title
    const old = document.querySelector('main > .notice')
    if (old) old.remove()
    const notice = next.querySelector('main > .notice') || fresh.querySelector('[data-announce]')
    if (notice) announce(notice.textContent)
    else {
      const alert = fresh.querySelector('.notice.bad')
      if (alert) announce(alert.textContent)
    }
    const url = new URL(res.url)
    history[push ? 'pushState' : 'replaceState'](null, '', url.pathname + url.search)
    enhance()
    // A fetch never sees the redirect's #block-N: a block that was not there before is the one just made.
    const made = [...root.querySelectorAll('.ed-block[data-id]')].find((c) => !known.has(c.dataset.id))
    focusAfter(key, hash ?? (push ? '' : location.hash || url.hash || (made ? `#${made.id}` : '')))
    // The frame may show an unsaved draft (a post's answer): it goes back to the page as saved.
    if (frame) frame.src = `${root.dataset.base}/preview`
  }

  const send = async (form, submitter, focusKey) => {
    const method = (form.getAttribute('method') || 'get').toLowerCase()
    const key = focusKey || submitter?.dataset.focus
    try {
      if (method === 'get') {
        const url = new URL(form.action)
        for (const [k, v] of new FormData(form, submitter)) url.searchParams.set(k, v)
        url.hash = ''
        await swap(await fetch(url, { credentials: 'same-origin' }), key, true)
        return
      }
      const res = await fetch(form.action, { method: 'POST', body: new FormData(form, submitter), credentials: 'same-origin' })
      // A saved block's own address names it: focus returns to it.
      const saved = /\/blocks\/(\d+)$/.exec(new URL(form.action).pathname)
      await swap(res, key, false, saved && key === 'save' ? `#block-${saved[1]}` : undefined)
    } catch {
      form.submit()
    }
  }

  // Delete asks first, in a modal dialog; the dialog's own form makes the confirmed post.
  const dialog = document.getElementById('ed-confirm')
  let asking
  const ask = (form) => {
    asking = form.querySelector('button')
    dialog.querySelector('form').action = form.dataset.confirm
    document.getElementById('ed-confirm-what').textContent = `${form.dataset.what}. Deleting it cannot be undone.`
    dialog.showModal()
  }
  dialog.querySelector('button[type="button"]').addEventListener('click', () => dialog.close())
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'deleted' && asking?.isConnected) asking.focus()
    dialog.returnValue = ''
  })

  root.addEventListener('submit', (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement)) return
    event.preventDefault()
    if (form.dataset.confirm) return ask(form)
    if (dialog.contains(form)) dialog.close('deleted')
    send(form, event.submitter)
  })

  root.addEventListener('click', async (event) => {
    const link = event.target.closest('a[href]')
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || !root.querySelector('.ed-main').contains(link)) return
    const url = new URL(link.href)
    if (url.origin !== location.origin || url.pathname !== location.pathname) return
    event.preventDefault()
    // A place on this very page (an alert's "Enter the links by hand"): what is shown, perhaps an
    // answer to a form, stays; the place comes into view and takes the focus.
    const here = link.getAttribute('href').startsWith('#') && document.getElementById(url.hash.slice(1))
    if (here) {
      history.replaceState(history.state, '', url.hash)
      if (!here.matches('a, button, input, select, textarea')) here.tabIndex = -1
      here.scrollIntoView({ block: 'start' })
      here.focus()
      return
    }
    const res = await fetch(url, { credentials: 'same-origin' })
    await swap(res, link.dataset.focus, true, url.hash)
  })

  // Drag and drop: the handle-less card moves; dropping sends the whole order in one write.
  let dragged
  const enhance = () => {
    for (const card of root.querySelectorAll('.ed-block')) card.draggable = true
    for (const form of root.querySelectorAll('form[data-dry-run]')) checkAsYouType(form)
    for (const picker of root.querySelectorAll('input[data-colour-for]')) pairColour(picker)
  }

  // A colour picker beside a colour's text field: either one sets the other.
  const paint = document.createElement('canvas').getContext('2d')
  const hexOf = (text) => {
    paint.fillStyle = '#000000'
    paint.fillStyle = text.trim()
    return /^#[0-9a-f]{6}$/i.test(paint.fillStyle) ? paint.fillStyle : '#000000'
  }
  const pairColour = (picker) => {
    const field = document.getElementById(picker.dataset.colourFor)
    picker.hidden = false
    picker.value = hexOf(field.value)
    picker.addEventListener('input', () => {
      field.value = picker.value
      field.dispatchEvent(new Event('input', { bubbles: true }))
    })
    field.addEventListener('input', () => {
      picker.value = hexOf(field.value)
    })
  }

  // Files dropped on a drop zone go into its file field; a zone with data-submit sends its form at once.
  const zoneOf = (event) => event.dataTransfer?.types.includes('Files') && event.target.closest?.('.ed-drop')
  for (const type of ['dragover', 'drop']) {
    // A file dropped beside a zone would replace the editor with the file: nothing happens instead.
    addEventListener(type, (event) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault()
    })
  }
  root.addEventListener('dragover', (event) => {
    const zone = zoneOf(event)
    for (const z of root.querySelectorAll('.ed-drop-over')) if (z !== zone) z.classList.remove('ed-drop-over')
    if (zone) zone.classList.add('ed-drop-over')
  })
  root.addEventListener('dragleave', (event) => {
    if (event.target.classList?.contains('ed-drop')) event.target.classList.remove('ed-drop-over')
  })
  root.addEventListener('drop', (event) => {
    const zone = zoneOf(event)
    if (!zone || !event.dataTransfer.files.length) return
    event.preventDefault()
    zone.classList.remove('ed-drop-over')
    const input = zone.querySelector('input[type="file"]')
    const files = new DataTransfer()
    files.items.add(event.dataTransfer.files[0])
    input.files = files.files
    const button = zone.dataset.submit && input.form.querySelector(`[data-focus="${zone.dataset.submit}"]`)
    if (button) input.form.requestSubmit(button)
    else announce(`${event.dataTransfer.files[0].name} chosen.`)
  })
  root.addEventListener('dragstart', (event) => {
    dragged = event.target.closest?.('.ed-block')
    if (!dragged) return
    dragged.classList.add('ed-dragging')
    event.dataTransfer.effectAllowed = 'move'
    event.dataTransfer.setData('text/plain', dragged.dataset.id)
  })
  root.addEventListener('dragover', (event) => {
    const over = event.target.closest?.('.ed-block')
    if (!dragged || !over) return
    event.preventDefault()
    for (const c of root.querySelectorAll('.ed-over')) c.classList.remove('ed-over')
    if (over !== dragged) over.classList.add('ed-over')
  })
  root.addEventListener('dragend', () => {
    for (const c of root.querySelectorAll('.ed-over, .ed-dragging')) c.classList.remove('ed-over', 'ed-dragging')
    dragged = undefined
  })
  root.addEventListener('drop', (event) => {
    const over = event.target.closest?.('.ed-block')
    if (!dragged || !over || over === dragged) return
    event.preventDefault()
    const box = over.getBoundingClientRect()
    over.parentNode.insertBefore(dragged, event.clientY > box.top + box.height / 2 ? over.nextSibling : over)
    const form = root.querySelector('#ed-order')
    form.elements.order.value = [...root.querySelectorAll('.ed-block')].map((c) => c.dataset.id).join(',')
    let moved = form.elements.moved
    if (!moved) {
      moved = Object.assign(document.createElement('input'), { type: 'hidden', name: 'moved' })
      form.append(moved)
    }
    moved.value = dragged.dataset.id
    send(form, undefined, `up-${dragged.dataset.id}`)
  })

  // Checks as you type: the same post as Save, as a dry run that stores nothing.
  const checkAsYouType = (form) => {
    let timer
    form.addEventListener('input', () => {
      clearTimeout(timer)
      timer = setTimeout(async () => {
        const body = new FormData(form)
        for (const [k, v] of [...body]) if (v instanceof File) body.delete(k)
        try {
          const res = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin', headers: { 'x-editor-dry-run': '1' } })
          if (!res.ok) return
          const { errors } = await res.json()
          for (const field of form.querySelectorAll('[name]')) {
            if (field.type === 'hidden' || !field.id) continue
            const problems = errors[field.name]
            let note = document.getElementById(`${field.id}-error`)
            if (!problems) {
              if (note) note.remove()
              field.removeAttribute('aria-invalid')
              continue
            }
            if (!note) {
              note = Object.assign(document.createElement('p'), { className: 'error', id: `${field.id}-error` })
              field.closest('.field')?.append(note)
              field.setAttribute('aria-describedby', `${field.getAttribute('aria-describedby') || ''} ${note.id}`.trim())
            }
            note.textContent = problems.join(' ')
            field.setAttribute('aria-invalid', 'true')
          }
        } catch {}
      }, 600)
    })
  }
  // The live preview: the form as typed is posted with ?preview=1 into the preview frame; the
  // server runs the save as a dry run and answers the page it would make (204 while the draft
  // does not save, so the frame keeps the last page). Chosen files are not sent (disabled).
  const frame = root.querySelector('.ed-preview iframe')
  const previewed = 'form[data-dry-run], form[action$="/editor/profile"], form[action$="/editor/theme"]'
  let previewTimer
  const preview = (form) => {
    if (!form.isConnected || !frame) return
    const files = [...form.querySelectorAll('input[type="file"]:not([disabled])')]
    for (const f of files) f.disabled = true
    const action = form.getAttribute('action')
    const url = new URL(form.action)
    url.searchParams.set('preview', '1')
    form.setAttribute('action', url.href)
    form.setAttribute('target', frame.name)
    HTMLFormElement.prototype.submit.call(form)
    form.setAttribute('action', action)
    form.removeAttribute('target')
    for (const f of files) f.disabled = false
  }
  const previewSoon = (event) => {
    const form = event.target.form
    if (!form?.matches(previewed)) return
    clearTimeout(previewTimer)
    previewTimer = setTimeout(() => preview(form), 300)
  }
  root.addEventListener('input', previewSoon)
  root.addEventListener('change', previewSoon)

  // On a narrow screen the preview is behind a button, over the editor while it is open.
  const aside = root.querySelector('.ed-preview')
  const opener = root.querySelector('.ed-preview-open')
  const closer = root.querySelector('.ed-preview-close')
  if (aside && opener && closer) {
    root.classList.add('ed-js')
    opener.hidden = false
    closer.hidden = false
    const showPreview = (shown) => {
      root.classList.toggle('ed-preview-shown', shown)
      opener.setAttribute('aria-expanded', String(shown))
      const main = root.querySelector('.ed-layout > .ed-main')
      if (main) main.inert = shown
      ;(shown ? closer : opener).focus()
    }
    opener.addEventListener('click', () => showPreview(true))
    closer.addEventListener('click', () => showPreview(false))
    aside.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && root.classList.contains('ed-preview-shown')) showPreview(false)
    })
  }

  enhance()
  addEventListener('popstate', () => location.reload())
})()
