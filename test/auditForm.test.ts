import type { INodeExecutionData } from 'n8n-workflow';

import { runNode } from './harness/engine';
import { createOrRerunParameters as createOrRerun, useServer } from './harness/setup';

/*
 * What a public audit form relies on (examples/lead-audit-form.json): Create or Re-Run's Reuse
 * Recent Analysis and Public URLs Only, asserted on what went over the wire.
 */

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const errorOutput = (run: Awaited<ReturnType<typeof runNode>>['run']): INodeExecutionData[] =>
	run.data.resultData.runData.phpRank?.[0]?.data?.main?.[1] ?? [];

const api = useServer();
beforeEach(() => api.server.deleteAllReports());
/** A report of `url` analysed `hours` ago. */
const analysed = (url: string, hours: number) =>
	api.server.addReport({ url, generated_at: hoursAgo(hours) });

describe('Report → Create or Re-Run: Reuse Recent Analysis', () => {
	const { sent } = api;

	it('returns the report analysed less than the hours ago as it is, with action "reused", and sends no analysis', async () => {
		const recent = analysed('https://shop.example.com/pricing', 2);
		const items = await api.ok(
			createOrRerun({ options: { reuseRecentAnalysis: 24 }, simplify: false }),
			{ items: [{ url: 'https://www.shop.example.com/pricing/' }] },
		);
		expect(api.calls()).toEqual([
			'GET /api/v1/reports?project=shop.example.com&sort_by=id&sort=desc&per_page=100&page=1',
		]);
		expect(items[0].json).toMatchObject({
			action: 'reused',
			id: recent.id,
			result: recent.result,
			score: recent.result,
			generated_at: recent.generated_at,
			other_reports: 0,
		});
		expect(items[0].json.results).toEqual(recent.results);
		expect(api.server.getReport(recent.id)!.generated_at).toBe(recent.generated_at);
	});

	it('re-runs a report analysed longer ago, creates one for a URL without, in the same run', async () => {
		const old = analysed('https://shop.example.com/a', 25);
		const recent = analysed('https://shop.example.com/b', 23.9);
		const items = await api.ok(createOrRerun({ options: { reuseRecentAnalysis: 24 } }), {
			items: [
				{ url: 'https://shop.example.com/a' },
				{ url: 'https://shop.example.com/b' },
				{ url: 'https://shop.example.com/c' },
			],
		});
		expect(items.map((item) => item.json.action)).toEqual(['rerun', 'reused', 'created']);
		expect(items.map((item) => item.json.id).slice(0, 2)).toEqual([old.id, recent.id]);
		// One list read for the site, one re-run, one create: nothing for the reused page.
		expect(sent('GET')).toHaveLength(1);
		expect(sent('PUT').map((r) => r.path)).toEqual([`/api/v1/reports/${old.id}`]);
		expect(sent('POST')).toHaveLength(1);
		// Simplify on: a reused report has no change, as a created one.
		expect(items[1].json).toMatchObject({ previous_score: null, score_change: null });
	});

	it('is off by default (0): a report analysed a minute ago is re-run', async () => {
		const recent = analysed('https://shop.example.com/p', 1 / 60);
		const items = await api.ok(createOrRerun(), {
			items: [{ url: 'https://shop.example.com/p' }],
		});
		expect(items[0].json).toMatchObject({ action: 'rerun', id: recent.id });
		expect(sent('PUT')).toHaveLength(1);
	});

	it('items of one URL share the reuse: one list read, no analysis, each item answered', async () => {
		analysed('https://blog.example.com/post', 1);
		const items = await api.ok(createOrRerun({ options: { reuseRecentAnalysis: 1.5 } }), {
			items: [{ url: 'https://blog.example.com/post' }, { url: 'http://blog.example.com/post/' }],
		});
		expect(items.map((item) => item.json.action)).toEqual(['reused', 'reused']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(api.apiRequests().map((r) => r.method)).toEqual(['GET']);
	});

	it('with Confirm Drops, a reused report is not analysed again', async () => {
		analysed('https://shop.example.com/q', 3);
		const items = await api.ok(
			createOrRerun({ options: { reuseRecentAnalysis: 24, confirmDrops: true } }),
			{ items: [{ url: 'https://shop.example.com/q' }] },
		);
		expect(items[0].json).toMatchObject({ action: 'reused', confirmed: null, first_score: null });
		expect(api.apiRequests().map((r) => r.method)).toEqual(['GET']);
	});

	it('with One Item per Site, a reused page counts in the site, neither created nor re-run', async () => {
		analysed('https://shop.example.com/r', 2);
		const items = await api.ok(
			createOrRerun({ options: { reuseRecentAnalysis: 24 }, output: 'sites' }),
			{ items: [{ url: 'https://shop.example.com/r' }, { url: 'https://shop.example.com/s' }] },
		);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			project: 'shop.example.com',
			pages: 2,
			created: 1,
			rerun: 0,
		});
		expect(api.apiRequests().map((r) => r.method)).toEqual(['GET', 'POST']);
	});

	it.each([[-1], [8761], ['soon'], [Number.NaN]])(
		'%p hours is refused before anything is sent, naming the field and what to enter',
		async (hours) => {
			const error = await api.refuses(
				createOrRerun({ options: { reuseRecentAnalysis: hours } }),
				/^Options → Reuse Recent Analysis must be a number from 0 to 8760, not /,
				{ items: [{ url: 'https://shop.example.com/' }] },
			);
			expect(error.description).toMatch(/hours/);
		},
	);
});

describe('Report → Create or Re-Run: Public URLs Only', () => {
	// A name, an address and a scheme; every kind of local name and address: unit/publicUrl.test.ts.
	it.each([
		['http://localhost:8080/', 'points to a local network name (localhost)'],
		['http://169.254.169.254/latest/meta-data/', 'points to a link-local address (169.254.0.0/16)'],
		['ftp://example.com/', 'uses ftp:, not http or https'],
	])('refuses %s before anything is sent', async (url, problem) => {
		await api.refuses(
			createOrRerun({ options: { publicUrlsOnly: true } }),
			`The URL "${url}" ${problem}`,
			{
				items: [{ url }],
			},
		);
	});

	it('refuses a URL over 2,000 characters without repeating it in the message', async () => {
		await api.refuses(
			createOrRerun({ options: { publicUrlsOnly: true } }),
			'The URL is 2020 characters long, more than the 2,000 allowed',
			{ items: [{ url: `https://example.com/${'a'.repeat(2000)}` }] },
		);
	});

	it('with On Error → Continue (using error output), a refused URL goes out of the error output, the others are analysed', async () => {
		const { items, run, error } = await api.run(
			createOrRerun({ options: { publicUrlsOnly: true } }),
			{
				items: [{ url: 'http://192.168.0.1/' }, { url: 'https://shop.example.com/ok' }],
				settings: { onError: 'continueErrorOutput' },
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.action)).toEqual(['created']);
		const refused = errorOutput(run);
		expect(refused).toHaveLength(1);
		expect(refused[0].json.error).toBe(
			'The URL "http://192.168.0.1/" points to a private network address (192.168.0.0/16) [item 0]',
		);
		expect(api.apiRequests().map((r) => r.form?.url ?? r.query?.project)).toEqual([
			'shop.example.com',
			'https://shop.example.com/ok',
		]);
	});

	it('is off by default: a trusted workflow may audit an intranet page', async () => {
		const items = await api.ok(createOrRerun(), {
			items: [{ url: 'http://intranet.local/' }],
		});
		expect(items[0].json.action).toBe('created');
	});
});
