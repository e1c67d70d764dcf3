import type { IDataObject } from 'n8n-workflow';

import { PhpRankServer, TEST_API_KEY, type RecordedRequest, type ServerOptions } from '../server';
import type { TestCredential } from './engine';

export interface ServerFixture {
	server: PhpRankServer;
	/** The credential a user would enter for this server. */
	credential: TestCredential;
	/** The API requests the server received since the last test started. */
	apiRequests(): RecordedRequest[];
}

/**
 * Starts a phpRank test server for the test file (throttle off unless asked for), and forgets
 * the recorded requests before each test. Returns a fixture whose fields are set once started.
 */
export function useServer(
	options: ServerOptions & { seed?: (server: PhpRankServer) => void } = {},
): ServerFixture {
	const { seed, ...serverOptions } = options;
	const fixture = {} as ServerFixture;
	beforeAll(async () => {
		fixture.server = new PhpRankServer({ throttle: false, ...serverOptions });
		seed?.(fixture.server);
		await fixture.server.start();
		fixture.credential = { baseUrl: fixture.server.url, apiKey: TEST_API_KEY };
		fixture.apiRequests = () =>
			fixture.server.requests.filter((request) => request.path.includes('/api/v1'));
	});
	beforeEach(() => fixture.server.clearRequests());
	afterAll(async () => await fixture.server.stop());
	return fixture;
}

/** A resource locator value as n8n stores it. */
export function locator(mode: string, value: string | number) {
	return { __rl: true, mode, value };
}

/**
 * Create or Re-Run, Output: One Item per Site, each input item's `url`, private reports: the node as
 * the site and history tests run it (Simplify off unless `extra` says otherwise).
 */
export function perSiteParameters(extra: IDataObject = {}): IDataObject {
	return {
		resource: 'report',
		operation: 'createOrRerun',
		url: '={{ $json.url }}',
		privacy: 1,
		output: 'sites',
		simplify: false,
		...extra,
	};
}
