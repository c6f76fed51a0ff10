/**
 * `bin_auto(_time)` picks a "nice" bucket size from the query window. Axiom's exact table is not
 * documented (apl.md §4, UNSURE); we aim at roughly 100–200 buckets.
 */
const NICE_SIZES_MS = [
  1,
  5,
  10,
  50,
  100,
  500,
  1000,
  5000,
  10_000,
  15_000,
  30_000,
  60_000,
  300_000,
  600_000,
  900_000,
  1_800_000,
  3_600_000,
  10_800_000,
  21_600_000,
  43_200_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
];

export function binAutoSizeMs(startMs: number, endMs: number): number {
  const span = endMs - startMs;
  if (!Number.isFinite(span) || span <= 0) return 60_000;
  const target = span / 120;
  for (const size of NICE_SIZES_MS) if (size >= target) return size;
  return NICE_SIZES_MS[NICE_SIZES_MS.length - 1];
}
