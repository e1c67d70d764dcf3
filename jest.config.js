/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	// n8n-core is heavy to load; two workers fit the 2-core machines this runs on.
	maxWorkers: 2,
	// A safety net, not a measure: beside three e2e lanes on 2 cores (load 10) `npm pack --dry-run` took over 30 s.
	testTimeout: 120000,
	globalSetup: '<rootDir>/test/harness/globalSetup.ts',
	globalTeardown: '<rootDir>/test/harness/globalTeardown.ts',
	setupFiles: ['<rootDir>/test/harness/env.ts'],
};
