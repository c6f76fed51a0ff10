import { axiomJsSuite } from '../suites/axiom-js.suite';
import { startTestServer } from '../support/test-server';

axiomJsSuite(startTestServer);
