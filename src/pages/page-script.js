// Click-to-load YouTube: the thumbnail is a plain link to the video (works without script);
// here a click swaps in the privacy-enhanced player instead, and still counts the click by
// fetching the same redirect without following it.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('.slot-youtube-frame > a') : null
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const frame = link.parentElement
  const src = frame.dataset.embedUrl || ''
  if (!src.startsWith('https://www.youtube-nocookie.com/embed/')) return
  event.preventDefault()
  fetch(link.href, { redirect: 'manual', credentials: 'same-origin', keepalive: true }).catch(() => {})
  const player = document.createElement('iframe')
  player.src = src
  player.title = frame.dataset.title || 'YouTube video'
  player.allow = 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share'
  player.allowFullscreen = true
  player.referrerPolicy = 'strict-origin-when-cross-origin'
  frame.replaceChildren(player)
  player.focus()
})

// Spam guard's time check: how long the page was open when a form is sent (see form-guard.ts).
document.addEventListener('submit', (event) => {
  const elapsed = event.target instanceof HTMLFormElement ? event.target.elements.namedItem('_e') : null
  if (elapsed instanceof HTMLInputElement) elapsed.value = String(Math.round(performance.now()))
})
