// The public page's script: this page-wide part, then each block type's `script`
// (src/slots/<type>.ts), each in a function of its own (src/rendering/theme.ts). Every block works
// without it.

// A block that handles a click itself, instead of following its link, still counts the click:
// it requests the same click redirect without following it.
// biome-ignore lint/correctness/noUnusedVariables: the block types' scripts, appended after this one, call it.
const countClick = (link) => {
  fetch(link.href, { redirect: 'manual', credentials: 'same-origin', keepalive: true }).catch(() => {})
}
