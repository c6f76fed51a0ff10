/** Time as the reconcilers see it: injected, so tests can step over TTLs and grace periods without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private ms: number;

  constructor(start: string | number = '2026-01-01T00:00:00Z') {
    this.ms = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  set(at: string): void {
    this.ms = Date.parse(at);
  }
}
