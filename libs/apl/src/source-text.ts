import type { SourceSpan } from '@quarry/common';

/** Query text with a line index, so spans get line/column in O(log lines). */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  span(start: number, end: number): SourceSpan {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= start) lo = mid;
      else hi = mid - 1;
    }
    return { start, end, line: lo + 1, column: start - this.lineStarts[lo] + 1 };
  }
}
