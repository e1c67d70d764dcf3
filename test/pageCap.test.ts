import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness/engine';
import { useServer } from './harness/setup';

/*
 * Issue 18: lists follow the server's page. An instance may answer fewer records per page than
 * asked for (an admin's cap), a proxy may cut pages; a list must never end early without saying so.
 */

const getAll = (api: { credential: Parameters<typeof runNode>[1] }, parameters: IDataObject) =>
	runNode({ resource: 'report', operation: 'getAll', ...parameters }, api.credential);

describe('Report → Get Many on an instance that caps pages at 50', () => {
	const api = useServer({ maxPerPage: 50, seed: (server) => server.seedReports(250) });
	const pages = () =>
		api.apiRequests().map((request) => [request.query.per_page, request.query.page]);

	it('Return All still returns every report, in 5 pages of the 50 answered', async () => {
		const { items, error } = await getAll(api, { returnAll: true });

		expect(error).toBeUndefined();
		const ids = items.map((item) => Number(item.json.id));
		expect(ids).toEqual(
			api.server
				.listReports()
				.map((report) => report.id)
				.sort((a, b) => b - a),
		);
		expect(ids).toHaveLength(250);
		expect(pages()).toEqual([
			['100', '1'],
			['100', '2'],
			['100', '3'],
			['100', '4'],
			['100', '5'],
		]);
	});

	it('a Limit above one page returns exactly that many', async () => {
		const { items, error } = await getAll(api, { limit: 120 });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(120);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(120);
		expect(pages()).toEqual([
			['100', '1'],
			['100', '2'],
			['100', '3'],
		]);
	});
});

describe('Report → Get Many behind a proxy that cuts pages to 50 and keeps their meta', () => {
	const api = useServer({
		maxPerPage: 50,
		maxPerPageBy: 'proxy',
		seed: (server) => server.seedReports(250),
	});

	it('Return All fails with a clear error instead of returning 150 of the 250 reports', async () => {
		const { items, error } = await getAll(api, { returnAll: true });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			"phpRank's list said it holds 250 records, but its pages ended after 150",
		);
		expect(error?.description).toContain('proxy');
		expect(error?.description).toContain('stopped rather than return part of the list');
		expect(api.apiRequests()).toHaveLength(3);
	});
});
