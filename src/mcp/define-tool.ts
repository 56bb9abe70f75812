import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import type { Ability } from '../auth/principal.ts'
import type { LimitGroup } from '../core/use-cases.ts'

/** What a tool handler works with: the app and who is calling. Never the HTTP request. */
export interface ToolContext {
  ctx: AppContext
  principal: Principal
}

/** The four MCP tool hints, every one given on purpose: a client decides from them what to ask its user. */
export interface ToolAnnotations {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

/** A handler's answer: `structured` must match outputSchema; `text` is the short line for models that read text. */
export interface ToolAnswer<O> {
  structured: O
  text: string
}

export interface ToolDef<I extends TObject = TObject, O extends TObject = TObject> {
  /** snake_case verb_noun, the file name with `_` for `-`. */
  name: string
  title: string
  /** What it does, when to use it, which call comes first, and one example. */
  description: string
  /** The ability a credential needs for this tool (an OAuth grant's scope). */
  scope: Ability
  /** What arguments are validated with: the REST route's TypeBox schema plus the tool's own fields. */
  inputSchema: I
  /**
   * What models are shown, when it says more than inputSchema (slot data as one schema per type
   * from the registry). Must accept what inputSchema accepts; defaults to inputSchema.
   */
  advertisedInput?: TSchema
  outputSchema: O
  /**
   * Whether clients are shown outputSchema. Every schema costs each conversation its tokens, so
   * only small answers a program branches on are advertised; the rest still return
   * structuredContent that matches outputSchema (checked by tests).
   */
  advertiseOutput?: boolean
  annotations: ToolAnnotations
  /**
   * What to do instead when its arguments are over ARGUMENT_LIMITS.bytes (mcp/argument-limits.ts),
   * added to the refusal; `{public_base}` is where the service runs.
   */
  whenTooLarge?: string
  /** An extra per-token rate-limit group of the REST API that this tool's work counts against. */
  limit?: LimitGroup
  handler: (input: Static<I>, tc: ToolContext) => Promise<ToolAnswer<Static<O>>>
}

export type AnyToolDef = ToolDef<TObject, TObject>

/** Identity helper: checks a tool module against ToolDef and keeps its precise types. */
export const defineTool = <I extends TObject, O extends TObject>(def: ToolDef<I, O>): ToolDef<I, O> => def
