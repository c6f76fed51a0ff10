/**
 * Terms for `has`: maximal runs of Unicode letters and digits; everything else (including `_`) separates
 * terms (apl.md §8.4).
 */
const TERM_RE = /[\p{L}\p{N}]+/gu;

export function termsOf(s: string): string[] {
  return s.match(TERM_RE) ?? [];
}

/** True when the terms of `needle` occur as a contiguous run of whole terms in `haystackTerms`. */
export function hasTerms(haystackTerms: string[], needleTerms: string[]): boolean {
  if (needleTerms.length === 0) return false;
  const last = haystackTerms.length - needleTerms.length;
  for (let i = 0; i <= last; i++) {
    let ok = true;
    for (let j = 0; j < needleTerms.length; j++) {
      if (haystackTerms[i + j] !== needleTerms[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}
