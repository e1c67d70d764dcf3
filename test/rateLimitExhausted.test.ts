import { MAX_RATE_LIMIT_RETRIES } from '../nodes/PhpRank/transport/rateLimit';
import { locator, useServer } from './harness/setup';

// Its own file: the retries wait at least a second each, so it runs beside the other suites.
describe('HTTP 429', () => {
	const api = useServer({ seed: (server) => server.seedReports(1) });
	const getReport = { resource: 'report', operation: 'get', reportId: locator('id', '1') };
	const tooMany = {
		type: 'status' as const,
		status: 429,
		body: { message: 'Too Many Attempts.' },
		headers: { 'Retry-After': '0' },
	};

	it('waits at least a second on "Retry-After: 0" (whole seconds in Laravel), then succeeds', async () => {
		api.server.failNext(tooMany, { times: 2 });
		const started = Date.now();
		const items = await api.ok(getReport);

		expect(items[0].json.id).toBe(1);
		expect(api.apiRequests()).toHaveLength(3);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
	});

	it('that never ends: fails after the last retry, saying so and how to spread the load', async () => {
		const attempts = MAX_RATE_LIMIT_RETRIES + 1;
		api.server.failNext(tooMany, { times: attempts });
		const { error } = await api.run(getReport);

		expect(error?.message).toMatch(
			/rate limiting requests and kept doing so after retries \(HTTP 429 from /,
		);
		expect(error?.description).toMatch(/60 requests a minute/);
		expect(api.apiRequests()).toHaveLength(attempts);
	}, 60_000);
});
