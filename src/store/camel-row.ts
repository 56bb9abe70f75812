/** `bg_image` → `bgImage`, as a type. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S

/** A row with its columns renamed to camelCase: what a repository's record is derived from. */
export type CamelCased<Row> = { [K in keyof Row as K extends string ? CamelCase<K> : never]: Row[K] }

// The same few dozen column names come back in every row: each is renamed once, so mapping a
// row is one plain loop of lookups (slots and profiles are mapped on the hottest reads).
const camelNames = new Map<string, string>()

function camelName(column: string): string {
  let name = camelNames.get(column)
  if (name === undefined) {
    name = column.replace(/_(.)/g, (_, c: string) => c.toUpperCase())
    camelNames.set(column, name)
  }
  return name
}

/**
 * The row with every column renamed to camelCase and its value as the driver returned it, so
 * snake_case ends here. `convert` gives, by camelCase name, the values of the columns that are
 * not taken as they are (JSON text, 0/1 flags); they replace the row's.
 */
export function camelRow<Row extends object>(row: Row): CamelCased<Row>
export function camelRow<Row extends object, Converted extends { [K in keyof CamelCased<Row>]?: unknown }>(
  row: Row,
  convert: Converted,
): Omit<CamelCased<Row>, keyof Converted> & Converted
export function camelRow(row: Record<string, unknown>, convert?: object): object {
  const out: Record<string, unknown> = {}
  for (const column in row) out[camelName(column)] = row[column]
  return convert ? Object.assign(out, convert) : out
}
