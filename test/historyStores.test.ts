import type { IDataObject } from 'n8n-workflow';

import { emptyHistory } from '../nodes/PhpRank/history/model';
import type { HistoryStore } from '../nodes/PhpRank/history/stores';
import { locator, perSiteParameters, useN8nApi, useServer } from './harness/setup';
import { scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';
import { siteFigures } from './server';

/*
 * The History Store's two homes, This Workflow and Data Table, behind one interface: the same
 * scenario, through the real n8n engine against the test phpRank server (and the stand-in for n8n's
 * public API), gives the same history in both. And a third home that forgets a method does not compile.
 */

const SITE = 'stores.example.com';
const URLS = [`https://${SITE}/`, `https://${SITE}/a`];
const START = Date.parse('2026-02-02T08:00:00Z');

describe('History Store: one interface, two homes', () => {
	const api = useServer();
	const n8n = useN8nApi();

	/** Four production runs a week apart, a manual run after the second, the third tried twice (Retry On Fail). */
	async function scenario(store: 'workflow' | 'dataTable') {
		api.server.deleteAllReports();
		n8n.reset();
		const { run } = siteRuns(
			api,
			() =>
				perSiteParameters({
					historyStore: store,
					historyTable: locator('name', 'phpRank history'),
				}),
			{ urls: URLS, n8nApi: () => n8n.credential },
		);
		const seen: IDataObject[] = [];
		const expected: unknown[][] = [];
		const steps: Array<{ week: number; mode: 'webhook' | 'manual'; id: string }> = [
			{ week: 0, mode: 'webhook', id: 'e1' },
			{ week: 1, mode: 'webhook', id: 'e2' },
			{ week: 1.5, mode: 'manual', id: 'm1' },
			{ week: 2, mode: 'webhook', id: 'e3' },
			{ week: 2.1, mode: 'webhook', id: 'e3' },
			{ week: 3, mode: 'webhook', id: 'e4' },
		];
		for (const { week, mode, id } of steps) {
			const step = Math.round(week * 4);
			scriptRun(api.server, URLS, {
				start: START,
				run: week,
				scores: [60 + step, 70 + step],
				failing: [week >= 1 ? ['title'] : []],
			});
			const { items, error } = await run(mode, { id });
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
		return { seen, expected };
	}

	it('the same runs give the same history in both homes', async () => {
		const workflow = await scenario('workflow');
		const table = await scenario('dataTable');
		expect(table.seen).toEqual(workflow.seen);
		// The history of each run: the production runs before it (the retried one once), this run last.
		expect(workflow.seen.map((s) => s.runs_recorded)).toEqual([1, 2, 3, 3, 3, 4]);
		const saved = workflow.seen.map((s) => s.history_saved);
		expect(saved).toEqual([true, true, false, true, true, true]);
		expect(workflow.seen[5].history).toEqual([0, 1, 4, 5].map((step) => workflow.expected[step]));
		expect(workflow.seen[5].open_issues).toEqual([['title', 3]]);
	});

	it('a third home that forgets a method is refused by tsc', () => {
		// @ts-expect-error: `keep` is missing
		const third: HistoryStore = {
			async prepare() {},
			async past() {
				return { history: emptyHistory(), groupsBefore: null };
			},
		};
		expect(Object.keys(third)).toEqual(['prepare', 'past']);
	});
});
