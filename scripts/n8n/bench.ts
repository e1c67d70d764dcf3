/**
 * `npm run bench:n8n`: the phpRank node against what a user would pick instead, inside the real n8n 2.41.1
 * that `npm run dev` and `npm run test:e2e` use (scripts/n8n/install.sh), in one run:
 *
 *   work                       contenders
 *   Return All, 10,000 reports  phpRank node (Simplify on, off) | HTTP Request node paging on `page` + Split Out
 *                               | plain fetch loop (sequential)
 *   1,000 Get items (an ID per  phpRank node | HTTP Request node (`.../reports/{{ $json.id }}`)
 *   item)                       | plain fetch loop (sequential, and all at once)
 *
 * Every contender talks to the same phpRank test server (test/server, unthrottled, in its own process so it
 * never shares an event loop with a client). A node's time is its own `executionTime` from n8n's run data
 * (summed over the nodes doing the job: HTTP Request + Split Out); the fetch loops run in this process (Node 20).
 * Medians of N rounds, the order of the contenders reversed every other round; requests are counted by the
 * server. Then the memory table: Return All over 20,000 reports, peak RSS of the n8n process against a
 * one-item run. Figures only: no threshold fails the run; it exits 1 only when a run is broken (an execution
 * fails, or returns the wrong number of items).
 *
 * Then the monitoring table (issue 19): Report → Create or Re-Run over the pages of one site among many other
 * reports, with phpRank's throttle on: a run of re-runs, the first run (the site has no report yet), and plain
 * Report → Create of the same pages as the baseline (plus One Item per Site, and Confirm Drops over scripted
 * drops); requests by kind, reports created, and the node's wall time against the least the throttle allows.
 * phpRank's window (60 requests a minute) is scaled in time to 6 s (600 a minute), so the run takes a minute, not eight.
 *
 * Each workflow runs in its own `n8n execute` process; scripts/n8n/bench-hook.js (an n8n external hook)
 * records the run data's timings and the process's peak RSS when the execution ends, and drops the items
 * before n8n prints them.
 *
 *   npm run bench:n8n -- [--quick] [--only speed,memory,monitor] [--skip-build]
 *
 * --quick: 1 round over 1,000 reports, 100 Gets, memory over 2,000 reports, monitoring of 100 pages among
 * 1,000 other reports (a smoke run); the sizes are COUNTS below.
 * --only: the tables to make (default all three); `--only monitor` is the monitoring table alone.
 * --skip-build packs the current dist/ as it is.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';

import {
	alternating,
	fetchAllReports,
	getJson,
	int,
	median,
	ms,
	plural,
	printTable,
	times,
} from '../benchKit';
import { TEST_API_KEY, type ThrottleOptions } from '../../test/server';
import { SCRIPTED_DROP, spelledUrls, startServerProcess, throttleFloorMs } from './bench-server';
import { PHPRANK_CRED, REPO, run, testServerCredential } from './checks';
import { same } from './report';
import {
	manualTrigger,
	node,
	phpRank,
	workflow as buildWorkflow,
	type Link,
	type WorkflowJson,
	type WorkflowNode,
} from './workflow';
import {
	createSandbox,
	getRuntime,
	importCredentials,
	importWorkflows,
	installPackage,
	packPackage,
	removeSandbox,
	runCli,
	type N8nSandbox,
} from './n8n';

const HOOK_FILE = path.join(__dirname, 'bench-hook.js');
const PAGE_SIZE = 100;
const EXECUTE_TIMEOUT_MS = 600_000;
/** phpRank's own default rate limit: 60 requests a minute per API key (the test server's default too). */
const PHPRANK_RATE_LIMIT = 60;

// --- options ---------------------------------------------------------------------------------

/** The sizes of a run: [the default, with --quick]. */
const COUNTS = {
	rounds: [5, 1],
	reports: [10_000, 1_000],
	gets: [1_000, 100],
	memReports: [20_000, 2_000],
	memRounds: [3, 1],
	monitorUrls: [500, 100],
	monitorOthers: [10_000, 1_000],
} as const;
/** phpRank's minute, scaled in time: 60 requests per 6 s (600 a minute), so a monitoring run takes a minute, not eight. */
const MONITOR_WINDOW_MS = 6_000;

const JOBS = ['speed', 'memory', 'monitor'] as const;
type Job = (typeof JOBS)[number];

type Options = ReturnType<typeof parseOptions>;

/** A wrong option: says so, points to --help and exits 1. */
function usage(message: string): never {
	console.error(`${message} (see npm run bench:n8n -- --help)`);
	process.exit(1);
}

function parseOptions(argv: string[]) {
	let values: Record<string, string | boolean | undefined>;
	try {
		({ values } = parseArgs({
			args: argv,
			options: {
				quick: { type: 'boolean' },
				'skip-build': { type: 'boolean' },
				only: { type: 'string' },
				help: { type: 'boolean' },
			},
		}));
	} catch (error) {
		usage((error as Error).message);
	}
	if (values.help) {
		console.log(fs.readFileSync(__filename, 'utf8').split('*/')[0]);
		process.exit(0);
	}
	const only =
		typeof values.only === 'string' ? values.only.split(',').map((job) => job.trim()) : [...JOBS];
	if (only.some((job) => !(JOBS as readonly string[]).includes(job)))
		usage(`--only takes ${JOBS.join(', ')} (comma-separated), got "${String(values.only)}"`);
	const sizes = Object.entries(COUNTS).map(([key, [full, quick]]) => [
		key,
		values.quick ? quick : full,
	]);
	return {
		...(Object.fromEntries(sizes) as Record<keyof typeof COUNTS, number>),
		build: values['skip-build'] !== true,
		jobs: new Set(only as Job[]),
	};
}

// --- workflows -------------------------------------------------------------------------------

const HEADER_CRED = { id: 'benchHeaderAuth01', name: 'phpRank bearer header (bench server)' };

/** The HTTP Request node as a user sets it up: Header Auth credential, URL typed in. */
const httpRequestNode = (name: string, url: string, extra: Record<string, unknown> = {}) =>
	node(
		name,
		'n8n-nodes-base.httpRequest',
		{
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			options: {},
			...extra,
		},
		{ typeVersion: 4.5, credentials: { httpHeaderAuth: HEADER_CRED } },
	);

const splitOutNode = (name: string, field: string, destination?: string) =>
	node(name, 'n8n-nodes-base.splitOut', {
		fieldToSplitOut: field,
		options: destination ? { destinationFieldName: destination } : {},
	});

/** `values` as items `{ [field]: value }` from a fixed list (Edit Fields (JSON) + Split Out), like a sheet's column. */
const listItems = (name: string, field: string, values: unknown[]): WorkflowNode[] => [
	node(
		name,
		'n8n-nodes-base.set',
		{ mode: 'raw', jsonOutput: JSON.stringify({ list: values }), options: {} },
		{ typeVersion: 3.4 },
	),
	splitOutNode(`One item per ${field}`, 'list', field),
];

/** The phpRank node of every bench workflow, named phpRank. */
const phpRankNode = (parameters: Record<string, unknown>): WorkflowNode =>
	phpRank('phpRank', parameters, PHPRANK_CRED);

type Shape = { text: string; ok: (item: Record<string, unknown>) => boolean };

const SIMPLIFIED: Shape = {
	text: 'a simplified report (failed checks as counts, no results)',
	ok: (item) => typeof item.failed_high === 'number' && !('results' in item),
};
const FULL_RECORD: Shape = {
	text: 'a full report (results)',
	ok: (item) => typeof item.id === 'number' && typeof item.results === 'object',
};

interface Contender {
	/** list…: of the speed table's Return All row; get…: of its Get row */
	key: string;
	label: string;
}
const isList = (c: Contender) => c.key.startsWith('list');

interface N8nContender extends Contender {
	workflowId: string;
	/** the nodes doing the job: their executionTime is summed; the first one's output must hold the expected items */
	measured: string[];
	/** what its first item must look like, so that each contender does the job its label says */
	shape: Shape;
	build: (api: string, firstId: number, gets: number) => WorkflowJson;
}

/** A fetch loop in this process: the items it got. */
interface FetchContender extends Contender {
	run: (api: string, firstId: number, gets: number) => Promise<number>;
}

/** A contender whose workflow (id `bench<key>`) is a Manual Trigger, then `chain` one after the other. */
function contender(
	key: string,
	label: string,
	shape: Shape,
	chain: (api: string, firstId: number, gets: number) => WorkflowNode[],
	measured = ['phpRank'],
): N8nContender {
	const workflowId = `bench${key}`;
	const build = (api: string, firstId: number, gets: number) => {
		const nodes = [manualTrigger('Start'), ...chain(api, firstId, gets)];
		const links = nodes.slice(1).map((n, i): Link => [nodes[i].name, n.name]);
		return buildWorkflow(workflowId, `bench: ${label}`, nodes, links);
	};
	return { key, label, workflowId, measured, shape, build };
}

const idItems = (firstId: number, count: number) =>
	listItems(
		'Report IDs',
		'id',
		Array.from({ length: count }, (_, i) => firstId + i),
	);
const getReport = (id: string) =>
	phpRankNode({
		resource: 'report',
		operation: 'get',
		reportId: { __rl: true, mode: 'id', value: id },
	});
const getReports = (api: string, firstId: number, gets: number) =>
	Array.from(
		{ length: gets },
		(_, i) => async () => (await getJson(`${api}/reports/${firstId + i}`)).data,
	);

/** The speed table's contenders in its order: the Return All row, then the Get row. */
const SPEED: Array<N8nContender | FetchContender> = [
	{
		key: 'listFetch',
		label: 'fetch loop, pages in sequence',
		run: async (api) => (await fetchAllReports(api)).length,
	},
	...[true, false].map((simplify) =>
		contender(
			simplify ? 'listPhpRank' : 'listPhpRankFull',
			`phpRank node, Return All, Simplify ${simplify ? 'on' : 'off'}`,
			simplify ? SIMPLIFIED : FULL_RECORD,
			() => [phpRankNode({ resource: 'report', operation: 'getAll', returnAll: true, simplify })],
		),
	),
	contender(
		'listHttp',
		'HTTP Request (paging) + Split Out',
		FULL_RECORD,
		(api) => [
			httpRequestNode('HTTP Request', `${api}/reports`, {
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'per_page', value: String(PAGE_SIZE) }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
							},
							paginationCompleteWhen: 'other',
							completeExpression:
								'={{ $response.body.meta.current_page >= $response.body.meta.last_page }}',
						},
					},
				},
			}),
			splitOutNode('Split Out', 'data'),
		],
		['Split Out', 'HTTP Request'],
	),
	{
		key: 'getFetch',
		label: 'fetch loop, Gets in sequence',
		run: async (api, firstId, gets) => {
			const items: unknown[] = [];
			for (const get of getReports(api, firstId, gets)) items.push(await get());
			return items.length;
		},
	},
	{
		key: 'getFetchAll',
		label: 'fetch loop, Gets all at once',
		run: async (api, firstId, gets) =>
			(await Promise.all(getReports(api, firstId, gets).map((get) => get()))).length,
	},
	contender('getPhpRank', 'phpRank node, Get', SIMPLIFIED, (_api, firstId, gets) => [
		...idItems(firstId, gets),
		getReport('={{ $json.id }}'),
	]),
	contender(
		'getHttp',
		'HTTP Request, Get',
		{
			text: 'the API answer { data: report }',
			ok: (item) => typeof (item.data as { id?: unknown } | undefined)?.id === 'number',
		},
		(api, firstId, gets) => [
			...idItems(firstId, gets),
			httpRequestNode('HTTP Request', `=${api}/reports/{{ $json.id }}`),
		],
		['HTTP Request'],
	),
];
const N8N_CONTENDERS = SPEED.filter((c): c is N8nContender => 'build' in c);

/** The one-item run of the memory table. */
const BASELINE = contender(
	'baseline',
	'one item (phpRank Get of one report)',
	SIMPLIFIED,
	(_api, firstId) => [getReport(String(firstId))],
);

/** Confirm Drops' case: one page in this many drops and comes back, the next drops and stays. */
const CONFIRM_EVERY = 25;

/** The site watched in the monitoring table; none of the seeded other reports is of it. */
const MONITOR_SITE = 'pages.example.net';

/** Each of `urls` through phpRank's Create or Re-Run (unless `parameters` say another), as items `{ url }`. */
const eachPage = (
	urls: string[],
	[key, label]: [string, string],
	shape: Shape,
	parameters: Record<string, unknown> = {},
) =>
	contender(key, label, shape, () => [
		...listItems('Pages', 'url', urls),
		phpRankNode({
			resource: 'report',
			operation: 'createOrRerun',
			url: '={{ $json.url }}',
			...parameters,
			simplify: true,
		}),
	]);

// --- running n8n -----------------------------------------------------------------------------

interface HookTask {
	executionTime: number;
	items: number[];
	first?: Record<string, unknown>;
}

/** What scripts/n8n/bench-hook.js records of an execution. */
interface HookOutput {
	status?: string;
	error?: string;
	nodes: Record<string, HookTask[]>;
	memoryKb: { peakRss: number };
}

class BrokenRun extends Error {}

interface Bench {
	sb: N8nSandbox;
	server: Awaited<ReturnType<typeof startServerProcess>>;
	api: string;
	outDir: string;
}

/** `n8n execute` of one workflow; the hook's record of it. Throws BrokenRun unless it succeeded with `expectItems` items. */
async function executeN8n(
	bench: Bench,
	contender: N8nContender,
	expectItems: number,
	timeoutMs = EXECUTE_TIMEOUT_MS,
): Promise<HookOutput> {
	const { label, workflowId, measured, shape } = contender;
	const outFile = path.join(bench.outDir, `${workflowId}.json`);
	fs.rmSync(outFile, { force: true });
	const args = ['execute', `--id=${workflowId}`, '--rawOutput'];
	const r = await runCli(bench.sb, args, { timeoutMs });
	if (!fs.existsSync(outFile))
		throw new BrokenRun(
			`${label}: n8n execute exited with ${r.code} and left no record\n${r.stdout.slice(-3000)}`,
		);
	const out = JSON.parse(fs.readFileSync(outFile, 'utf8')) as HookOutput;
	if (r.code !== 0 || out.status !== 'success')
		throw new BrokenRun(
			`${label}: execution ${out.status ?? 'failed'} (exit ${r.code}): ${out.error ?? 'no error message'}`,
		);
	const missing = measured.find((name) => !out.nodes[name]?.length);
	if (missing) throw new BrokenRun(`${label}: node "${missing}" did not run`);
	const output = out.nodes[measured[0]];
	const items = output.reduce((sum, task) => sum + (task.items[0] ?? 0), 0);
	if (items !== expectItems)
		throw new BrokenRun(
			`${label}: ${items} items out of "${measured[0]}", expected ${expectItems}`,
		);
	const first = output[0].first;
	if (!first || !shape.ok(first))
		throw new BrokenRun(
			`${label}: the first item is not ${shape.text}: ${JSON.stringify(first)?.slice(0, 500)}`,
		);
	return out;
}

const nodeMs = (out: HookOutput, name: string): number =>
	out.nodes[name].reduce((sum, task) => sum + task.executionTime, 0);

const mb = (kb: number): string => `${int(kb / 1024)} MB`;

/** alternating's roundDone: each contender's figure of the round, on one line. */
const logRound =
	<T>(what: string, rounds: number, unit: string, figure: (sample: T) => number) =>
	(round: number, all: Record<string, T[]>) =>
		console.log(
			`  ${what} ${round + 1}/${rounds} (${unit}): ${Object.entries(all)
				.map(([key, samples]) => `${key} ${int(figure(samples[round]))}`)
				.join(', ')}`,
		);

// --- the speed table -------------------------------------------------------------------------

/** A contender's run: its time (n8n: of each measured node) and the test server's figures. */
type Sample = Record<'requests' | 'failed' | 'ms', number> & { parts: Record<string, number> };

/** Every contender once a round, alternating the order; each run's time, requests and server figures. */
async function speed(bench: Bench, options: Options, firstId: number): Promise<void> {
	const contenders = new Map(SPEED.map((c) => [c.key, c]));
	const expected = (c: Contender) => (isList(c) ? options.reports : options.gets);
	const samples = await alternating(
		options.rounds,
		[...contenders.keys()],
		async (key): Promise<Sample> => {
			const c = contenders.get(key)!;
			await bench.server.call('reset');
			const parts: Record<string, number> = {};
			let ms: number;
			if ('run' in c) {
				const started = performance.now();
				const items = await c.run(bench.api, firstId, options.gets);
				ms = performance.now() - started;
				if (items !== expected(c))
					throw new BrokenRun(`${c.label}: ${items} items, expected ${expected(c)}`);
			} else {
				const out = await executeN8n(bench, c, expected(c));
				for (const name of c.measured) parts[name] = nodeMs(out, name);
				ms = Object.values(parts).reduce((a, b) => a + b, 0);
			}
			const counts = await bench.server.call('stats');
			if (counts.failed > 0)
				throw new BrokenRun(
					`${c.label}: the test server answered ${counts.failed} requests with an error status`,
				);
			return { ...counts, ms, parts };
		},
		{ roundDone: logRound('round', options.rounds, 'ms', (s) => s.ms) },
	);
	printSpeed(bench, options, samples);
	// Paging and per-item requests are part of what is compared: say when a contender sent more or fewer.
	for (const c of SPEED) {
		const n = isList(c) ? Math.ceil(options.reports / PAGE_SIZE) : options.gets;
		const odd = samples[c.key].map((s) => s.requests).filter((r) => r !== n);
		if (odd.length)
			console.log(`note: ${c.key} sent ${odd.join(', ')} requests in some rounds, expected ${n}`);
	}
}

/** The speed table (medians), then phpRank ÷ HTTP Request: of the medians and within each round. */
function printSpeed(bench: Bench, options: Options, samples: Record<string, Sample[]>): void {
	const all = (key: string, figure: (s: Sample) => number) => samples[key].map(figure);
	const m = (key: string) => median(all(key, (s) => s.ms));
	const part = (key: string, name: string) => median(all(key, (s) => s.parts[name]));
	const req = (key: string) => {
		const r = all(key, (s) => s.requests);
		const [lo, hi] = [Math.min(...r), Math.max(...r)];
		return lo === hi ? plural(lo, 'request') : `${int(lo)}–${int(hi)} requests`;
	};
	const gets = `${int(options.gets)} Get items`;

	printTable(
		`\n### Speed: medians of ${plural(options.rounds, 'round')}, each node's own executionTime (n8n ${bench.sb.runtime.n8nVersion}, Node ${nodeVersion(bench)}; fetch loops on Node ${process.version.slice(1)})`,
		['work', 'plain `fetch` loop', 'HTTP Request node (peer)', 'phpRank node'],
		[
			[
				`Return All, ${int(options.reports)} reports`,
				`${ms(m('listFetch'))} (${req('listFetch')})`,
				`${ms(m('listHttp'))} with Split Out (${ms(part('listHttp', 'HTTP Request'))} + ${ms(part('listHttp', 'Split Out'))}; ${req('listHttp')})`,
				`**${ms(m('listPhpRank'))}** (Simplify on), ${ms(m('listPhpRankFull'))} (off) (${req('listPhpRank')})`,
			],
			[
				`${gets} (an ID per item)`,
				`${ms(m('getFetch'))} sequential, ${ms(m('getFetchAll'))} all at once (${req('getFetch')})`,
				`${ms(m('getHttp'))} (${req('getHttp')})`,
				`**${ms(m('getPhpRank'))}** (${req('getPhpRank')})`,
			],
		],
	);
	// Each phpRank row beside its HTTP Request peer (work, phpRank, peer).
	const pairs: Array<[string, string, string]> = [
		['Return All, Simplify on', 'listPhpRank', 'listHttp'],
		['Return All, Simplify off', 'listPhpRankFull', 'listHttp'],
		[gets, 'getPhpRank', 'getHttp'],
	];
	printTable(
		'\nphpRank ÷ HTTP Request (below 1.00× = the phpRank node is faster): of the medians, and within each round (the pair ran back to back, so a busy machine weighs on both):',
		['work', 'of the medians', 'within each round: median', 'rounds'],
		pairs.map(([work, key, peer]) => {
			const ratios = samples[key].map((s, i) => s.ms / samples[peer][i].ms);
			const each = ratios.map((r) => r.toFixed(2)).join(', ');
			return [work, times(m(key), m(peer)), `${median(ratios).toFixed(2)}×`, each];
		}),
	);
}

// --- the memory table ------------------------------------------------------------------------

async function memory(bench: Bench, options: Options): Promise<void> {
	const contenders = [BASELINE, ...N8N_CONTENDERS.filter(isList)];
	const byKey = new Map(contenders.map((c) => [c.key, c]));
	const peaks = await alternating(
		options.memRounds,
		[...byKey.keys()],
		async (key) =>
			(await executeN8n(bench, byKey.get(key)!, key === BASELINE.key ? 1 : options.memReports))
				.memoryKb.peakRss,
		{ roundDone: logRound('memory round', options.memRounds, 'peak RSS MB', (kb) => kb / 1024) },
	);
	const peak = (key: string) => median(peaks[key]);
	const over = (key: string) => peak(key) - peak(BASELINE.key);
	printTable(
		`\n### Memory: Return All over ${int(options.memReports)} reports, peak RSS of the n8n process (VmHWM when the execution ended, after n8n saved it; median of ${plural(options.memRounds, 'round')})`,
		[
			'run',
			'peak RSS',
			'over the one-item run',
			'vs HTTP Request + Split Out (over the one-item run)',
		],
		contenders.map((c) => [
			c.label,
			mb(peak(c.key)),
			c === BASELINE ? '' : `+${mb(over(c.key))}`,
			c === BASELINE || c.key === 'listHttp' ? '' : times(over(c.key), over('listHttp')),
		]),
	);
}

// --- the monitoring table (throttled) --------------------------------------------------------

/** The requests a throttled run is expected to send to phpRank, by kind, and the reports it creates. */
type Expected = Record<'list' | 'put' | 'post' | 'created', number>;

/**
 * `contender` run once under `throttle`, with the requests about MONITOR_SITE counted by kind, and its row of
 * the table. It may take three times the throttle's floor for the expected requests and two minutes,
 * EXECUTE_TIMEOUT_MS at least.
 */
async function throttledRun(
	bench: Bench,
	throttle: ThrottleOptions,
	contender: N8nContender,
	expect: Expected,
	items: number,
) {
	const stats = () => bench.server.call('monitorStats', { site: MONITOR_SITE });
	const before = await stats();
	await bench.server.call('throttle', throttle);
	const floor = throttleFloorMs(expect.list + expect.put + expect.post, throttle);
	const timeoutMs = Math.max(EXECUTE_TIMEOUT_MS, 3 * floor + 120_000);
	const out = await executeN8n(bench, contender, items, timeoutMs);
	const after = await stats();
	const requests = after.list + after.otherList + after.put + after.post + after.other;
	const created = after.createdTotal - before.createdTotal;
	const got: Expected = { list: after.list, put: after.put, post: after.post, created };
	const wallMs = nodeMs(out, contender.measured[0]);
	const floorMs = throttleFloorMs(requests, throttle);
	/** `label`, the requests by kind, 429s, `createdCell`, the node's wall time, the floor's three. */
	const row = (label: string, createdCell: string) => [
		label,
		`**${int(requests)}**: ${int(after.list)} list (project filter)${after.otherList ? ` + ${int(after.otherList)} other list` : ''} + ${int(after.put)} re-runs + ${int(after.post)} creates${after.other ? ` + ${int(after.other)} other` : ''}`,
		int(after.throttled),
		createdCell,
		ms(wallMs),
		`${ms(floorMs)} (${plural(Math.ceil(requests / throttle.limit), 'window')})`,
		floorMs > 0 ? times(wallMs, floorMs) : '',
		floorAtPhpRankRate(requests),
	];
	return { out, after, got, requests, wallMs, row };
}

/** Every page of a site of `n` re-run: its list read (100 a page) and a re-run each. */
function rerunEach(n: number): Expected {
	return { list: Math.max(1, Math.ceil(n / PAGE_SIZE)), put: n, post: 0, created: 0 };
}

/** The floor of `requests` at phpRank's own 60 a minute, and at a steady 60/min. */
function floorAtPhpRankRate(requests: number): string {
	return `≥ ${(throttleFloorMs(requests, { limit: PHPRANK_RATE_LIMIT, windowMs: 60_000 }) / 60_000).toFixed(0)} min (${(requests / PHPRANK_RATE_LIMIT).toFixed(1)} min at a steady 60/min)`;
}

interface MonitorCase {
	label: string;
	contender: N8nContender;
	/** what the first output item's `action` must be (Create or Re-Run) */
	action?: 'rerun' | 'created';
	/** One Item per Site: one item out */
	wholeSite?: boolean;
	/** before the run: the state of the site it needs; an expectation that depends on it */
	prepare?: () => Promise<Expected | undefined>;
	expect: Expected;
	/** Confirm Drops: the drops scripted, noise and real (only the real ones count as worse) */
	drops?: { noisy: number; real: number };
}

/** The cases: Create or Re-Run (every page re-run, the first run), One Item per Site, Confirm Drops, Create. */
function monitorCases(bench: Bench, urls: string[]): MonitorCase[] {
	const n = urls.length;
	const site = (item: Record<string, unknown>) => item.project === MONITOR_SITE;
	const createOrRerun = eachPage(urls, ['monitorCreateOrRerun', 'phpRank Create or Re-Run'], {
		text: 'a Create or Re-Run answer (action, id)',
		ok: (item) =>
			(item.action === 'rerun' || item.action === 'created') && typeof item.id === 'number',
	});
	const drops = { noisy: 0, real: 0 };
	return [
		{
			label: `Create or Re-Run, every page has a report (a week after the first)`,
			contender: createOrRerun,
			action: 'rerun',
			expect: rerunEach(n),
		},
		{
			label: 'Create or Re-Run, the first run (the site has no report)',
			contender: createOrRerun,
			action: 'created',
			prepare: async () => void (await bench.server.call('deleteSite', { site: MONITOR_SITE })),
			expect: { list: 1, put: 0, post: n, created: n },
		},
		{
			label:
				'Create or Re-Run, One Item per Site: the same re-runs and a site summary, no request more',
			contender: eachPage(
				urls,
				['monitorBySite', 'phpRank Create or Re-Run, One Item per Site'],
				{
					text: 'a site summary (project, pages, summary_text)',
					ok: (item) => site(item) && typeof item.summary_text === 'string',
				},
				{ output: 'sites' },
			),
			wholeSite: true,
			expect: rerunEach(n),
		},
		{
			label: `Create or Re-Run with Confirm Drops, One Item per Site: one page in ${CONFIRM_EVERY} drops by ${SCRIPTED_DROP} and comes back (noise), the next drops and stays`,
			contender: eachPage(
				urls,
				['monitorConfirm', 'phpRank Create or Re-Run, Confirm Drops, One Item per Site'],
				{
					text: 'a site summary (project, worse_pages)',
					ok: (item) => site(item) && typeof item.worse_pages === 'number',
				},
				{ options: { confirmDrops: true }, output: 'sites' },
			),
			wholeSite: true,
			prepare: async () => {
				const script = { site: MONITOR_SITE, every: CONFIRM_EVERY };
				const { noisy, real } = await bench.server.call('scriptDrops', script);
				Object.assign(drops, { noisy: noisy.length, real: real.length });
				return { ...rerunEach(n), put: n + noisy.length + real.length };
			},
			expect: rerunEach(n),
			drops,
		},
		{
			label: 'baseline: Create every week (the pages have their reports)',
			contender: eachPage(urls, ['monitorCreate', 'phpRank Create'], SIMPLIFIED, {
				operation: 'create',
			}),
			expect: { list: 0, put: 0, post: n, created: n },
		},
	];
}

/** The monitoring table: each case under the throttle. */
async function monitor(bench: Bench, options: Options): Promise<void> {
	const n = options.monitorUrls;
	// phpRank's throttle (PHPRANK_RATE_LIMIT a window) scaled in time to the bench's window.
	const throttle = { limit: PHPRANK_RATE_LIMIT, windowMs: MONITOR_WINDOW_MS };
	const seed = { others: options.monitorOthers, site: MONITOR_SITE, siteReports: n };
	const urls = spelledUrls(await bench.server.call('monitorSeed', seed));
	const cases = monitorCases(bench, urls);
	const contenders = [...new Set(cases.map((c) => c.contender))];
	await importWorkflows(
		bench.sb,
		contenders.map((c) => c.build(bench.api, 0, 0)),
	);
	console.log(
		`  input: ${plural(n, 'page')} of ${MONITOR_SITE}, e.g. ${urls.slice(0, 5).join(', ')}`,
	);

	const broken: string[] = [];
	const rows: string[][] = [];
	for (const c of cases) {
		const expect = (await c.prepare?.()) ?? c.expect;
		const items = c.wholeSite ? 1 : n; // one item a page, or one for the site
		const run = await throttledRun(bench, throttle, c.contender, expect, items);
		const { out, after, got, requests, wallMs } = run;
		const first = out.nodes.phpRank[0].first ?? {};
		const fail = (why: string) => broken.push(`${c.label}: ${why}`);
		if (c.action && first.action !== c.action)
			fail(`the first item's action is ${String(first.action)}, expected ${c.action}`);
		if (after.failed > 0)
			fail(`the test server answered ${after.failed} requests with an error status other than 429`);
		// Exact request counts are the claim (README, Performance and Whole sites).
		if (!same(got, expect)) fail(`${JSON.stringify(got)}, expected ${JSON.stringify(expect)}`);
		// Confirm Drops: one request more per suspected drop, and only the drops that held count as worse.
		const { drops } = c;
		if (drops) {
			if (first.worse_pages !== drops.real)
				fail(
					`worse_pages ${String(first.worse_pages)}, expected the ${drops.real} drops that held`,
				);
			console.log(
				`  Confirm Drops: ${drops.noisy + drops.real} suspected drops (${drops.noisy} noise, ${drops.real} real) cost ${got.put - n} requests more; worse_pages ${String(first.worse_pages)}`,
			);
		}
		const duplicates = after.siteReports - n;
		rows.push(
			run.row(
				c.label,
				`${int(got.created)}${duplicates > 0 ? ` (${int(duplicates)} duplicates: the site now has ${int(after.siteReports)})` : ''}`,
			),
		);
		console.log(
			`  ${c.label}: ${int(requests)} requests, ${int(after.throttled)} × 429, ${int(got.created)} created, ${ms(wallMs)}`,
		);
	}
	const perMinute = int((throttle.limit * 60_000) / throttle.windowMs);
	printTable(
		`\n### Monitoring: ${plural(n, 'page')} of one site (varied spellings) among ${int(options.monitorOthers)} reports of other sites, phpRank's throttle scaled in time: ${throttle.limit} requests per ${ms(throttle.windowMs)} window (${perMinute} a minute)`,
		[
			...['case', 'requests answered', '429s', 'reports created', 'wall time (the node)'],
			...["throttle's floor", 'wall ÷ floor', "floor at phpRank's 60 a minute"],
		],
		rows,
	);
	console.log(
		`\nThe floor: a fixed window opens at the first request and lets ${throttle.limit} through; the last request cannot go before the ` +
			`window ceil(requests / ${throttle.limit}) opens, ${ms(throttle.windowMs)} after the one before (the requests' own time not counted). ` +
			`The node learns a window's end from the 429 of one probe request (Retry-After, whole seconds).\n` +
			`Not run, counted: by hand, per page a Get Many with Search + an Update with Re-Run Analysis (which reads the report first) ` +
			`is ${int(n)} + ${int(2 * n)} = ${int(3 * n)} requests, and a search for a URL also finds longer URLs that contain it.`,
	);
	if (broken.length) throw new BrokenRun(broken.join('\n'));
}

// --- main ------------------------------------------------------------------------------------

const nodeVersion = (bench: Bench): string =>
	spawnSync(bench.sb.runtime.nodeBin, ['-p', 'process.versions.node'], {
		encoding: 'utf8',
	}).stdout.trim();

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	const started = Date.now();
	const step = (text: string) =>
		console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${text}`);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-bench-'));
	let sb: N8nSandbox | undefined;
	let server: Bench['server'] | undefined;
	try {
		if (options.build) {
			step('npm run build');
			const build = run('npm', ['run', 'build'], REPO);
			if (build.code !== 0) throw new BrokenRun(`npm run build failed:\n${build.output}`);
		}
		const tgz = await packPackage(REPO, work);
		step('n8n runtime, sandbox, package');
		const outDir = path.join(work, 'hook');
		fs.mkdirSync(outDir);
		sb = await createSandbox({
			runtime: getRuntime({ install: true }),
			userFolder: path.join(work, 'n8n'),
			env: { EXTERNAL_HOOK_FILES: HOOK_FILE, PHPRANK_BENCH_DIR: outDir },
		});
		await installPackage(sb, tgz);

		server = await startServerProcess();
		const api = `${server.url}/api/v1`;
		const speedRun = options.jobs.has('speed');
		const firstId = speedRun ? await server.call('seed', { reports: options.reports }) : 1;
		step(
			`test server ${server.url}${speedRun ? `, ${int(options.reports)} reports` : ''}; importing credentials and workflows`,
		);
		await importCredentials(sb, [
			testServerCredential(server),
			{
				...HEADER_CRED,
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: `Bearer ${TEST_API_KEY}` },
			},
		]);
		await importWorkflows(
			sb,
			[...N8N_CONTENDERS, BASELINE].map((c) => c.build(api, firstId, options.gets)),
		);
		const bench: Bench = { sb, server, api, outDir };

		if (options.jobs.has('speed')) {
			step(`speed: ${plural(options.rounds, 'round')}`);
			await speed(bench, options, firstId);
		}
		if (options.jobs.has('memory')) {
			const memFirstId = await server.call('seed', { reports: options.memReports });
			await importWorkflows(sb, [BASELINE.build(api, memFirstId, 1)]);
			step(`memory: ${int(options.memReports)} reports, ${plural(options.memRounds, 'round')}`);
			await memory(bench, options);
		}
		if (options.jobs.has('monitor')) {
			const others = `among ${int(options.monitorOthers)} other reports, throttled`;
			step(`monitoring: ${plural(options.monitorUrls, 'page')} ${others}`);
			await monitor(bench, options);
		}
		const load = os.loadavg().map((l) => l.toFixed(1));
		step(`done; load average ${load.join(' ')} on ${os.cpus().length} CPUs`);
	} finally {
		server?.stop();
		if (sb && !process.env.KEEP_SANDBOX) await removeSandbox(sb);
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof BrokenRun ? `broken run: ${error.message}` : error);
	process.exit(1);
});
