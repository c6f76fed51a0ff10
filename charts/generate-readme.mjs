#!/usr/bin/env node
// Writes each chart's README.md from its README.md.gotmpl and the `# --` comments of its values.yaml
// (helm-docs' conventions, without the helm-docs binary): a table of every value with its type, default
// and description. A value without a `# --` comment is an error, so every key stays documented.
//   node charts/generate-readme.mjs          write charts/*/README.md
//   node charts/generate-readme.mjs --check  exit 1 when a README is out of date (test/charts runs this)
// Conventions: `# -- text` documents the key below it (continued by the following `#` lines);
// `# @default -- text` replaces the shown default. A documented map whose children carry no `# --` is
// shown as one value; otherwise its children are listed one by one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, parseDocument } from 'yaml';
import * as prettier from 'prettier';

const chartsDir = path.dirname(fileURLToPath(import.meta.url));
const CHARTS = ['quarry', 'quarry-operator'];

/** The `# --` block of a comment: the last paragraph that starts with `--`, as text and @default. */
function parseComment(comment) {
  if (!comment) return undefined;
  const lines = comment.split('\n').map((l) => l.replace(/^ /, ''));
  const start = lines.findLastIndex((l) => l.startsWith('-- '));
  if (start < 0) return undefined;
  const text = [];
  let defaultText;
  for (const line of lines.slice(start)) {
    if (line.trim() === '') break;
    const shownDefault = /^@default -- (.*)$/.exec(line);
    if (shownDefault) defaultText = shownDefault[1];
    else text.push(line.replace(/^-- /, '').trim());
  }
  return { description: text.join(' '), defaultText };
}

function typeOf(value) {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'string';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

function hasDocumentedChild(map) {
  return map.items.some((pair, i) => {
    const comment = pair.key?.commentBefore ?? (i === 0 ? map.commentBefore : undefined);
    return parseComment(comment) !== undefined || (isMap(pair.value) && hasDocumentedChild(pair.value));
  });
}

/** Rows of the values table, and the keys that have no description. */
function collect(map, prefix, rows, missing) {
  map.items.forEach((pair, i) => {
    const key = `${prefix}${pair.key.value}`;
    // The first key of a nested map: yaml attaches the comment above it to the map.
    const doc = parseComment(pair.key.commentBefore ?? (i === 0 ? map.commentBefore : undefined));
    const value = pair.value;
    if (isMap(value) && value.items.length > 0 && hasDocumentedChild(value)) {
      collect(value, `${key}.`, rows, missing);
      return;
    }
    if (!doc) {
      missing.push(key);
      return;
    }
    const plain = value?.toJSON ? value.toJSON() : (value?.value ?? null);
    const shown = doc.defaultText ?? `\`${JSON.stringify(plain)}\``;
    rows.push({ key, type: typeOf(plain), default: shown, description: doc.description });
  });
}

const escapeCell = (text) => text.replace(/\|/g, '\\|');

async function render(chart) {
  const dir = path.join(chartsDir, chart);
  const values = parseDocument(fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8'));
  const chartYaml = parseDocument(fs.readFileSync(path.join(dir, 'Chart.yaml'), 'utf8')).toJSON();
  const rows = [];
  const missing = [];
  collect(values.contents, '', rows, missing);
  if (missing.length > 0) {
    throw new Error(`${chart}/values.yaml: no "# --" description for ${missing.join(', ')}`);
  }
  const table = [
    '| Key | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| \`${r.key}\` | ${r.type} | ${escapeCell(r.default)} | ${escapeCell(r.description)} |`,
    ),
  ].join('\n');
  const template = fs.readFileSync(path.join(dir, 'README.md.gotmpl'), 'utf8');
  const text = template
    .replaceAll('{{ name }}', chartYaml.name)
    .replaceAll('{{ version }}', chartYaml.version)
    .replaceAll('{{ appVersion }}', chartYaml.appVersion)
    .replaceAll('{{ description }}', chartYaml.description.trim())
    .replaceAll('{{ valuesTable }}', table);
  const file = path.join(dir, 'README.md');
  const options = (await prettier.resolveConfig(file)) ?? {};
  return { file, text: await prettier.format(text, { ...options, filepath: file }) };
}

const check = process.argv.includes('--check');
let stale = 0;
for (const chart of CHARTS) {
  const { file, text } = await render(chart);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current === text) continue;
  if (check) {
    console.error(
      `${path.relative(process.cwd(), file)} is out of date: run node charts/generate-readme.mjs`,
    );
    stale++;
  } else {
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
