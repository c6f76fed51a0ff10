import type { DecodedBlock } from './point-block';

/** Decoded blocks, least recently used first out, bounded by their approximate size. */
export class BlockCache {
  private readonly entries = new Map<string, DecodedBlock>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): DecodedBlock | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: DecodedBlock): void {
    if (value.byteLength > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, value);
    this.bytes += value.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.byteLength;
    }
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (!value) return;
    this.entries.delete(key);
    this.bytes -= value.byteLength;
  }
}
