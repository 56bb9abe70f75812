import { readFileSync } from 'node:fs'

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8').trim()

/** The editor's own stylesheet and script, inlined after the dashboard's (see layout's `own`); the preview is framed from 'self'. */
export const EDITOR_ASSETS = Object.freeze({ css: read('./editor.css'), script: read('./editor.js'), frameSelf: true })
