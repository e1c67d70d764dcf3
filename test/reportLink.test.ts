import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { CheckResult, ReportRecord } from './server';
import { PolledWorkflow, runManually } from './harness/poll';
import { reanalyse } from './harness/reanalysis';
import { locator, useServer } from './harness/setup';

/*
 * Every report item carries `link` (the report's page on the instance the credential names) and
 * `top_failed_checks` (the three most important failed checks, ties in phpRank's own order), with
 * Simplify on and off, from every operation and trigger event that returns a report. The instance
 * here lives under a sub-path and its Base URL is pasted with `/api/v1/`, as users paste it.
 */

const check = (passed: boolean, importance: CheckResult['importance']): CheckResult => ({
	passed,
	importance,
	value: null,
	...(passed ? {} : { errors: { failed: null } }),
});
// phpRank's own order, not by importance: two high and two medium checks failed.
const MIXED: Record<string, CheckResult> = {
	robots: check(false, 'medium'),
	favicon: check(false, 'low'),
	title: check(true, 'high'),
	headings: check(false, 'high'),
	doctype: check(false, 'medium'),
	meta_description: check(false, 'high'),
	language: check(true, 'low'),
};
const MIXED_TOP = 'headings (high), meta_description (high), robots (medium)';
const ONE_LOW: Record<string, CheckResult> = {
	title: check(true, 'high'),
	favicon: check(false, 'low'),
};
const ALL_PASSED: Record<string, CheckResult> = {
	title: check(true, 'high'),
	robots: check(true, 'medium'),
};

const api = useServer({ basePath: '/phprank' });
// As a user pastes it: the API root with a trailing slash.
const credential = () => ({ ...api.credential, baseUrl: `${api.server.url}/api/v1/` });
const linkOf = (id: number) => `${new URL(api.server.url).origin}/phprank/reports/${id}`;

beforeEach(() => api.server.deleteAllReports());

/** The node's items, the run expected to succeed. */
const run = (parameters: IDataObject, items?: IDataObject[]) =>
	api.ok({ resource: 'report', ...parameters }, { items, credential: credential() });

describe('link and top_failed_checks on the action node’s report items', () => {
	it.each([true, false])('Get, Simplify %s', async (simplify) => {
		const report = api.server.addReport({ url: 'https://example.com/a', results: MIXED });

		const items = await run({
			operation: 'get',
			reportId: locator('id', report.id),
			simplify,
		});
		expect(items[0].json).toMatchObject({
			id: report.id,
			link: linkOf(report.id),
			top_failed_checks: MIXED_TOP,
		});
		expect('results' in items[0].json).toBe(!simplify);
	});

	it('Get Many: each report its own link and checks; none failed is an empty string', async () => {
		const reports = [MIXED, ONE_LOW, ALL_PASSED].map((results, i) =>
			api.server.addReport({ url: `https://example.com/p${i}`, results }),
		);

		const items = await run({ operation: 'getAll', returnAll: true });

		const byId = new Map(items.map(({ json }) => [json.id, json]));
		expect(reports.map(({ id }) => byId.get(id))).toEqual([
			expect.objectContaining({ link: linkOf(reports[0].id), top_failed_checks: MIXED_TOP }),
			expect.objectContaining({ link: linkOf(reports[1].id), top_failed_checks: 'favicon (low)' }),
			expect.objectContaining({ link: linkOf(reports[2].id), top_failed_checks: '' }),
		]);
	});

	it('Create and Update (Re-Run Analysis): the new analysis’s checks', async () => {
		api.server.setNextAnalysis('https://example.com/new', { results: ONE_LOW });
		const created = await run({ operation: 'create', url: 'https://example.com/new' });
		const id = Number(created[0].json.id);
		api.server.setNextAnalysis('https://example.com/new', { results: MIXED });
		const updated = await run({
			operation: 'update',
			reportId: locator('id', id),
			updateFields: { rerunAnalysis: true },
			simplify: false,
		});

		expect(created[0].json).toMatchObject({
			link: linkOf(id),
			top_failed_checks: 'favicon (low)',
		});
		expect(updated[0].json).toMatchObject({
			id,
			link: linkOf(id),
			top_failed_checks: MIXED_TOP,
			results: MIXED,
		});
	});

	it.each([true, false])(
		'Create or Re-Run (One Item per Page), Simplify %s: a re-run and a created report',
		async (simplify) => {
			const old = api.server.addReport({ url: 'https://example.com/old', results: ONE_LOW });
			api.server.setNextAnalysis('https://example.com/old', { results: MIXED });
			api.server.setNextAnalysis('https://example.com/fresh', { results: ALL_PASSED });

			const items = await run({ operation: 'createOrRerun', url: '={{ $json.url }}', simplify }, [
				{ url: 'https://example.com/old' },
				{ url: 'https://example.com/fresh' },
			]);
			const fresh = api.server.listReports().find(({ url }) => url === 'example.com/fresh')!;
			expect(items.map(({ json }) => json)).toEqual([
				expect.objectContaining({
					action: 'rerun',
					id: old.id,
					link: linkOf(old.id),
					top_failed_checks: MIXED_TOP,
				}),
				expect.objectContaining({
					action: 'created',
					id: fresh.id,
					link: linkOf(fresh.id),
					top_failed_checks: '',
				}),
			]);
		},
	);
});

describe('link and top_failed_checks on the trigger’s report items', () => {
	const trigger = (parameters: INodeParameters) => new PolledWorkflow(parameters, credential());
	const rescore = (report: ReportRecord, score: number) =>
		void reanalyse(api.server, report.id, { score });

	// New Report: a report made after the activation; the change events: one re-analysed 85 → 40.
	it.each<[string, INodeParameters]>([
		['newReport', { simplify: true }],
		['newReport', { simplify: false }],
		['resultChanged', {}],
		['scoreChanged', { minChange: 5 }],
	])('%s %j', async (event, extra) => {
		const add = () =>
			api.server.addReport({ url: 'https://example.com/a', result: 85, results: MIXED });
		const before = event === 'newReport' ? undefined : add();
		const workflow = trigger({ event, ...extra });
		await workflow.activate();
		const report = before ?? add();
		if (before) rescore(before, 40);

		const { items } = await workflow.poll();

		expect(items?.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				event,
				id: report.id,
				url: 'example.com/a',
				score: before ? 40 : 85,
				link: linkOf(report.id),
				top_failed_checks: MIXED_TOP,
			}),
		]);
	});

	it('One Item per Site with Simplify off: each event’s item has them; the drops keep their links', async () => {
		const report = api.server.addReport({
			url: 'https://example.com/a',
			result: 85,
			results: ONE_LOW,
		});
		const workflow = trigger({
			event: 'scoreChanged',
			minChange: 5,
			output: 'sites',
			simplify: false,
		});
		await workflow.activate();
		rescore(report, 60);

		const { items } = await workflow.poll();

		const site = items![0].json;
		expect(site.biggest_drops).toEqual([expect.objectContaining({ link: linkOf(report.id) })]);
		expect(site.events).toEqual([
			expect.objectContaining({
				id: report.id,
				link: linkOf(report.id),
				top_failed_checks: 'favicon (low)',
			}),
		]);
	});

	it('Fetch Test Event', async () => {
		const report = api.server.addReport({ url: 'https://example.com/a', results: ALL_PASSED });

		const { items, error } = await runManually({ event: 'newReport' }, credential());

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			sample: true,
			id: report.id,
			link: linkOf(report.id),
			top_failed_checks: '',
		});
	});
});
