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
	testTimeout: 30000,
	globalSetup: '<rootDir>/test/harness/globalSetup.ts',
	globalTeardown: '<rootDir>/test/harness/globalTeardown.ts',
	setupFiles: ['<rootDir>/test/harness/env.ts'],
};
