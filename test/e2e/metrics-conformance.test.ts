import { metricsConformanceSuite } from '../suites/metrics-conformance.suite';
import { startTestServer } from '../support/test-server';

metricsConformanceSuite(startTestServer);
