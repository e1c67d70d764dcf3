/*
 * npm run bench:history: what History Store → Data Table adds to a Create or Re-Run run (One Item per
 * Site) beside This Workflow: 20 sites of 5 pages, each with 12 earlier runs in its store, run as
 * production executions through the real n8n engine against the bundled phpRank test server and the
 * stand-in for n8n's public API (test/server/n8nApi.ts, answering as n8n 2.41.1 does). Both stores are
 * measured in the same run, rounds alternating; the medians and their ratio are printed. Figures, not
 * assertions (this machine is noisy); only a wrong request count fails the run.
 */
import type { IDataObject } from 'n8n-workflow';

import { PhpRankServer, TEST_API_KEY } from '../test/server';
import { startN8nApi } from '../test/server/n8nApi';
import { alternating, engine, median, runMain } from './benchKit';

const SITES = 20;
const PAGES = 5;
const EARLIER_RUNS = 12;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const N8N_KEY = 'bench-key';
const STORES = ['workflow', 'dataTable'] as const;
type Store = (typeof STORES)[number];

const urls = Array.from({ length: SITES }, (_, site) =>
	Array.from({ length: PAGES }, (_, page) => `https://site${site}.example.com/p${page}`),
).flat();

runMain(async () => {
	const runNode = await engine();
	const phpRank = new PhpRankServer({ throttle: false });
	await phpRank.start();
	const n8n = await startN8nApi({ apiKey: N8N_KEY });
	let execution = 0;
	const staticData: Record<Store, IDataObject> = { workflow: {}, dataTable: {} };
	const run = async (store: Store) => {
		const started = performance.now();
		const result = await runNode(
			{
				resource: 'report',
				operation: 'createOrRerun',
				url: '={{ $json.url }}',
				privacy: 1,
				output: 'sites',
				historyStore: store,
				historyTable: { __rl: true, mode: 'name', value: 'bench history' },
			},
			{ baseUrl: phpRank.url, apiKey: TEST_API_KEY },
			{
				items: urls.map((url) => ({ url })),
				execution: {
					mode: 'webhook',
					id: String(++execution),
					staticData: staticData[store],
					n8nApi: { baseUrl: n8n.url, apiKey: N8N_KEY },
				},
			},
		);
		if (result.error) throw result.error;
		staticData[store] = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
		const saved = result.items.filter(({ json }) => json.history_saved === true).length;
		if (result.items.length !== SITES || saved !== SITES)
			throw new Error(`${store}: ${result.items.length} site items, ${saved} saved`);
		return performance.now() - started;
	};
	const n8nRequests: number[] = [];
	const measure = async () => {
		for (let warm = 0; warm < EARLIER_RUNS; warm++) for (const store of STORES) await run(store);
		return alternating(ROUNDS, STORES, async (store) => {
			n8n.requests.length = 0;
			const ms = await run(store);
			if (store === 'dataTable') n8nRequests.push(n8n.requests.length);
			else if (n8n.requests.length !== 0) throw new Error('This Workflow asked n8n');
			return ms;
		});
	};
	const wall = await measure().finally(() => Promise.all([n8n.close(), phpRank.stop()]));
	const [workflowMs, tableMs] = [median(wall.workflow), median(wall.dataTable)];
	const rowsRead = SITES * (EARLIER_RUNS + ROUNDS);
	console.log(
		`Create or Re-Run, One Item per Site: ${SITES} sites of ${PAGES} pages, ${EARLIER_RUNS}+ earlier runs each, ${ROUNDS} rounds, Node ${process.version}`,
	);
	const row = (ms: number, n8n?: number) => ({
		'wall ms (median)': Math.round(ms),
		'requests to n8n': n8n,
	});
	console.table({
		'This Workflow (static data)': row(workflowMs, 0),
		'Data Table': row(tableMs, n8nRequests.at(-1)),
	});
	console.log(
		`Data Table / This Workflow wall time: ${(tableMs / workflowMs).toFixed(2)}; added per site: ${((tableMs - workflowMs) / SITES).toFixed(1)} ms`,
	);
	console.log(
		`requests to n8n per run: ${n8nRequests.join(', ')} (1 table lookup + 1 read per 250 rows of up to ${rowsRead} + ${SITES} upserts)`,
	);
	const expected = (rows: number) => 1 + Math.ceil(rows / 250) + SITES;
	if (n8nRequests.some((count, round) => count !== expected(SITES * (EARLIER_RUNS + round))))
		throw new Error('unexpected number of requests to n8n');
});
