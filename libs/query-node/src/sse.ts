/**
 * One Server-Sent Event (text/event-stream): `event:` and `id:` lines, the JSON payload on one `data:`
 * line (JSON.stringify never emits a raw newline), a blank line to end it.
 */
export function sseEvent(event: string, data: unknown, id?: string): string {
  const idLine = id === undefined ? '' : `id: ${id.replace(/[\r\n]/g, ' ')}\n`;
  return `event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`;
}
