import { GATEWAY_CONFIG_VARIABLES, gatewayConfigHelp, loadGatewayConfig } from './config';

const URLS = {
  QUARRY_GATEWAY_INGEST_URLS: 'http://127.0.0.1:9101, http://127.0.0.1:9102/',
  QUARRY_GATEWAY_QUERY_URLS: 'http://quarry-query:8080',
  QUARRY_GATEWAY_MANAGEMENT_URLS: 'https://quarry-management.quarry.svc:8443',
};

describe('loadGatewayConfig', () => {
  it('applies the defaults and answers the upstreams as origins', () => {
    expect(loadGatewayConfig(URLS)).toEqual({
      port: 8080,
      host: '0.0.0.0',
      upstreams: {
        ingest: ['http://127.0.0.1:9101', 'http://127.0.0.1:9102'],
        query: ['http://quarry-query:8080'],
        management: ['https://quarry-management.quarry.svc:8443'],
      },
      healthIntervalMs: 1000,
      upstreamTimeoutMs: 300_000,
      logLevel: 'log',
    });
  });

  it('reads every variable', () => {
    const config = loadGatewayConfig({
      ...URLS,
      PORT: '9000',
      HOST: '127.0.0.1',
      QUARRY_GATEWAY_HEALTH_INTERVAL_MS: '250',
      QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS: '60000',
      QUARRY_LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      healthIntervalMs: 250,
      upstreamTimeoutMs: 60_000,
      logLevel: 'debug',
    });
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadGatewayConfig({
        PORT: 'eighty',
        QUARRY_GATEWAY_INGEST_URLS: 'ftp://x, http://a:1/path',
        QUARRY_GATEWAY_QUERY_URLS: 'http://q:1,http://q:1',
        QUARRY_GATEWAY_HEALTH_INTERVAL_MS: '0',
        QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS: '1.5',
        QUARRY_LOG_LEVEL: 'loud',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'invalid configuration:',
      '  PORT="eighty": must be an integer',
      '  QUARRY_GATEWAY_INGEST_URLS="ftp://x, http://a:1/path": ftp://x is not http(s); http://a:1/path must be a bare base URL (no path, query or credentials)',
      '  QUARRY_GATEWAY_QUERY_URLS="http://q:1,http://q:1": http://q:1 is listed twice',
      '  QUARRY_GATEWAY_MANAGEMENT_URLS: required',
      '  QUARRY_GATEWAY_HEALTH_INTERVAL_MS="0": must be >= 10',
      '  QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS="1.5": must be an integer',
      '  QUARRY_LOG_LEVEL="loud": must be one of error, warn, log, debug, verbose',
    ]);
  });

  it('treats an empty upstream list as missing', () => {
    expect(() => loadGatewayConfig({ ...URLS, QUARRY_GATEWAY_QUERY_URLS: ' , ' })).toThrow(
      /QUARRY_GATEWAY_QUERY_URLS=" , ": name at least one base URL/,
    );
  });

  it('help names every variable with its default', () => {
    const help = gatewayConfigHelp();
    for (const name of Object.keys(GATEWAY_CONFIG_VARIABLES)) expect(help).toContain(`  ${name}`);
    expect(help).toContain('QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS (default 300000)');
    expect(help).toContain('QUARRY_GATEWAY_INGEST_URLS (required)');
  });
});
