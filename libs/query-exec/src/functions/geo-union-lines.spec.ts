/**
 * geo_union_lines_array on the sphere: lines of any extent (wider than one gnomonic projection holds),
 * across the antimeridian and over the poles, with shared stretches kept once. The fast-check seed is
 * shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import { add, angleBetween, angleToArc, normalize, toLngLat, toVec } from './geo-sphere';
import { unionLinesArray } from './geo-union-lines';

type Coordinates = [number, number][];
type Result = { type: string; coordinates: Coordinates | Coordinates[] } | null;

const line = (...coordinates: Coordinates): { type: string; coordinates: Coordinates } => ({
  type: 'LineString',
  coordinates,
});
const union = (...lines: unknown[]): Result => unionLinesArray(lines) as Result;
const linesOf = (r: Result): Coordinates[] => {
  if (r === null) throw new Error('null union');
  return r.type === 'LineString' ? [r.coordinates as Coordinates] : (r.coordinates as Coordinates[]);
};

const length = (l: Coordinates): number => {
  let sum = 0;
  for (let i = 0; i + 1 < l.length; i++) sum += angleBetween(toVec(...l[i]), toVec(...l[i + 1]));
  return sum;
};

/** Angle from a point to the nearest edge of a line. */
const nearLine = (p: [number, number], l: Coordinates): number => {
  let best = Infinity;
  for (let i = 0; i + 1 < l.length; i++)
    best = Math.min(best, angleToArc(toVec(...p), toVec(...l[i]), toVec(...l[i + 1])));
  return best;
};

/** The midpoints of a line's edges (of those with a length). */
const midpoints = (l: Coordinates): [number, number][] =>
  l.slice(1).flatMap((q, i) => {
    const m = normalize(add(toVec(...l[i]), toVec(...q)));
    if (m === null || angleBetween(toVec(...l[i]), toVec(...q)) < 1e-9) return [];
    const [lng, lat] = toLngLat(m);
    return [[lng, lat]];
  });

describe('geo_union_lines_array on the sphere', () => {
  it('cuts lines wider than 84° where they cross (an equator line and a meridian line)', () => {
    expect(union(line([-100, 0], [-30, 0], [30, 0], [100, 0]), line([0, -80], [0, 80]))).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [-100, 0],
          [-30, 0],
          [0, 0],
        ],
        [
          [0, 0],
          [30, 0],
          [100, 0],
        ],
        [
          [0, 0],
          [0, -80],
        ],
        [
          [0, 0],
          [0, 80],
        ],
      ],
    });
  });

  it('crosses the antimeridian; [180, 0] and [-180, 0] are one node', () => {
    expect(union(line([170, 10], [-170, -10]), line([170, -10], [-170, 10]))).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [170, 10],
          [180, 0],
        ],
        [
          [180, 0],
          [-170, -10],
        ],
        [
          [180, 0],
          [170, -10],
        ],
        [
          [180, 0],
          [-170, 10],
        ],
      ],
    });
    // The first of the equal positions keeps its coordinates.
    expect(union(line([170, 0], [180, 0]), line([-180, 0], [-170, 0]))).toEqual(
      line([170, 0], [180, 0], [-170, 0]),
    );
    expect(union(line([170, 0], [-170, 0]), line([180, 0], [-160, 0]))).toEqual(
      line([170, 0], [180, 0], [-170, 0], [-160, 0]),
    );
  });

  it('crosses at and near a pole', () => {
    const atPole = linesOf(union(line([0, 80], [180, 80]), line([90, 80], [-90, 80])));
    expect(atPole).toHaveLength(4);
    // The first piece ends at the pole; the other three start there.
    expect(atPole.map((l) => l.map((p) => p[1]))).toEqual([
      [80, 90],
      [90, 80],
      [90, 80],
      [90, 80],
    ]);
    // The arc from (0, 60) to (170, 60) peaks at longitude 85, where tan(lat) = tan(60°) / cos(85°); the
    // meridian arc over the pole from (85, 60) to (-95, 60) crosses it there.
    const near = linesOf(union(line([0, 60], [170, 60]), line([85, 60], [-95, 60])));
    expect(near.map((l) => l[l.length - 1])).toEqual([expect.anything(), [170, 60], [85, 60], [-95, 60]]);
    const peak = (Math.atan(Math.tan(Math.PI / 3) / Math.cos((85 * Math.PI) / 180)) * 180) / Math.PI;
    for (const p of [near[0][1], near[1][0], near[2][0], near[3][0]]) {
      expect(p[0]).toBeCloseTo(85, 12);
      expect(p[1]).toBeCloseTo(peak, 12);
    }
  });

  it('keeps overlapping stretches of one great circle once', () => {
    expect(union(line([-120, 0], [0, 0], [60, 0]), line([-60, 0], [100, 0]))).toEqual(
      line([-120, 0], [-60, 0], [0, 0], [60, 0], [100, 0]),
    );
    // A wide line and the same line reversed, in one shorter piece and one longer one.
    const wide = line([-150, 10], [-40, 30], [60, -20], [170, 5]);
    expect(union(wide, line([60, -20], [-40, 30]), line([170, 5], [60, -20], [-40, 30], [-150, 10]))).toEqual(
      wide,
    );
  });

  it('joins a closed loop into one line from its first vertex', () => {
    expect(union(line([0, 0], [120, 0], [60, 60], [0, 0]))).toEqual(line([0, 0], [120, 0], [60, 60], [0, 0]));
    // A loop about the North Pole, whose edges pass between it and no vertex.
    const polar = line([0, 70], [120, 70], [-120, 70], [0, 70]);
    expect(union(polar)).toEqual(polar);
  });

  it('answers null for an edge between antipodal points', () => {
    expect(union(line([0, 0], [180, 0]))).toBeNull();
  });

  // Wide lines on a 15° grid: they share vertices, run along the equator and meridians together, and cross.
  const step = fc.integer({ min: -4, max: 4 }).map((k) => 15 * k);
  const wideLine = fc
    .tuple(
      fc.integer({ min: -11, max: 12 }),
      fc.integer({ min: -5, max: 5 }),
      fc.array(
        fc.tuple(
          step,
          fc.integer({ min: -3, max: 3 }).map((k) => 15 * k),
        ),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
    )
    .map(([lng0, lat0, steps]) => {
      const out: Coordinates = [[15 * lng0, 15 * lat0]];
      for (const [dLng, dLat] of steps) {
        const [lng, lat] = out[out.length - 1];
        const next = lng + dLng;
        out.push([
          next > 180 ? next - 360 : next <= -180 ? next + 360 : next,
          Math.max(-75, Math.min(75, lat + dLat)),
        ]);
      }
      return out;
    })
    .filter((l) => l.some((p) => p[0] !== l[0][0] || p[1] !== l[0][1]));
  const wideLines = fc.array(wideLine, { minLength: 1, maxLength: 5 });

  it('gives back a line that does not meet itself, however wide', () => {
    // Longitude rising by under 60° an edge, under 360° in all: the edges' longitude ranges do not overlap.
    const monotone = fc
      .tuple(
        fc.double({ min: -180, max: -100, noNaN: true }),
        fc.array(
          fc.tuple(
            fc.double({ min: 1, max: 60, noNaN: true }),
            fc.double({ min: -80, max: 80, noNaN: true }),
          ),
          {
            minLength: 2,
            maxLength: 6,
          },
        ),
      )
      .map(([lng0, points]) => {
        let lng = lng0;
        return points.map(([d, lat], i): [number, number] => {
          if (i > 0) lng += d;
          return [lng > 180 ? lng - 360 : lng, lat];
        });
      });
    fc.assert(
      fc.property(monotone, (l) => {
        expect(union(line(...l))).toEqual(line(...l));
      }),
      { numRuns: 200 },
    );
  });

  it('a line united with itself is its own network', () => {
    fc.assert(
      fc.property(wideLine, (l) => {
        expect(union(line(...l), line(...l))).toEqual(union(line(...l)));
        expect(union(line(...l), line(...[...l].reverse()))).toEqual(union(line(...l)));
      }),
      { numRuns: 200 },
    );
  });

  it('has every input vertex, exactly, covers every input edge, and adds no piece off the input or twice', () => {
    fc.assert(
      fc.property(wideLines, (lines) => {
        const out = linesOf(union(...lines.map((l) => line(...l))));
        const vertices = new Set(out.flat().map((p) => `${p[0]},${p[1]}`));
        for (const l of lines) for (const p of l) expect(vertices).toContain(`${p[0]},${p[1]}`);
        const inputMids = lines.flatMap(midpoints);
        const outputMids = out.flatMap(midpoints);
        for (const m of inputMids) expect(Math.min(...out.map((o) => nearLine(m, o)))).toBeLessThan(1e-12);
        for (const m of outputMids) expect(Math.min(...lines.map((l) => nearLine(m, l)))).toBeLessThan(1e-12);
        // A shared stretch kept twice would come as two pieces with one midpoint.
        outputMids.forEach((m, k) =>
          outputMids
            .slice(k + 1)
            .forEach((n) => expect(angleBetween(toVec(...m), toVec(...n))).toBeGreaterThan(1e-9)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of the array', () => {
    fc.assert(
      fc.property(
        wideLines.chain((lines) =>
          fc.tuple(fc.constant(lines), fc.shuffledSubarray(lines, { minLength: lines.length })),
        ),
        ([lines, shuffled]) => {
          const a = linesOf(union(...lines.map((l) => line(...l))));
          const b = linesOf(union(...shuffled.map((l) => line(...l))));
          expect(b).toHaveLength(a.length);
          const total = (ls: Coordinates[]): number => ls.reduce((s, o) => s + length(o), 0);
          expect(Math.abs(total(a) - total(b))).toBeLessThan(1e-12);
          const near = (p: [number, number], ls: Coordinates[]): number =>
            Math.min(...ls.flat().map((q) => angleBetween(toVec(...p), toVec(...q))));
          for (const p of a.flat()) expect(near(p, b)).toBeLessThan(1e-12);
          for (const p of b.flat()) expect(near(p, a)).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 200 },
    );
  });
});
