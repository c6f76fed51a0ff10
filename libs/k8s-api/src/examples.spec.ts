/**
 * `crds/examples/*.yaml` must be admitted by the generated CRDs and `crds/examples/invalid/*.yaml` must
 * be rejected with the message in the `.expected` file beside each. A file with two YAML documents is an
 * update: the stored object, then the new one. `UPDATE_GOLDEN=1 npx jest libs/k8s-api` rewrites the
 * `.expected` files; read the diff before committing it.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CRDS_DIR } from './sync-crds';
import { CrdAdmission } from './testing';

const EXAMPLES_DIR = join(CRDS_DIR, 'examples');
const INVALID_DIR = join(EXAMPLES_DIR, 'invalid');
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

interface Fixture {
  readonly name: string;
  readonly comment: string;
  /** The object to admit, and the stored one for an update. */
  readonly object: unknown;
  readonly old?: unknown;
}

function loadFixtures(dir: string): Fixture[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const documents = parseAllDocuments(text).map((doc) => doc.toJS() as unknown);
      if (documents.length > 2) throw new Error(`${name}: at most two documents (stored object, new object)`);
      const comment = text.startsWith('# ') ? text.slice(2, text.indexOf('\n')) : '';
      return documents.length === 2
        ? { name, comment, old: documents[0], object: documents[1] }
        : { name, comment, object: documents[0] };
    });
}

const admission = CrdAdmission.fromDirectory(CRDS_DIR);

describe('crds/examples', () => {
  const valid = loadFixtures(EXAMPLES_DIR);

  it('covers every kind', () => {
    const kinds = new Set(valid.map((f) => (f.object as { kind: string }).kind));
    expect([...kinds].sort()).toEqual(['Dataset', 'QuarryConnection', 'Role', 'Token']);
  });

  it.each(valid.map((f) => [f.name, f] as const))('%s is admitted without warnings', (_, fixture) => {
    expect(fixture.comment).not.toBe('');
    if (fixture.old !== undefined) expect(admission.admit(fixture.old)).toMatchObject({ ok: true });
    const result = admission.admit(fixture.object, fixture.old);
    if (!result.ok) throw new Error(result.message);
    // A warning means an unknown (pruned) field: a typo in the example.
    expect(result.warnings).toEqual([]);
  });
});

describe('crds/examples/invalid', () => {
  const invalid = loadFixtures(INVALID_DIR);

  it('has an .expected file for every fixture and a fixture for every .expected file', () => {
    const fixtures = invalid.map((f) => f.name.replace(/\.yaml$/, ''));
    const expected = readdirSync(INVALID_DIR)
      .filter((name) => name.endsWith('.expected'))
      .map((name) => name.replace(/\.expected$/, ''));
    if (!UPDATE_GOLDEN) expect(expected.sort()).toEqual(fixtures.sort());
  });

  it.each(invalid.map((f) => [f.name, f] as const))(
    '%s is rejected with its golden message',
    (_, fixture) => {
      expect(fixture.comment).not.toBe('');
      // The stored object of an update fixture is itself valid: only the change breaks a rule.
      if (fixture.old !== undefined) expect(admission.admit(fixture.old)).toMatchObject({ ok: true });
      const result = admission.admit(fixture.object, fixture.old);
      if (result.ok) throw new Error(`${fixture.name} was admitted; it should break: ${fixture.comment}`);
      expect(result.status).toBe(422);
      const goldenPath = join(INVALID_DIR, fixture.name.replace(/\.yaml$/, '.expected'));
      if (UPDATE_GOLDEN) writeFileSync(goldenPath, `${result.message}\n`);
      if (!existsSync(goldenPath)) throw new Error(`${goldenPath} is missing: run with UPDATE_GOLDEN=1`);
      expect(result.message).toBe(readFileSync(goldenPath, 'utf8').trimEnd());
    },
  );
});
