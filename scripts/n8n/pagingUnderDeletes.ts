/**
 * Issue 38's run in a real n8n: Report → Get Many with Return All (100 a page, as the node reads) over 1,000
 * reports, while something in front of phpRank deletes the newest report before it forwards each request for
 * a page after the first (a clean-up workflow running at the same moment). Ten runs: one workflow, a Manual
 * Trigger and ten Get Many nodes, each with its own test server seeded alike (the re-seed between runs), saved
 * with its credentials by REST while n8n runs, then run once by `n8n execute` (the branches of an
 * execution-order v1 workflow run one after another). Each run must return every report that existed from its first request to its last
 * exactly once: 0 missing, 0 twice, and nothing that never existed.
 */
import { PhpRankServer, TEST_API_KEY, type RecordedRequest } from '../../test/server';
import { json } from './checks';
import { executeWorkflow, exitNote, failureDetail } from './n8n';
import { saveWorkflow, type RestSession } from './rest';
import type { N8nSandbox } from './sandbox';
import type { Suite } from './suite';
import { manualTrigger, phpRank, workflow } from './workflow';

const RUNS = 10;
const REPORTS = 1000;

/** A test server of 1,000 reports whose list deletes its newest report before each page after the first. */
async function shrinkingServer() {
	const api = new PhpRankServer({ throttle: false });
	const initial = api.seedReports(REPORTS).map((r) => r.id);
	const deleted: number[] = [];
	// Nothing else deletes: the newest is the last id left (listReports() copies every report: too slow here).
	const left = [...initial];
	api.beforeList(({ resource, page }) => {
		if (resource !== 'reports' || page <= 1) return;
		const newest = left.pop();
		if (newest !== undefined && api.deleteReport(newest)) deleted.push(newest);
	});
	await api.start();
	return { api, initial, deleted };
}

/** One run's outcome, as the check prints it; `seconds`: from the run's first request to its last. */
const count = (
	initial: number[],
	deleted: number[],
	got: number[],
	requests: RecordedRequest[],
) => {
	const survivors = initial.filter((id) => !deleted.includes(id));
	const pages = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports');
	const at = pages.map((r) => r.receivedAt);
	const seen = new Map<number, number>();
	for (const id of got) seen.set(id, (seen.get(id) ?? 0) + 1);
	return {
		returned: got.length,
		survivors: survivors.length,
		deleted: deleted.length,
		missing: survivors.filter((id) => !seen.has(id)).length,
		twice: [...seen.values()].filter((n) => n > 1).length,
		unknown: [...seen.keys()].filter((id) => !initial.includes(id)).length,
		pageRequests: pages.length,
		seconds: at.length ? (Math.max(...at) - Math.min(...at)) / 1000 : 0,
	};
};

/**
 * Ten test servers of 1,000 reports each (stopped at the suite's end), their credentials and Manual → ten Get
 * Many (Return All) saved through `session`. Returns the section: the workflow run once by `n8n execute` (n8n
 * stopped), each run's counts printed and checked.
 */
export async function shrinkingLists(
	suite: Suite,
	session: RestSession,
): Promise<(sb: N8nSandbox) => Promise<void>> {
	const runs = await Promise.all(Array.from({ length: RUNS }, () => shrinkingServer()));
	for (const { api } of runs) suite.defer(() => api.stop());
	const names = runs.map((_, i) => `Get Many ${i + 1}`);
	const credentials: Array<Awaited<ReturnType<RestSession['createCredential']>>> = [];
	for (const [i, { api }] of runs.entries())
		credentials.push(
			await session.createCredential({
				name: `phpRank (shrinking list ${i + 1})`,
				type: 'phpRankApi',
				data: { baseUrl: api.url, apiKey: TEST_API_KEY },
			}),
		);
	const wf = workflow(
		'',
		'e2e: Return All while reports are deleted',
		[
			manualTrigger('Manual'),
			...names.map((name, i) =>
				phpRank(
					name,
					{ resource: 'report', operation: 'getAll', returnAll: true, simplify: true },
					{ id: credentials[i].id, name: credentials[i].name },
				),
			),
		],
		names.map((name) => ['Manual', name]),
	);
	const { id } = await saveWorkflow(session, wf);
	return async (sb: N8nSandbox): Promise<void> => {
		suite.section(
			`Return All while reports are deleted (issue 38): ${RUNS} runs of Get Many over ${REPORTS} reports, the newest deleted before each page request after the first`,
		);
		const run = await suite.timed(`n8n execute (${RUNS} Return All runs)`, () =>
			executeWorkflow(sb, id),
		);
		const died = exitNote(run);
		if (died) suite.note(died);
		if (!suite.check('the execution succeeds', run.ok, failureDetail(run))) return;
		const counts = runs.map(({ api, initial, deleted }, i) =>
			count(
				initial,
				deleted,
				json(run.outputs[names[i]]).map((item) => Number(item.id)),
				api.requests,
			),
		);
		counts.forEach((c, i) =>
			suite.note(
				`run ${i + 1}: ${c.returned} returned = ${c.survivors} survivors + ${c.returned - c.survivors} of the ${c.deleted} deleted during the run (read before they went); ${c.missing} missing, ${c.twice} twice, ${c.unknown} unknown; ${c.pageRequests} page requests in ${c.seconds.toFixed(1)} s`,
			),
		);
		suite.check(
			`every run deleted reports while it read (${counts.map((c) => c.deleted).join(', ')})`,
			counts.every((c) => c.deleted > 0),
		);
		suite.check(
			`each of the ${RUNS} runs returned every survivor exactly once: 0 missing, 0 twice, nothing unknown`,
			counts.every((c) => c.missing === 0 && c.twice === 0 && c.unknown === 0),
			counts,
		);
	};
}
