import { useServer } from './harness/setup';

/*
 * Issue 18: lists follow the server's page. An instance may answer fewer records per page than
 * asked for (an admin's cap), a proxy may cut pages; a list must never end early without saying so.
 */

const getAll = { resource: 'report', operation: 'getAll' };

describe('Report → Get Many on an instance that caps pages at 50', () => {
	const api = useServer({ maxPerPage: 50, seed: (server) => server.seedReports(250) });
	/** Each list request as [per_page, page]: 100 asked for each time. */
	const pages = () =>
		api.apiRequests().map((request) => [request.query.per_page, request.query.page]);
	const asked = (count: number) => Array.from({ length: count }, (_, i) => ['100', String(i + 1)]);

	it('Return All still returns every report, in 5 pages of the 50 answered', async () => {
		const items = await api.ok({ ...getAll, returnAll: true });
		const ids = items.map((item) => Number(item.json.id));
		const all = api.server.listReports().map((report) => report.id);
		expect(ids).toEqual(all.sort((a, b) => b - a));
		expect(ids).toHaveLength(250);
		expect(pages()).toEqual(asked(5));
	});

	it('a Limit above one page returns exactly that many', async () => {
		const items = await api.ok({ ...getAll, limit: 120 });

		expect(items).toHaveLength(120);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(120);
		expect(pages()).toEqual(asked(3));
	});
});

describe('Report → Get Many behind a proxy that cuts pages to 50 and keeps their meta', () => {
	const api = useServer({
		maxPerPage: 50,
		maxPerPageBy: 'proxy',
		seed: (server) => server.seedReports(250),
	});

	it('Return All fails with a clear error instead of returning 150 of the 250 reports', async () => {
		const { items, error } = await api.run({ ...getAll, returnAll: true });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			"phpRank's list said it holds 250 records, but its pages ended after 150",
		);
		expect(error?.description).toContain('proxy');
		expect(error?.description).toContain('stopped rather than return part of the list');
		expect(api.apiRequests()).toHaveLength(3);
	});
});
