import { managementTourSuite, walkCompletenessSuite } from '../suites/management-tour.suite';
import { metastoreBackends } from '../support/metastore-backends';

for (const backend of metastoreBackends())
  managementTourSuite(backend.name, (env) => backend.startServer(env));
walkCompletenessSuite();
