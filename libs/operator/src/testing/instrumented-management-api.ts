import type { ManagementApi } from '../management-api.port';

export type ManagementMethod = keyof ManagementApi;

interface Fault {
  method: ManagementMethod | '*';
  error: Error;
  remaining: number;
}

/**
 * Wraps any `ManagementApi` (the in-memory fake or the HTTP adapter on a real server), records every call
 * and throws scripted faults, so one reconcile suite can assert "no API call while paused" and "503 gives
 * backoff" against both targets.
 */
export class InstrumentedManagementApi {
  readonly calls: { method: ManagementMethod; args: unknown[] }[] = [];
  readonly api: ManagementApi;
  private readonly faults: Fault[] = [];

  constructor(inner: ManagementApi) {
    this.api = new Proxy(inner, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const method = property as ManagementMethod;
        return async (...args: unknown[]) => {
          this.calls.push({ method, args });
          const fault = this.faults.find((f) => f.method === method || f.method === '*');
          if (fault) {
            fault.remaining -= 1;
            if (fault.remaining <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
            throw fault.error;
          }
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
  }

  /** The next `times` calls of `method` (any method with `*`) fail with `error`. */
  failNext(method: ManagementMethod | '*', error: Error, times = 1): void {
    this.faults.push({ method, error, remaining: times });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Names of the calls so far, e.g. `['getDataset', 'createDataset']`. */
  methods(): ManagementMethod[] {
    return this.calls.map((c) => c.method);
  }

  /** Calls that change something (what a write storm would show). */
  writes(): ManagementMethod[] {
    return this.methods().filter((m) => !/^(get|list)/.test(m));
  }

  reset(): void {
    this.calls.length = 0;
  }
}
