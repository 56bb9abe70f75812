/**
 * CSV as spreadsheets open it: RFC 4180 (CRLF rows, fields quoted when they hold a quote, comma
 * or line break, quotes doubled), UTF-8 with a byte order mark so Excel reads the accents right.
 */

const BOM = '\uFEFF'

/**
 * A cell that starts like a formula is read as one by Excel, LibreOffice and Sheets
 * (`=HYPERLINK(…)` in a form answer would become a live link). A leading apostrophe makes them
 * show it as text (OWASP, CSV injection). Tab and carriage return start formulas too.
 */
export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)

/** Numbers are written as they are; every text cell is neutralised, then quoted if needed. */
export function csv(rows: Array<Array<string | number>>): string {
  return BOM + rows.map((row) => row.map((c) => (typeof c === 'number' ? String(c) : quote(neutralise(c)))).join(',')).join('\r\n') + '\r\n'
}
