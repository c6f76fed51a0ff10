import {
  autocompletion,
  closeBrackets,
  completionKeymap,
  type CompletionContext as CmContext,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, syntaxHighlighting, bracketMatching } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderExt } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { aplCompletions, type CompletionContext } from '../apl/completion';
import { startState, tokenize, type AplTokenState } from '../apl/apl-tokenizer';

/** APL for CodeMirror: our stream tokenizer, with its token types mapped to highlight tags. */
export const aplLanguage = StreamLanguage.define<AplTokenState>({
  name: 'apl',
  startState,
  token: (stream, state) => {
    const type = tokenize(stream, state);
    return type === null ? null : TOKEN_TAG[type]!;
  },
  copyState: (state) => ({ ...state }),
  languageData: { commentTokens: { line: '//' } },
});

const TOKEN_TAG: Record<string, string> = {
  comment: 'comment',
  string: 'string',
  number: 'number',
  dataset: 'typeName',
  operator: 'keyword',
  keyword: 'operatorKeyword',
  function: 'variableName.function',
  field: 'variableName',
  pipe: 'punctuation',
  punctuation: 'punctuation',
};

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#7c3aed', fontWeight: '600' },
  { tag: tags.operatorKeyword, color: '#9d174d' },
  { tag: tags.function(tags.variableName), color: '#1d4ed8' },
  { tag: tags.string, color: '#047857' },
  { tag: tags.number, color: '#b45309' },
  { tag: tags.typeName, color: '#0e7490', fontWeight: '600' },
  { tag: tags.comment, color: '#6b7280', fontStyle: 'italic' },
  { tag: tags.punctuation, color: '#374151' },
]);

export interface AplEditorProps {
  value: string;
  onChange(value: string): void;
  onRun(): void;
  /** The accessible name ("APL query" on the Query page and in dashboard chart forms). */
  label: string;
  completion: CompletionContext;
  /** A server error at 1-based line/column, underlined in the editor. */
  error?: { line: number; column: number; message: string } | null;
  placeholder?: string;
  minLines?: number;
}

export default function AplEditor(props: AplEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is built once; the latest callbacks and completion data are read through refs.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const complete = (ctx: CmContext) => {
      const before = ctx.state.sliceDoc(0, ctx.pos);
      const result = aplCompletions(before, latest.current.completion, ctx.explicit);
      if (!result || result.options.length === 0) return null;
      return { from: result.from, options: result.options, validFor: /^[A-Za-z0-9_-]*$/ };
    };
    const run = () => {
      latest.current.onRun();
      return true;
    };
    const state = EditorState.create({
      doc: props.value,
      extensions: [
        // Run wins over CodeMirror's own Mod-Enter (insert blank line) and over completion's Enter.
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run, preventDefault: true }])),
        history(),
        closeBrackets(),
        bracketMatching(),
        autocompletion({ override: [complete], activateOnTyping: true, icons: false }),
        keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
        aplLanguage,
        syntaxHighlighting(highlight),
        lintGutter(),
        placeholderExt(props.placeholder ?? "['dataset'] | where … | summarize count() by bin_auto(_time)"),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          'aria-label': props.label,
          spellcheck: 'false',
          autocapitalize: 'off',
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current.onChange(update.state.doc.toString());
        }),
        EditorView.theme({
          '&': { minHeight: `${(props.minLines ?? 3) * 1.5}em`, fontSize: '14px' },
          '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        }),
      ],
    });
    const editor = new EditorView({ state, parent: host.current! });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // A value set from outside (a link, a starred query) replaces the document.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== props.value)
      editor.dispatch({ changes: { from: 0, to: current.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const error = props.error;
    if (!error) {
      editor.dispatch(setDiagnostics(editor.state, []));
      return;
    }
    const doc = editor.state.doc;
    const line = doc.line(Math.min(Math.max(1, error.line), doc.lines));
    const from = Math.min(line.from + Math.max(0, error.column - 1), line.to);
    const word = /^[\w'"[\]-]+/.exec(doc.sliceString(from, line.to));
    const to = Math.min(line.to, from + Math.max(1, word ? word[0].length : 1));
    editor.dispatch(
      setDiagnostics(editor.state, [
        { from, to: Math.max(to, from), severity: 'error', message: error.message },
      ]),
    );
  }, [props.error]);

  return <div className="apl-editor" ref={host} />;
}
