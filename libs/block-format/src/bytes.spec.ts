import fc from 'fast-check';
import { ByteWriter } from './bytes';

/** What lengthPrefixedUtf8 replaces: TextEncoder bytes after their varint length. */
function reference(strings: string[]): Uint8Array {
  const w = new ByteWriter(4);
  for (const s of strings) {
    const bytes = new TextEncoder().encode(s);
    w.varint(bytes.length);
    w.bytes(bytes);
  }
  return w.finish();
}

function written(strings: string[]): Uint8Array {
  const w = new ByteWriter(4);
  for (const s of strings) w.lengthPrefixedUtf8(s);
  return w.finish();
}

describe('ByteWriter.lengthPrefixedUtf8', () => {
  it('writes what TextEncoder and varint write, for any strings', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 200 }),
            fc.string({ unit: 'grapheme', maxLength: 150 }),
            fc.string({ unit: 'binary', maxLength: 60 }), // includes lone surrogates
          ),
          { maxLength: 8 },
        ),
        (strings) => {
          expect(written(strings)).toEqual(reference(strings));
        },
      ),
    );
  });

  it('handles the ASCII fast path boundaries and a non-ASCII char after ASCII', () => {
    const strings = ['', 'a'.repeat(127), 'a'.repeat(128), 'x'.repeat(126) + 'é', 'abc\u{1F600}', '\ud800'];
    expect(written(strings)).toEqual(reference(strings));
  });
});
