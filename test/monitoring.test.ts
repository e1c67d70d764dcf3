import type { IDataObject } from 'n8n-workflow';

import { changesBetween } from '../nodes/PhpRank/engine/changes';
import {
	createOrRerunParameters as createOrRerun,
	updateParameters as update,
	useServer,
} from './harness/setup';

const settingsRetry = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

const api = useServer();
beforeEach(() => api.server.deleteAllReports());

describe('Report → Create or Re-Run', () => {
	it('re-runs the report a URL already has, creates one for a URL without, and reads the site once', async () => {
		const existing = api.server.addReport({ url: 'https://shop.example.com/pricing' });
		const before = structuredClone(api.server.getReport(existing.id)!);
		// Simplify off: the `changes` object (Simplify on keeps its flat columns only, see below).
		const items = await api.ok(createOrRerun({ simplify: false }), {
			items: [
				{ url: 'https://shop.example.com/pricing' },
				{ url: 'https://shop.example.com/new-page' },
			],
		});
		expect(api.calls()).toEqual([
			'GET /api/v1/reports?project=shop.example.com&sort_by=id&sort=desc&per_page=100&page=1',
			`PUT /api/v1/reports/${existing.id}`,
			'POST /api/v1/reports',
		]);
		expect(api.apiRequests().find((r) => r.method === 'PUT')?.form).toEqual({ results: '1' });
		expect(api.apiRequests().find((r) => r.method === 'POST')?.form).toEqual({
			url: 'https://shop.example.com/new-page',
			privacy: '1',
		});

		const [rerun, created] = items.map((item) => item.json);
		expect(rerun).toMatchObject({ action: 'rerun', id: existing.id });
		const after = api.server.getReport(existing.id)!;
		expect(rerun.changes).toEqual(changesBetween(before, after));
		expect((rerun.changes as IDataObject).previous).toEqual({
			result: before.result,
			class: before.result > 79 ? 'good' : before.result >= 49 ? 'decent' : 'bad',
			generated_at: before.generated_at,
		});
		expect(rerun.other_reports).toBe(0);
		// Simplify off keeps the full record, with action and changes.
		expect(rerun).toMatchObject({ url: 'shop.example.com/pricing', results: after.results });
		expect(created).toMatchObject({ action: 'created', changes: null });
		expect(
			api.server.listReports().filter((r) => r.url === 'shop.example.com/new-page'),
		).toHaveLength(1);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('two items of one URL (in any spelling phpRank stores the same) share one analysis', async () => {
		const items = await api.ok(createOrRerun(), {
			items: [
				{ url: 'https://www.blog.example.com/post/' },
				{ url: 'http://blog.example.com/post' },
				{ url: 'https://BLOG.example.com/post' },
			],
		});
		expect(api.apiRequests().filter((r) => r.method !== 'GET')).toHaveLength(1);
		expect(api.server.listReports()).toHaveLength(1);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(1);
		expect(items.map((i) => i.json.action)).toEqual(['created', 'created', 'created']);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('a second run creates nothing: every URL is re-run, with what changed', async () => {
		const urls = [
			{ url: 'https://a.example.com/' },
			{ url: 'https://a.example.com/x' },
			{ url: 'https://b.example.com/y' },
		];
		await api.run(createOrRerun(), { items: urls });
		const count = api.server.listReports().length;
		api.server.clearRequests();
		const items = await api.ok(createOrRerun(), { items: urls });
		expect(api.server.listReports()).toHaveLength(count);
		expect(items.map((i) => i.json.action)).toEqual(['rerun', 'rerun', 'rerun']);
		for (const { json } of items) {
			// Simplify on: the change as flat columns, one line high in a table; no nested `changes` object.
			expect(json.score_change).toBe((json.score as number) - (json.previous_score as number));
			expect(typeof json.newly_failed).toBe('string');
			expect(json).not.toHaveProperty('changes');
		}
		// Two sites: two list reads, three re-runs.
		expect(api.sent('GET')).toHaveLength(2);
		expect(api.sent('PUT')).toHaveLength(3);
		expect(api.sent('POST')).toHaveLength(0);
	});

	it('with several reports of the URL, re-runs the newest, says how many others exist, deletes nothing', async () => {
		const old = api.server.addReport({ url: 'https://dup.example.com/p' });
		const newer = api.server.addReport({ url: 'dup.example.com/p' });
		api.server.addReport({ url: 'https://dup.example.com/other' });
		const items = await api.ok(createOrRerun(), {
			items: [{ url: 'https://dup.example.com/p' }],
		});
		expect(items[0].json).toMatchObject({ action: 'rerun', id: newer.id, other_reports: 1 });
		expect(api.server.getReport(old.id)).toBeDefined();
		expect(api.sent('DELETE')).toHaveLength(0);
	});

	it('reads only the site’s reports when the account holds many others (100 a page)', async () => {
		api.server.seedReports(2_000, {
			hosts: ['other1.example.com', 'other2.example.com', 'other3.example.com'],
		});
		for (let i = 0; i < 150; i++)
			api.server.addReport({ url: `https://watched.example.com/page-${i}` });
		const items = await api.ok(createOrRerun(), {
			items: Array.from({ length: 150 }, (_, i) => ({
				url: `https://watched.example.com/page-${i}`,
			})),
		});
		// Two pages of 100 of the site's own reports.
		const projects = api.sent('GET').map((r) => r.query.project);
		expect(projects).toEqual(Array(2).fill('watched.example.com'));
		expect(api.sent('PUT')).toHaveLength(150);
		expect(api.sent('POST')).toHaveLength(0);
		expect(items.every((i) => i.json.action === 'rerun')).toBe(true);
	});

	it('Retry On Fail: a create that failed but was made anyway is re-run by the next try, never created twice', async () => {
		api.server.failNext(
			{ type: 'status', status: 500 },
			{
				match: (r) => {
					if (r.method !== 'POST') return false;
					api.server.addReport({ url: String(r.form.url) });
					return true;
				},
			},
		);
		const items = await api.ok(createOrRerun(), {
			items: [{ url: 'https://flaky.example.com/a' }, { url: 'https://flaky.example.com/b' }],
			settings: settingsRetry,
		});
		for (const url of ['flaky.example.com/a', 'flaky.example.com/b']) {
			expect(api.server.listReports().filter((r) => r.url === url)).toHaveLength(1);
		}
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('takes a URL without its scheme, as the trigger gives it: https:// is added, the same page is re-run, a new one is created with https', async () => {
		const existing = api.server.addReport({ url: 'https://www.shop.example.com/pricing' });
		const { items, error } = await api.run(createOrRerun({ simplify: false }), {
			// The trigger's `url` (phpRank's cleaned form), a typed one with www. and a port, and one with http.
			items: [
				{ url: 'shop.example.com/pricing' },
				{ url: 'shop.example.com/new-page' },
				{ url: 'http://shop.example.com/plain' },
			],
		});
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => [json.action, json.url])).toEqual([
			['rerun', 'shop.example.com/pricing'],
			['created', 'shop.example.com/new-page'],
			['created', 'shop.example.com/plain'],
		]);
		expect(items[0].json.id).toBe(existing.id);
		// Over the wire: one read of the site, the re-run of the report it has, two creates with the
		// URL as given when it has a scheme, with https:// when it has none.
		expect(api.sent('GET')).toHaveLength(1);
		expect(api.sent('PUT').map((r) => r.path)).toEqual([`/api/v1/reports/${existing.id}`]);
		const created = api.sent('POST').map((r) => r.form.url);
		expect(created.sort()).toEqual([
			'http://shop.example.com/plain',
			'https://shop.example.com/new-page',
		]);
		expect(api.server.listReports()).toHaveLength(3);
	});

	it('Public URLs Only reads a URL without its scheme as https: a public one is analysed, a local one refused', async () => {
		const items = await api.ok(createOrRerun({ options: { publicUrlsOnly: true } }), {
			items: [{ url: 'public.example.com:8443/a' }],
		});
		expect(items[0].json.action).toBe('created');
		expect(api.apiRequests().find((r) => r.method === 'POST')?.form.url).toBe(
			'https://public.example.com:8443/a',
		);
		api.server.clearRequests();
		await api.refuses(
			createOrRerun({ options: { publicUrlsOnly: true } }),
			'The URL "https://localhost:8080/admin" points to a local network name (localhost)',
			{ items: [{ url: 'localhost:8080/admin' }] },
		);
	});

	it.each([
		['a blank URL', '', 'The URL is empty'],
		[
			'a URL that is not http(s)',
			'ftp://example.com/file',
			'The URL "ftp://example.com/file" uses ftp:, not http or https',
		],
		[
			'a mailto: link',
			'mailto:seo@example.com',
			'The URL "mailto:seo@example.com" uses mailto:, not http or https',
		],
		['a URL without a host', 'https://', 'The URL "https://" is not a web address'],
	])('refuses %s before any request, saying what to enter', async (_what, url, message) => {
		const error = await api.refuses(createOrRerun(), `${message} [item 1]`, {
			items: [{ url: 'https://fine.example.com' }, { url }],
		});
		expect(error.description).toMatch(
			/^Enter the page to analyse, e\.g\. example\.com\/pricing \(https:\/\/ is added\) or http:\/\/example\.com\/pricing\./,
		);
	});
});

describe('Report → Update with Re-Run Analysis says what changed', () => {
	it('reads the report just before the re-run and outputs changes; Simplify keeps them', async () => {
		const report = api.server.addReport({ url: 'https://upd.example.com/' });
		const before = structuredClone(api.server.getReport(report.id)!);
		const items = await api.ok(update(report.id, { rerunAnalysis: true }));
		// Its requests (the read, then the re-run): report.test.ts.
		expect(items[0].json.changes).toEqual(changesBetween(before, api.server.getReport(report.id)!));
	});
});

describe('changesBetween', () => {
	const check = (passed: boolean, importance = 'high') => ({ passed, importance, value: null });

	it('lists newly failed and fixed checks with their importance, most important first', () => {
		const changes = changesBetween(
			{
				result: 72,
				generated_at: '2026-11-01T00:00:00.000000Z',
				results: {
					title: check(true),
					load_time: check(true, 'medium'),
					favicon: check(false, 'low'),
					doctype: check(true, 'low'),
				},
			},
			{
				result: 61,
				results: {
					title: check(false),
					load_time: check(false, 'medium'),
					favicon: check(true, 'low'),
					doctype: check(true, 'low'),
				},
			},
		);
		expect(changes).toEqual({
			previous: { result: 72, class: 'decent', generated_at: '2026-11-01T00:00:00.000000Z' },
			scoreDelta: -11,
			failed: [
				{ check: 'title', importance: 'high' },
				{ check: 'load_time', importance: 'medium' },
			],
			fixed: [{ check: 'favicon', importance: 'low' }],
		});
	});

	it('a previous report without results gives empty lists, not an error', () => {
		expect(
			changesBetween(
				{ result: null, results: 'oops' },
				{ result: 50, results: { title: check(false) } },
			),
		).toEqual({
			previous: { result: null, class: null, generated_at: null },
			scoreDelta: null,
			failed: [],
			fixed: [],
		});
	});
});
