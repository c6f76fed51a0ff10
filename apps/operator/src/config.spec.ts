import { ConfigError, loadOperatorConfig } from './config';

describe('loadOperatorConfig', () => {
  it('applies the defaults', () => {
    expect(loadOperatorConfig({}, 'host-1', () => 0)).toEqual({
      namespace: 'quarry-system',
      resyncMs: 300_000,
      host: '0.0.0.0',
      port: 8080,
      workersPerKind: 2,
      leaderElection: true,
      leaseName: 'quarry-operator',
      identity: 'host-1_000000',
    });
  });

  it('reads every variable', () => {
    const config = loadOperatorConfig(
      {
        QUARRY_OPERATOR_NAMESPACE: 'ops',
        QUARRY_OPERATOR_RESYNC: '90s',
        PORT: '9000',
        QUARRY_OPERATOR_WORKERS: '4',
        QUARRY_OPERATOR_LEADER_ELECTION: 'false',
        POD_NAME: 'quarry-operator-7d9',
      },
      'ignored',
      () => 0.5,
    );
    expect(config).toMatchObject({
      namespace: 'ops',
      resyncMs: 90_000,
      port: 9000,
      workersPerKind: 4,
      leaderElection: false,
    });
    expect(config.identity).toMatch(/^quarry-operator-7d9_[0-9a-f]{6}$/);
  });

  it('lists every bad variable at once, with what it is for', () => {
    let error: unknown;
    try {
      loadOperatorConfig({ QUARRY_OPERATOR_RESYNC: '5', PORT: 'http', QUARRY_OPERATOR_NAMESPACE: ' ' }, 'h');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toContain('QUARRY_OPERATOR_RESYNC="5": must be a duration');
    expect(problems.join('\n')).toContain('PORT="http": must be an integer from 0 to 65535');
    expect(problems.join('\n')).toContain('QUARRY_OPERATOR_NAMESPACE=" ": must not be empty');
  });
});
