import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { HISTORY_HOMES } from '../nodes/PhpRank/history/homes';
import { datedRunOfRow, historyOfRuns, notWrittenBy, rowOf } from '../nodes/PhpRank/history/model';
import type { HistoryRow, RunRecord } from '../nodes/PhpRank/history/model';
import { type HistoryHome, isProduction, writerOf } from '../nodes/PhpRank/history/stores';
import { locator, perSiteParameters, useN8nApi, useServer } from './harness/setup';
import { scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';
import { siteFigures } from './server';

/*
 * The History Store's homes behind one interface: the same scenario, through the real n8n engine
 * against the test phpRank server (and the stand-in for n8n's public API), gives the same history
 * in each, for Create or Re-Run, One Digest's reader and Compare With Competitors' pages. A third
 * home, in memory, is defined here alone and registered by one entry in HISTORY_HOMES.
 */

const SITE = 'stores.example.com';
const URLS = [`https://${SITE}/`, `https://${SITE}/a`];
const START = Date.parse('2026-02-02T08:00:00Z');
const [YOU, RIVAL] = [`https://${SITE}/pricing`, 'https://rival.example.org/pricing'];
const TABLE = { historyTable: locator('name', 'phpRank history') };
const DIGEST = { resource: 'project', operation: 'getHealth', output: 'digest', allProjects: true };
/** A production execution, or a manual one (its ID begins with m). */
const modeOf = (id: string) => (id.startsWith('m') ? 'manual' : 'webhook') as 'manual' | 'webhook';

const rows: Array<HistoryRow & { createdAt: string }> = [];
const runsOf = (site: string, execution: string) =>
	rows.flatMap(
		(row) => (row.site === site && notWrittenBy(execution)(row) && datedRunOfRow(row)) || [],
	);
/** Upserted on site and execution, as the table does; a manual execution keeps nothing. */
function put(ctx: IExecuteSingleFunctions, site: string, record: RunRecord) {
	const written = { createdAt: new Date().toISOString() }; // as a table stamps a row
	const row = {
		...rowOf(site, record, [], { execution: writerOf(ctx), workflow: '' }),
		...written,
	};
	const at = rows.findIndex((old) => old.site === site && old.execution_id === row.execution_id);
	if (isProduction(ctx)) rows.splice(at < 0 ? rows.length : at, at < 0 ? 0 : 1, row);
	return { saved: isProduction(ctx) };
}
const memory: HistoryHome = {
	check() {},
	sites: {
		open: async () => ({
			past: async (ctx, site) => ({
				history: historyOfRuns(runsOf(site, writerOf(ctx))),
				groupsBefore: null,
			}),
			keep: async (ctx, site, history) => put(ctx, site.project, history.records.at(-1)!),
		}),
	},
	reader: {
		read: async (_ctx, sites) => ({
			runs: new Map(sites.map((site) => [site, runsOf(site, '')])),
			note: null,
		}),
	},
	pages: {
		open: async (ctx, _run, sites) => ({
			previous: new Map(sites.flatMap((s) => runsOf(s, writerOf(ctx)).map((r) => [s, r.record]))),
			keep: async (kept, runs) => runs.map((r) => put(kept, r.site, r.record))[0],
		}),
	},
};

describe('History Store: one interface, each home', () => {
	const api = useServer();
	const n8n = useN8nApi();
	beforeAll(() => (HISTORY_HOMES.memory = memory));
	afterAll(() => delete HISTORY_HOMES.memory);
	const fresh = () => [api.reset(), n8n.reset(), (rows.length = 0)];
	const execution = (id: string) => ({
		execution: { mode: modeOf(id), id, n8nApi: n8n.credential },
	});

	/** Four production runs a week apart, a manual run after the second, the third tried twice (Retry On Fail); then the digest. */
	async function scenario(store: string) {
		fresh();
		const parameters = () => perSiteParameters({ historyStore: store, ...TABLE });
		const { run } = siteRuns(api, parameters, { urls: URLS, n8nApi: () => n8n.credential });
		const seen: IDataObject[] = [];
		const expected: unknown[][] = [];
		const steps = { e1: 0, e2: 1, m1: 1.5, e3: 2, e3_: 2.1, e4: 3 };
		for (const [name, week] of Object.entries(steps)) {
			const id = name.replace('_', '');
			const step = Math.round(week * 4);
			const [scores, failing] = [[60 + step, 70 + step], [week >= 1 ? ['title'] : []]];
			scriptRun(api.server, URLS, { start: START, run: week, scores, failing });
			const { items, error } = await run(modeOf(id), { id });
			expect(error).toBeUndefined();
			const site = items[0].json;
			const { date, average_score } = siteFigures(api.server, SITE);
			expected.push([date, average_score]);
			seen.push({
				runs_recorded: site.runs_recorded,
				history: (site.history as IDataObject[]).map((r) => [r.date, r.average_score]),
				history_saved: site.history_saved,
				new_issues: (site.new_issues as IDataObject[]).map((i) => i.check),
				open_issues: (site.open_issues as IDataObject[]).map((i) => [i.check, i.age_runs]),
			});
		}
		const digest = { ...DIGEST, simplify: false, historyStore: store, ...TABLE };
		const sites = (await api.first(digest, execution('d1'))).sites as IDataObject[];
		// When the last run was written is the clock's: each reader's is within this scenario, so audited
		// (This Workflow has no reader: nobody knows).
		expect(sites.map(({ audited }) => audited)).toEqual([store === 'workflow' ? null : true]);
		return { seen, expected, digest: sites.map(({ last_audit: _, audited: __, ...site }) => site) };
	}

	/** Compared twice in production, a manual comparison between, the second tried twice (Retry On Fail). */
	async function comparisons(store: string) {
		fresh();
		const competitors = { competitor: [{ url: RIVAL }] };
		const parameters = { resource: 'report', operation: 'compare', yourUrl: YOU, competitors };
		const options = { simplify: false, reuseHours: 0, historyStore: store, ...TABLE };
		const seen: unknown[] = [];
		// Your score and the rival's, by execution.
		for (const [id, yours, theirs] of [
			['c1', 70, 68],
			['m1', 60, 90],
			['c2', 70, 80],
			['c2', 70, 82],
		] as const) {
			api.server.setNextAnalysis(YOU, { score: yours });
			api.server.setNextAnalysis(RIVAL, { score: theirs });
			const item = await api.first({ ...parameters, ...options }, execution(id));
			const [entry] = item.competitors as IDataObject[];
			seen.push([item.history_saved, item.overtaken_by, entry.previous_gap, entry.gap_change]);
		}
		return seen;
	}

	it('a comparison reads and keeps its pages the same in each home that has them', async () => {
		const table = await comparisons('dataTable');
		expect(await comparisons('memory')).toEqual(table);
		// The manual comparison keeps nothing and reads as production would; a retry reads what was there before it.
		expect(table).toEqual([
			[true, [], null, null],
			[false, [RIVAL], -2, 32],
			[true, [RIVAL], -2, 12],
			[true, [RIVAL], -2, 14],
		]);
	});

	it('the same runs give the same history in each home, and the digest reads it the same', async () => {
		const workflow = await scenario('workflow');
		const table = await scenario('dataTable');
		const third = await scenario('memory');
		expect(table.seen).toEqual(workflow.seen);
		expect(third.seen).toEqual(workflow.seen);
		// Kept in the third home itself: one row per production run, the retried one once.
		expect(rows.map((row) => row.execution_id)).toEqual(['e1', 'e2', 'e3', 'e4']);
		// The history of each run: the production runs before it (the retried one once), this run last.
		expect(workflow.seen.map((s) => s.runs_recorded)).toEqual([1, 2, 3, 3, 3, 4]);
		const saved = workflow.seen.map((s) => s.history_saved);
		expect(saved).toEqual([true, true, false, true, true, true]);
		expect(workflow.seen[5].history).toEqual([0, 1, 4, 5].map((step) => workflow.expected[step]));
		expect(workflow.seen[5].open_issues).toEqual([['title', 3]]);
		// One Digest reads the third home as it reads the table (This Workflow has no reader).
		expect(third.digest).toEqual(table.digest);
		expect(table.digest).toMatchObject([
			{ project: SITE, oldest_issue_since: workflow.expected[1][0] },
		]);
	});
});
