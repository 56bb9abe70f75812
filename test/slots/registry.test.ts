import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { TSchema } from '@sinclair/typebox'
import { compileBody } from '../../src/kernel/validation.ts'
import { slotTypes, writableTypes } from '../../src/slots/registry.ts'
import { h } from '../../src/slots/shared/html.ts'
import { wireSchema } from '../../src/slots/shared/schema-parts.ts'
import { SLOT_TYPES, type SlotType } from '../../src/slots/types.ts'
import { STORE } from '../helpers/app.ts'

const SCRIPT = '<script>alert(1)</script>'
const records: Partial<Record<SlotType, unknown>> = {
  event: {
    id: 1,
    title: SCRIPT,
    description: SCRIPT,
    startsAt: '2026-03-14T19:30:00.000Z',
    endsAt: '2026-03-14T23:00:00.000Z',
    timezone: 'UTC',
    location: SCRIPT,
    link: 'https://tickets.example.com',
  },
  form: {
    id: 1,
    title: SCRIPT,
    description: SCRIPT,
    fields: [{ name: '"><script>x()</script>', label: SCRIPT, type: 'text', required: true }],
    submitLabel: SCRIPT,
  },
}
const r = (type: SlotType) => ({ h, clickHref: (id: number, i: number) => `/go/${id}/${i}`, fileUrl: (p: string) => `/static/${p}`, record: records[type] })

/** Every enum in a schema, by field path (array items as `[]`). */
function enums(schema: any, path = ''): Array<[string, string[]]> {
  if (!schema || typeof schema !== 'object') return []
  const out: Array<[string, string[]]> = []
  if (Array.isArray(schema.enum)) out.push([path, schema.enum])
  for (const [key, child] of Object.entries<any>(schema.properties ?? {})) out.push(...enums(child, path ? `${path}.${key}` : key))
  if (schema.items) out.push(...enums(schema.items, `${path}[]`))
  for (const branch of schema.anyOf ?? []) out.push(...enums(branch, path))
  return out
}

/** Leaf field paths of a schema (array items as `[]`). */
function leaves(schema: any, path = ''): string[] {
  if (schema?.properties) return Object.entries<any>(schema.properties).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k))
  if (schema?.items) return leaves(schema.items, `${path}[]`)
  if (schema?.anyOf) return schema.anyOf.flatMap((b: any) => (b.type === 'null' ? [] : leaves(b, path)))
  return path ? [path] : []
}

/** Every string inside data replaced by the payload (shape kept). */
function taint(value: unknown): unknown {
  if (typeof value === 'string') return SCRIPT
  if (Array.isArray(value)) return value.map(taint)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, taint(v)]))
  return value
}

describe(`slot type registry (${STORE})`, () => {
  it('holds the ten types of the spec, each under its own name', () => {
    assert.deepEqual(Object.keys(slotTypes), [...SLOT_TYPES])
    for (const [name, def] of Object.entries(slotTypes)) assert.equal(def.type, name)
  })

  it('makes event and form read-only and every other type writable', () => {
    assert.deepEqual(writableTypes, ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'divider', 'music'])
  })

  it('gives every type a title and a description that says how to write it', () => {
    for (const def of Object.values(slotTypes)) {
      assert.ok(def.title.length > 2, def.type)
      assert.ok(def.description.length >= 80 && def.description.length <= 1200, `${def.type}: ${def.description.length} characters`)
    }
  })

  it('has data schemas that refuse unknown properties at every level', () => {
    const open = (schema: any, path: string): string[] => {
      if (!schema || typeof schema !== 'object') return []
      const here = schema.type === 'object' && schema.additionalProperties !== false ? [path] : []
      return [
        ...here,
        ...Object.entries<any>(schema.properties ?? {}).flatMap(([k, v]) => open(v, `${path}.${k}`)),
        ...(schema.items ? open(schema.items, `${path}[]`) : []),
        ...(schema.anyOf ?? []).flatMap((b: any) => open(b, path)),
      ]
    }
    for (const def of Object.values(slotTypes)) assert.deepEqual(open(wireSchema(def.schema), def.type), [])
  })

  it('validates every example against its own schema, and its rules keep it as it is', () => {
    for (const def of Object.values(slotTypes)) {
      const validate = compileBody(wireSchema(def.schema) as TSchema)
      assert.ok(validate(def.example), `${def.type}: ${JSON.stringify(validate.errors)}`)
      assert.deepEqual(def.normalise(structuredClone(def.example)), def.example, def.type)
    }
  })

  it('labels every enum value, and labels nothing else', () => {
    for (const def of Object.values(slotTypes)) {
      const found = enums(wireSchema(def.schema))
      assert.deepEqual(Object.keys(def.enumLabels).sort(), found.map(([path]) => path).sort(), def.type)
      for (const [path, values] of found) {
        assert.deepEqual(Object.keys(def.enumLabels[path]).sort(), [...values].sort(), `${def.type}.${path}`)
        for (const label of Object.values(def.enumLabels[path])) assert.ok(label.trim().length > 0)
      }
    }
  })

  it('keeps data and computed field names apart', () => {
    for (const def of Object.values(slotTypes)) {
      const data = new Set(leaves(wireSchema(def.schema)))
      const overlap = leaves(wireSchema(def.computed)).filter((k) => data.has(k))
      assert.deepEqual(overlap, [], def.type)
    }
  })

  it('reports the computed fields the architecture promises', () => {
    const computed = (type: SlotType) => leaves(wireSchema(slotTypes[type].computed))
    assert.deepEqual(computed('youtube'), ['videoId', 'embedUrl', 'thumbnailUrl'])
    assert.deepEqual(computed('picture'), ['src'])
    assert.deepEqual(computed('gallery'), ['items[].src'])
    assert.deepEqual(computed('button'), ['url'])
    assert.ok(computed('music').includes('links[].platform') && computed('music').includes('links[].icon'))
  })

  it('computes fields matching the computed schema from every example', () => {
    for (const def of Object.values(slotTypes)) {
      const validate = compileBody(wireSchema(def.computed) as TSchema)
      const computed = def.compute(def.example, r(def.type))
      assert.ok(validate(computed), `${def.type}: ${JSON.stringify(validate.errors)}`)
    }
  })

  it('never lets a <script> payload survive html, whatever the strings in data and records hold', () => {
    for (const def of Object.values(slotTypes)) {
      const computed = def.compute(def.example, r(def.type))
      const html = def.html({ id: 1, type: def.type, data: taint(def.example) as any, computed: taint(computed) as any }, r(def.type)).html
      assert.doesNotMatch(html, /<script/i, def.type)
      assert.doesNotMatch(html, /javascript:/i, def.type)
    }
  })

  it('sends every anchor through the click redirect with data-slot-id, one per entry of links()', () => {
    for (const def of Object.values(slotTypes)) {
      const computed = def.compute(def.example, r(def.type))
      const html = def.html({ id: 42, type: def.type, data: def.example as any, computed: computed as any }, r(def.type)).html
      const anchors = [...html.matchAll(/<a\s[^>]*>/g)].map((m) => m[0])
      const links = def.links?.(def.example, computed, records[def.type]) ?? []
      assert.equal(anchors.length, links.length, def.type)
      anchors.forEach((a, i) => {
        assert.match(a, new RegExp(`href="/go/42/${i}"`), `${def.type}: ${a}`)
        assert.match(a, /data-slot-id="42"/, `${def.type}: ${a}`)
      })
    }
  })

  it('renders every example as markdown with something to read', () => {
    for (const def of Object.values(slotTypes)) {
      const md = def.markdown({ id: 1, type: def.type, data: def.example as any, computed: def.compute(def.example, r(def.type)) as any }, records[def.type])
      assert.ok(md.trim().length > 0, def.type)
    }
  })

  it('keeps every file of src/slots/ pure: imports stay inside src/slots/, a type imports only shared/ and types.ts', () => {
    const root = fileURLToPath(new URL('../../src/slots/', import.meta.url))
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    assert.ok(files.length > SLOT_TYPES.length, 'the walk found the slot files')
    // The slot service stores slots and slot-data validates them for it: they live beside the
    // types they serve but stand on the kernel, the store and media, like any domain service.
    const services = new Set(['slot-service.ts', 'slot-data.ts'])
    for (const file of files.filter((f) => !services.has(f))) {
      const source = readFileSync(join(root, file), 'utf8')
      const isType = (SLOT_TYPES as readonly string[]).includes(file.replace(/\.ts$/, ''))
      for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (!spec.startsWith('.')) continue
        const target = relative(root, resolve(dirname(join(root, file)), spec))
        // The message catalogues are pure data every page face shares; nothing else outside src/slots/.
        // The shared kernel stands below every layer, the slots included.
        const outside = target.startsWith('..') && !target.startsWith('../i18n/') && !target.startsWith('../kernel/')
        assert.ok(!outside, `${file} imports ${spec}, outside src/slots/ (shared helpers go in slots/shared/)`)
        if (isType)
          assert.ok(
            target.startsWith('shared/') || target === 'types.ts' || target.startsWith('../kernel/'),
            `${file} imports ${spec}: a type imports only shared/ and types.ts`,
          )
      }
      assert.doesNotMatch(source, /process\.env|Date\.now|new Date\(\)|fetch\(/, file)
    }
  })
})
