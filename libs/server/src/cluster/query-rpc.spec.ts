import * as http from 'node:http';
import { isQuarryError } from '@quarry/common';
import { candidatesFor } from './share-dispatch';
import { CLUSTER_RPC_VERSION } from './membership';
import { ownerOf, rankOf } from './partition-ownership';
import { assertClusterCaller, decodeRpc, encodeRpc, QueryRpcClient, ShareFailure } from './query-rpc';

const SECRET = 'a-cluster-secret-of-32-characters!';

describe('cluster query RPC', () => {
  const servers: http.Server[] = [];
  afterAll(() =>
    servers.forEach((s) => {
      s.closeAllConnections();
      s.close();
    }),
  );

  /** A fake query node answering every request with `answer`. */
  async function node(answer: (res: http.ServerResponse) => void): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  const share = () => ({
    node: { kind: 'aggregate' } as never,
    dataset: 'd',
    blocks: [],
    limits: {},
    deadlineMs: Date.now() + 5_000,
  });

  it('checks the cluster secret (constant time) and the RPC version of a caller', () => {
    const ok = { 'x-quarry-cluster-secret': SECRET, 'x-quarry-rpc-version': String(CLUSTER_RPC_VERSION) };
    const outcome = (headers: Record<string, string>, secret: string | undefined) => {
      try {
        assertClusterCaller(secret, headers);
      } catch (err) {
        return isQuarryError(err) ? [err.kind, err.code] : err;
      }
      return 'accepted';
    };
    expect(outcome(ok, SECRET)).toBe('accepted');
    const badSecret = ['forbidden', 'cluster_secret_invalid'];
    expect(outcome({ ...ok, 'x-quarry-cluster-secret': 'wrong' }, SECRET)).toEqual(badSecret);
    expect(outcome({ 'x-quarry-rpc-version': '1' }, SECRET)).toEqual(badSecret);
    expect(outcome(ok, undefined)).toEqual(badSecret); // a node without a secret takes no RPC
    expect(outcome({ ...ok, 'x-quarry-rpc-version': '999' }, SECRET)).toEqual([
      'conflict',
      'cluster_rpc_version',
    ]);
  });

  it('round-trips partial states and refuses bodies that are not RPC values', () => {
    // What partial states hold: nested arrays, typed arrays, Maps (compared by content: V8 builds them
    // in Node's realm, not the test's).
    const value = { keys: [['a', 1]], counts: new Float64Array([1.5, 2]), groups: new Map([['k', 3]]) };
    const back = decodeRpc<typeof value>(encodeRpc(value), 'x');
    expect(back.keys).toEqual(value.keys);
    expect(Array.from(back.counts)).toEqual([1.5, 2]);
    expect([...back.groups.entries()]).toEqual([['k', 3]]);
    expect(() => decodeRpc(Buffer.from('not v8'), 'the answer')).toThrow(/not a Quarry RPC body/);
  });

  it('tells failures worth a retry elsewhere from the query’s own errors', async () => {
    const client = new QueryRpcClient(SECRET, 1_000);
    const failureOf = async (url: string) => {
      try {
        await client.aggregate(url, share());
      } catch (err) {
        return err as ShareFailure;
      }
      throw new Error('expected a failure');
    };
    const garbage = await node((res) => res.writeHead(200).end('garbage'));
    expect((await failureOf(garbage)).retryable).toBe(true);
    const shapeless = await node((res) => res.writeHead(200).end(encodeRpc({ hello: 'world' })));
    expect((await failureOf(shapeless)).retryable).toBe(true);
    const crashed = await node((res) => res.writeHead(500).end('{"message":"boom"}'));
    expect((await failureOf(crashed)).retryable).toBe(true);
    const otherVersion = await node((res) => res.writeHead(409).end('{"message":"rpc version"}'));
    expect((await failureOf(otherVersion)).retryable).toBe(true);
    const silent = await node(() => undefined); // never answers
    const timedOut = await failureOf(silent);
    expect([timedOut.retryable, timedOut.message]).toEqual([
      true,
      expect.stringMatching(/did not answer within/),
    ]);
    const limit = await node((res) =>
      res
        .writeHead(400)
        .end(JSON.stringify({ code: 400, message: 'too many groups', error: 'query_limit_exceeded' })),
    );
    const own = await failureOf(limit);
    expect(own.retryable).toBe(false);
    expect([own.error.kind, own.error.code, own.error.message]).toEqual([
      'invalid',
      'query_limit_exceeded',
      'too many groups',
    ]);
  });

  it('ranks members by rendezvous hashing: removing one never reorders the others', () => {
    const members = ['a', 'b', 'c', 'd'];
    for (const key of ['block-1', 'block-2', 'block-3']) {
      const ranked = rankOf(key, members);
      expect(ownerOf(key, members)).toBe(ranked[0]);
      expect(
        rankOf(
          key,
          members.filter((m) => m !== ranked[0]),
        ),
      ).toEqual(ranked.slice(1));
    }
  });

  it('tries a share on its owner, then by rank, and always ends with the coordinator itself', () => {
    const members = ['q1', 'q2', 'q3', 'q4', 'q5'];
    for (const key of ['k1', 'k2', 'k3', 'k4']) {
      const owner = ownerOf(key, members)!;
      const candidates = candidatesFor(owner, key, members, 'q1');
      expect(candidates[0]).toBe(owner);
      expect(candidates).toHaveLength(3);
      expect(candidates).toContain('q1');
      expect(new Set(candidates).size).toBe(3);
    }
  });
});
