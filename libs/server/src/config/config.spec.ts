import { loadConfig } from './config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.roles).toEqual(['ingest', 'query', 'compactor', 'management']);
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('lists every bad variable at once', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', QUARRY_ROLES: 'ingest,frobnicate', QUARRY_BOOTSTRAP_TOKEN: 'abc' }),
    ).toThrow(/PORT="eighty".*\n.*QUARRY_ROLES=.*\n.*QUARRY_BOOTSTRAP_TOKEN/s);
  });
});
