import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8').trim()
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

const css = read('./theme.css')
const script = read('./page-script.js')

/**
 * The default theme: its stylesheet and its one progressive script, both inlined (one request
 * per page) and allowed by hash in the Content-Security-Policy rather than by 'unsafe-inline'.
 */
export const theme = Object.freeze({
  css,
  script,
  styleHash: sha256(css),
  scriptHash: sha256(script),
  themeColor: '#f3f1ec',
})
