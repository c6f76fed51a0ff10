/**
 * The layering of DESIGN.md §3 as checked rules. `npm run lint` runs it over libs/ and apps/.
 * Lower layers never import higher ones; the parsers never reach storage or execution; apps are leaves.
 */
const lib = (name) => `^libs/${name}/`;
const only = (from, allowed) => ({
  name: `${from}-layering`,
  severity: 'error',
  comment: `${from} may import only: ${allowed.join(', ') || 'nothing from other libs'}`,
  from: { path: lib(from) },
  to: {
    path: '^libs/([^/]+)/',
    pathNot: [lib(from), ...allowed.map(lib)],
  },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    only('common', []),
    only('contracts', ['common']),
    only('apl', ['common']),
    only('log', ['common', 'contracts']),
    only('objstore', ['common']),
    only('metastore', ['common', 'contracts']),
    only('ingest-core', ['common', 'contracts']),
    only('block-format', ['common', 'contracts']),
    only('query-plan', ['common', 'contracts', 'apl']),
    only('query-exec', ['common', 'contracts', 'query-plan']),
    only('query', ['common', 'contracts', 'apl', 'query-plan', 'query-exec']),
    only('mpl', ['common', 'contracts']),
    only('metrics-store', ['common', 'contracts', 'objstore', 'metastore']),
    only('nest-kit', ['common']),
    // Kubernetes: the CRD schemas stand alone; the operator's runtime kit needs only common.
    only('k8s-api', []),
    only('k8s-kit', []),
    only('operator', ['k8s-api', 'k8s-kit']),
    only('gateway', ['common', 'console-static']),
    only('console-static', []),
    // The web console is a browser app over the public HTTP API: it imports no server code.
    {
      name: 'console-uses-only-the-http-api',
      severity: 'error',
      from: { path: '^apps/console/' },
      to: { path: '^(libs|apps/(?!console/))' },
    },
    // Each role's HTTP surface sits on the node runtime (server) and never on another role.
    only('ingest-node', ['common', 'contracts', 'ingest-core', 'metrics-store', 'nest-kit', 'server']),
    only('query-node', ['common', 'contracts', 'metrics-store', 'mpl', 'nest-kit', 'query', 'server']),
    // Monitors run where /v2 is served: the management role wires the alerting scheduler.
    only('alerting', ['common', 'contracts', 'metastore', 'mpl', 'query', 'server']),
    only('management-node', ['alerting', 'common', 'contracts', 'metastore', 'nest-kit', 'query', 'server']),
    // The local cluster resets a region's log offsets in that region's schema, which the metastore names.
    only('local-cluster', ['common', 'metastore']),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(/dist/|\\.spec\\.ts$|/testing/)' },
    tsConfig: { fileName: 'tsconfig.tests.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
