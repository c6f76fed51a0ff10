// One jest run for everything CI runs. Unit tests sit beside the code (`*.spec.ts`); suites that start a
// real server or touch real infrastructure live under `test/` (`*.test.ts`).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const shared = {
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper: {
    '^@quarry/([^/]+)$': '<rootDir>/libs/$1/src',
    // A package's test helpers, exported apart so production code never loads them.
    '^@quarry/([^/]+)/testing$': '<rootDir>/libs/$1/src/testing',
  },
  // Jest's node environment, with a watchdog that ends a test file stuck past 15 minutes.
  testEnvironment: '<rootDir>/test/support/watchdog-environment.js',
  setupFilesAfterEnv: ['<rootDir>/test/support/fast-check-seed.ts'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  // @kubernetes/client-node 1.x and its auth dependencies ship ES modules only: swc compiles them too.
  transformIgnorePatterns: ['/node_modules/(?!(@kubernetes/client-node|openid-client|oauth4webapi|jose)/)'],
};

module.exports = {
  // HTTP suites start real servers; unit tests finish far below this.
  testTimeout: 120_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.test.ts'] },
  ],
};
