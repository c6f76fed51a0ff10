import { aplCompletions, datasetOf, typeWord } from './completion';

const context = {
  datasets: ['sample', 'http-logs'],
  fields: [
    { name: 'status', type: 'integer' },
    { name: 'method', type: 'string' },
    { name: 'geo.city', type: 'string' },
  ],
};
const labels = (before: string, explicit = false) =>
  aplCompletions(before, context, explicit)?.options.map((o) => o.label) ?? null;

describe('APL completion', () => {
  it('offers tabular operators after a pipe, from the start of the word', () => {
    const result = aplCompletions("['sample'] | w", context)!;
    expect(result.from).toBe("['sample'] | ".length);
    expect(result.options.map((o) => o.label)).toContain('where');
    expect(result.options.every((o) => o.detail === 'operator')).toBe(true);
    expect(labels("['sample'] |")).toContain('summarize');
  });

  it('offers the dataset fields, functions and keywords inside an operator', () => {
    const options = labels("['sample'] | where sta")!;
    expect(options).toContain('status');
    expect(options).toContain('strlen');
    expect(options).toContain('and');
    const field = aplCompletions("['sample'] | where g", context)!.options.find(
      (o) => o.label === 'geo.city',
    )!;
    expect(field.apply).toBe("['geo.city']");
    expect(field.detail).toBe('string');
  });

  it('puts aggregations first inside summarize, and not after by', () => {
    expect(labels("['sample'] | summarize c")!.slice(0, 3)).toEqual(['status', 'method', 'geo.city']);
    const afterFields = labels("['sample'] | summarize c")!.slice(3, 6);
    expect(afterFields).toEqual(['count', 'countif', 'dcount']);
    expect(labels("['sample'] | summarize count() by b")!.slice(3, 5)).toEqual(['bin', 'bin_auto']);
  });

  it("offers dataset names at the start and inside ['…", () => {
    expect(labels('')).toEqual(["['sample']", "['http-logs']"]);
    const inside = aplCompletions("['sa", context)!;
    expect(inside.from).toBe(2);
    expect(inside.options.map((o) => o.label)).toEqual(['sample', 'http-logs']);
  });

  it('stays quiet after a space unless asked', () => {
    expect(aplCompletions("['sample'] | where status ", context)).toBeNull();
    expect(labels("['sample'] | where status ", true)).toContain('method');
  });

  it('finds the dataset a query reads', () => {
    expect(datasetOf("['http-logs'] | take 1")).toBe('http-logs');
    expect(datasetOf('// comment\nsample | take 1')).toBe('sample');
    expect(datasetOf('print 1 + 1')).toBeNull();
  });

  it('names field types as words', () => {
    expect(typeWord('integer')).toBe('integer');
    expect(typeWord('float')).toBe('real');
    expect(typeWord('bool')).toBe('boolean');
    expect(typeWord('datetime')).toBe('datetime');
    expect(typeWord('string|integer')).toBe('string | integer');
  });
});
