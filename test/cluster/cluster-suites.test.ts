import { aplConformanceSuite } from '../suites/apl-conformance.suite';
import { authzMatrixSuite } from '../suites/authz-matrix.suite';
import { axiomJsSuite } from '../suites/axiom-js.suite';
import { managementTourSuite } from '../suites/management-tour.suite';
import { metricsConformanceSuite } from '../suites/metrics-conformance.suite';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';
import type { TargetOpener } from '../support/test-server';

/**
 * The suites that matter, unchanged, against a whole cluster on this machine through its gateway: 2
 * ingest, 2 compactor, 2 query and 1 management process over PostgreSQL, the Kafka protocol and S3.
 * One cluster serves them all (starting one takes seconds); each suite uses datasets of its own. Every
 * query that can be split over the two query nodes is (split thresholds at one row and one series):
 * the corpora answer as one process does with two query nodes (three: cluster-distributed.test.ts).
 */
describeCluster('the cluster, through its gateway', () => {
  let cluster: ClusterTarget;
  beforeAll(async () => {
    cluster = await startClusterTarget({
      QUARRY_QUERY_SPLIT_MIN_ROWS: '1',
      QUARRY_MPL_SPLIT_MIN_SERIES: '1',
    });
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  }, 120_000);

  // Suites close their target when done; the shared cluster outlives them.
  const shared: TargetOpener = async () => ({ ...cluster, close: async () => undefined });

  aplConformanceSuite(shared);
  metricsConformanceSuite(shared);
  axiomJsSuite(shared);
  authzMatrixSuite(shared);
  managementTourSuite('a cluster', shared);
});
