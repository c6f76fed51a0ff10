import { QuarryError } from '@quarry/common';
import { runApl, validateApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const catalog = new MemoryCatalog({
  ds: [
    { _time: '2024-05-01T00:00:00Z', id: 1, msg: 'disk error on sda', host: 'web-1', code: 500 },
    { _time: '2024-05-01T01:00:00Z', id: 2, msg: 'Connection ERROR', host: 'db-1', code: 200 },
    { _time: '2024-05-01T02:00:00Z', id: 3, msg: 'errors everywhere', host: 'web-2', code: 404 },
    { _time: '2024-05-01T03:00:00Z', id: 4, msg: 'all good: terror', host: 'web-1', code: 200 },
    { _time: '2024-05-01T04:00:00Z', id: 5, msg: 'err0r typo', host: 'db-2', code: 503 },
  ],
});
const opts: RunAplOptions = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  catalog,
};

async function ids(predicate: string): Promise<number[]> {
  const out = await runApl(`ds | search ${predicate} | sort by id asc | project id`, opts);
  return out.tables[0].columns[0] as number[];
}

describe('search terms', () => {
  it('Field:"x" applies has to one field only', async () => {
    expect(await ids('host:"web"')).toEqual([1, 3, 4]);
    expect(await ids('msg:"error"')).toEqual([1, 2]);
    expect(await ids('code:200')).toEqual([2, 4]);
    expect(await ids('msg:"err*"')).toEqual([1, 2, 3, 5]);
  });

  it('inner wildcards and ? become a word-bounded regex', async () => {
    // "err*or": a word starting with err and a word ending in or, on the same text.
    expect(await ids('"err*or"')).toEqual([1, 2]);
    expect(await ids('"err?r"')).toEqual([1, 2, 5]);
    expect(await ids('"*rr?r"')).toEqual([1, 2, 4, 5]);
    expect(await ids('kind=case_sensitive "ERR?R"')).toEqual([2]);
  });

  it('and / or / not combine terms', async () => {
    expect(await ids('"error" and host:"web"')).toEqual([1]);
    expect(await ids('"good" or code:503')).toEqual([4, 5]);
    expect(await ids('not "error"')).toEqual([3, 4, 5]);
    expect(await ids('not(host:"web") and "err*"')).toEqual([2, 5]);
    expect(await ids('*')).toEqual([1, 2, 3, 4, 5]);
  });

  it('a Field: term must be a literal', async () => {
    const err = await runApl('ds | search host:strcat("w")', opts).catch((e: QuarryError) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('apl_invalid_argument');
    expect(() => validateApl('ds | where host:"x"')).toThrow(QuarryError);
  });
});
