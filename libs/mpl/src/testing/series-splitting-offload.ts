import type { MetricsSource } from '@quarry/contracts';
import type { MplFramePart, MplOffload } from '../exec/series-split';
import { runMplPart, type MplRunOptions } from '../mpl';

/**
 * For tests: an `MplOffload` that splits every splittable part over `nodes` imaginary nodes as query
 * nodes split it — each node's part computed by `runMplPart` over the series a hash gives it, passed
 * through `structuredClone` (what crosses the RPC), in a shuffled order (nodes answer in any order).
 */
export function seriesSplittingOffload(
  text: string,
  options: Omit<MplRunOptions, 'offload' | 'source'> & { source: MetricsSource },
  nodes = 3,
): MplOffload & { splits: number } {
  const offload = {
    splits: 0,
    split(part: number): Promise<MplFramePart[]> {
      offload.splits++;
      const shares = Array.from({ length: nodes }, (_, node) =>
        runMplPart(
          text,
          options,
          part,
          (metric, tags) => hash(metric + JSON.stringify(tags)) % nodes === node,
        ),
      );
      return Promise.all(shares).then((parts) => structuredClone(parts).reverse());
    },
  };
  return offload;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
