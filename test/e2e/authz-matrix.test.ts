import { authzMatrixSuite } from '../suites/authz-matrix.suite';
import { startTestServer } from '../support/test-server';

authzMatrixSuite(startTestServer);
