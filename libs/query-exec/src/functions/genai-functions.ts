/**
 * GenAI message-array functions (apl.md §9.9; semantics from Axiom's function pages). A conversation is
 * a dynamic array of messages `{role, content, tool_calls?}`; `content` may be a string or an array of
 * parts whose `text` members are joined.
 */
import type { ScalarImpl } from './scalar-impl';

type Message = Record<string, unknown>;

function messagesOf(v: unknown): Message[] | null {
  if (!Array.isArray(v)) return null;
  return v.filter((m): m is Message => m !== null && typeof m === 'object' && !Array.isArray(m));
}

/** A message's text: a string content, or the `text` of each part of an array content, joined. */
function contentOf(m: Message): string | null {
  const c = m.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    return c
      .map((p) => (typeof p === 'string' ? p : p && typeof p === 'object' ? (p as Message).text : null))
      .filter((t): t is string => typeof t === 'string')
      .join('');
  }
  return c === undefined || c === null ? null : JSON.stringify(c);
}

function at(messages: Message[], index: unknown): Message | null {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return null;
  return messages[index] ?? null;
}

/** Content of the first (or last) message with `role`; "" when there is none (Axiom's extract_* pages). */
function byRole(role: string, last: boolean): ScalarImpl {
  return ([v]) => {
    const messages = messagesOf(v);
    if (messages === null) return null;
    const list = last ? [...messages].reverse() : messages;
    const m = list.find((x) => x.role === role);
    return m ? (contentOf(m) ?? '') : '';
  };
}

export const GENAI_FUNCTIONS: Record<string, ScalarImpl> = {
  genai_concat_contents: ([v, sep]) => {
    const messages = messagesOf(v);
    if (messages === null) return null;
    const separator = typeof sep === 'string' ? sep : ' ';
    return messages
      .map(contentOf)
      .filter((c): c is string => c !== null)
      .join(separator);
  },
  genai_extract_user_prompt: byRole('user', true),
  genai_extract_assistant_response: byRole('assistant', true),
  genai_extract_system_prompt: byRole('system', false),
  genai_get_content_by_index: ([v, i]) => {
    const messages = messagesOf(v);
    const m = messages === null ? null : at(messages, i);
    return m === null ? null : contentOf(m);
  },
  genai_get_content_by_role: ([v, role]) => {
    const messages = messagesOf(v);
    if (messages === null || typeof role !== 'string') return null;
    const m = messages.find((x) => x.role === role);
    return m ? contentOf(m) : null;
  },
  genai_get_role: ([v, i]) => {
    const messages = messagesOf(v);
    const m = messages === null ? null : at(messages, i);
    return m === null || typeof m.role !== 'string' ? null : m.role;
  },
  genai_message_roles: ([v]) => {
    const messages = messagesOf(v);
    return messages === null ? null : messages.map((m) => (typeof m.role === 'string' ? m.role : null));
  },
  genai_has_tool_calls: ([v]) => {
    const messages = messagesOf(v);
    if (messages === null) return null;
    return messages.some((m) => Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
  },
};
