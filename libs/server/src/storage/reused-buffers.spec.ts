import { ReusedBuffers } from './reused-buffers';

describe('ReusedBuffers', () => {
  it('lends the smallest spare that fits, and keeps only what the last lease used', () => {
    const buffers = new ReusedBuffers();
    const big = buffers.take(1000);
    const small = buffers.take(100);
    expect(big.length).toBeGreaterThanOrEqual(1000);
    buffers.returnAll();
    expect(buffers.take(90)).toBe(small);
    expect(buffers.take(900)).toBe(big);
    // Nothing fits: a new buffer, with room for a slightly larger next build.
    const fresh = buffers.take(5000);
    expect(fresh).not.toBe(big);
    expect(fresh.length).toBeGreaterThanOrEqual(5000 * 1.25);
    buffers.returnAll();
    expect(buffers.spareBytes).toBe(small.length + big.length + fresh.length);
    // A lease that asks for one buffer lets the others go.
    expect(buffers.take(10)).toBe(small);
    buffers.returnAll();
    expect(buffers.spareBytes).toBe(small.length);
  });

  it('lets every spare go after a while without a build', () => {
    jest.useFakeTimers();
    try {
      const buffers = new ReusedBuffers(1000);
      buffers.take(100);
      buffers.returnAll();
      jest.advanceTimersByTime(999);
      expect(buffers.spareBytes).toBeGreaterThan(0);
      jest.advanceTimersByTime(1);
      expect(buffers.spareBytes).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
