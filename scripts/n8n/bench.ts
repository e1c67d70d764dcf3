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
 * Report → Create of the same pages as the baseline (plus One Item per Site, Confirm Drops over scripted drops, and Get Health of
 * a --health-pages site); requests by kind, reports created, and the node's wall
 * time against the least the throttle allows. phpRank's window (60 requests a minute) is scaled in time, 60
 * requests per --monitor-window-ms (default 6,000 ms: 600 a minute), so the run takes a minute, not eight.
 *
 * Then the sitemap table (issue 25): examples/site-audit-from-sitemap.json itself (but History Store → This
 * Workflow: `n8n execute` serves no public API for its data table), its Site pointed at a local sitemap server
 * (an index of --sitemap-per-file URLs a sitemap, --sitemap-pages pages of one site) and its email at a local
 * SMTP catcher, under the same scaled throttle: the first run (every page created) and the
 * weekly run (every page re-run; a steady week, so Confirm Drops confirms nothing). Requests are counted by kind
 * (phpRank list pages, writes, the sitemap reads) and must be exactly what README says.
 *
 * Each workflow runs in its own `n8n execute` process; scripts/n8n/bench-hook.js (an n8n external hook)
 * records the run data's timings and the process's peak RSS when the execution ends, and drops the items
 * before n8n prints them.
 *
 *   npm run bench:n8n -- [--quick] [--only speed,memory,monitor,sitemap] [--rounds 5] [--reports 10000] [--gets 1000]
 *                        [--mem-reports 20000] [--mem-rounds 3] [--monitor-urls 500] [--monitor-others 10000]
 *                        [--monitor-window-ms 6000] [--health-pages 10000] [--sitemap-pages 500] [--sitemap-per-file 100]
 *                        [--skip-build] [--cpu-prof <dir> [--cpu-prof-row get|list]]
 *
 * --quick: 1 round over 1,000 reports, 100 Gets, memory over 2,000 reports, monitoring of 100 pages among
 * 1,000 other reports (a smoke run).
 * --only: the tables to make (default all four); `--only monitor` is the monitoring table alone.
 * --mem-reports 0, --monitor-urls 0 or --sitemap-pages 0 skips that table. --skip-build packs the current dist/ as it is.
 * --cpu-prof <dir>: instead of the tables, runs the phpRank workflow of one row (default: the Get row) once
 * under `node --cpu-prof`, writes the .cpuprofile into <dir> and prints the functions with the most self
 * time (and total time) while the phpRank node ran.
 */
import { fork, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';

import { PhpRankServer, TEST_API_KEY, type ThrottleOptions } from '../../test/server';
import {
	monitorCommand,
	type MonitorCommand,
	type MonitorCounts,
	SCRIPTED_DROP,
	spelledUrls,
	steadyScore,
	throttleFloorMs,
} from './bench-monitor';
import {
	sitemapIndexXml,
	startFileServer,
	startSmtpCatcher,
	urlsetXml,
	XML_TYPE,
	type FileServer,
	type SmtpCatcher,
} from './catchers';
import {
	loadExamples,
	SITEMAP_EXAMPLE,
	testServerCredential,
	withWorkflowHistory,
	withSitemapUrl,
} from './checks';
import { same } from './report';
import { smtpCredential } from './suite';
import {
	manualTrigger,
	phpRank,
	workflow as buildWorkflow,
	type Link,
	type WorkflowJson,
	type WorkflowNode,
} from './workflow';
import {
	createSandbox,
	executeWorkflow,
	getRuntime,
	importCredentials,
	importWorkflows,
	installPackage,
	packPackage,
	removeSandbox,
	runCli,
	type N8nSandbox,
} from './n8n';

const REPO = path.resolve(__dirname, '..', '..');
const HOOK_FILE = path.join(__dirname, 'bench-hook.js');
const PAGE_SIZE = 100;
const EXECUTE_TIMEOUT_MS = 600_000;
/** phpRank's own default rate limit: 60 requests a minute per API key (the test server's default too). */
const PHPRANK_RATE_LIMIT = 60;

// ---------------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------------

interface Options {
	rounds: number;
	reports: number;
	gets: number;
	memReports: number;
	memRounds: number;
	build: boolean;
	cpuProf?: string;
	cpuProfRow: 'get' | 'list';
	jobs: Set<Job>;
	monitorUrls: number;
	monitorOthers: number;
	/** Get Health's site: how many pages (--health-pages). */
	healthPages: number;
	monitorWindowMs: number;
	sitemapPages: number;
	sitemapPerFile: number;
}

const JOBS = ['speed', 'memory', 'monitor', 'sitemap'] as const;
type Job = (typeof JOBS)[number];

class UsageError extends Error {}

const OPTIONS = {
	quick: { type: 'boolean', default: false },
	rounds: { type: 'string' },
	reports: { type: 'string' },
	gets: { type: 'string' },
	'mem-reports': { type: 'string' },
	'mem-rounds': { type: 'string' },
	'skip-build': { type: 'boolean', default: false },
	'cpu-prof': { type: 'string' },
	'cpu-prof-row': { type: 'string', default: 'get' },
	only: { type: 'string' },
	'monitor-urls': { type: 'string' },
	'monitor-others': { type: 'string' },
	'health-pages': { type: 'string' },
	'monitor-window-ms': { type: 'string' },
	'sitemap-pages': { type: 'string' },
	'sitemap-per-file': { type: 'string' },
	help: { type: 'boolean', default: false },
} as const;

function parseOptions(argv: string[]): Options {
	let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS }>>['values'];
	try {
		({ values } = parseArgs({ args: argv, options: OPTIONS }));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (values.help) {
		console.log(fs.readFileSync(__filename, 'utf8').split('*/')[0]);
		process.exit(0);
	}
	const count = (
		name: string,
		value: string | undefined,
		fallback: number,
		min: number,
	): number => {
		if (value === undefined) return fallback;
		const n = Number(value.replaceAll('_', '').replaceAll(',', ''));
		if (!Number.isSafeInteger(n) || n < min)
			throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${value}"`);
		return n;
	};
	const quick = values.quick === true;
	const row = values['cpu-prof-row'];
	if (row !== 'get' && row !== 'list')
		throw new UsageError(`--cpu-prof-row must be get or list, got "${row}"`);
	const only =
		values.only === undefined ? [...JOBS] : values.only.split(',').map((job) => job.trim());
	const unknown = only.filter((job) => !(JOBS as readonly string[]).includes(job));
	if (unknown.length || only.length === 0)
		throw new UsageError(`--only takes ${JOBS.join(', ')} (comma-separated), got "${values.only}"`);
	const options: Options = {
		rounds: count('rounds', values.rounds, quick ? 1 : 5, 1),
		reports: count('reports', values.reports, quick ? 1_000 : 10_000, 1),
		gets: count('gets', values.gets, quick ? 100 : 1_000, 1),
		memReports: count('mem-reports', values['mem-reports'], quick ? 2_000 : 20_000, 0),
		memRounds: count('mem-rounds', values['mem-rounds'], quick ? 1 : 3, 1),
		build: values['skip-build'] !== true,
		cpuProf: values['cpu-prof'] === undefined ? undefined : path.resolve(values['cpu-prof']),
		cpuProfRow: row,
		jobs: new Set(only as Job[]),
		monitorUrls: count('monitor-urls', values['monitor-urls'], quick ? 100 : 500, 0),
		monitorOthers: count('monitor-others', values['monitor-others'], quick ? 1_000 : 10_000, 0),
		healthPages: count('health-pages', values['health-pages'], quick ? 1_000 : 10_000, 1),
		monitorWindowMs: count('monitor-window-ms', values['monitor-window-ms'], 6_000, 1_000),
		sitemapPages: count('sitemap-pages', values['sitemap-pages'], quick ? 100 : 500, 0),
		sitemapPerFile: count('sitemap-per-file', values['sitemap-per-file'], 100, 1),
	};
	if (options.gets > options.reports)
		throw new UsageError(
			`--gets (${options.gets}) cannot exceed --reports (${options.reports}): each Get needs a report`,
		);
	return options;
}

// ---------------------------------------------------------------------------------------------
// the test server, in a child process
// ---------------------------------------------------------------------------------------------

type ServerCommand =
	| { cmd: 'seed'; reports: number }
	| { cmd: 'reset' }
	| { cmd: 'stats' }
	| MonitorCommand;
interface ServerCounts {
	requests: number;
	/** the most requests in flight at once */
	peakInFlight: number;
	/** answers other than 2xx */
	failed: number;
	/** CPU time of the server process */
	cpuMs: number;
}

/** Child side: an unthrottled PhpRankServer that answers seed/reset/stats messages. */
async function serve(): Promise<void> {
	const server = new PhpRankServer({ throttle: false });
	const url = await server.start();
	let cpu = process.cpuUsage();
	process.on('message', async (message: ServerCommand) => {
		if (message.cmd === 'seed') {
			server.deleteAllReports();
			const ids = server.seedReports(message.reports).map((report) => report.id);
			// Lists once, so that no contender pays for the server's first encoding of each report.
			for (let page = 1; page <= Math.ceil(message.reports / PAGE_SIZE); page++) {
				const res = await fetch(`${url}/api/v1/reports?per_page=${PAGE_SIZE}&page=${page}`, {
					headers: HEADERS,
				});
				if (!res.ok) throw new Error(`warming the test server: HTTP ${res.status}`);
				await res.arrayBuffer();
			}
			server.clearRequests();
			process.send?.({ firstId: ids[0] });
		} else if (message.cmd !== 'reset' && message.cmd !== 'stats') {
			process.send?.(monitorCommand(server, message));
		} else if (message.cmd === 'reset') {
			server.clearRequests();
			server.resetStats();
			cpu = process.cpuUsage();
			process.send?.({});
		} else {
			const used = process.cpuUsage(cpu);
			const { peakInFlight, statuses } = server.stats;
			process.send?.({
				requests: server.requests.filter((request) => request.path.startsWith('/api/')).length,
				peakInFlight,
				failed: Object.entries(statuses).reduce(
					(sum, [status, n]) => sum + (Number(status) < 300 ? 0 : n),
					0,
				),
				cpuMs: (used.user + used.system) / 1000,
			} satisfies ServerCounts);
		}
	});
	process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
	process.send?.({ url });
}

class ServerProcess {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
	) {}

	static async start(): Promise<ServerProcess> {
		const child = fork(__filename, ['--serve'], {
			execArgv: ['-r', 'ts-node/register/transpile-only'],
			env: { ...process.env, TS_NODE_PREFER_TS_EXTS: 'true' },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const { url } = await ServerProcess.reply<{ url: string }>(child);
		return new ServerProcess(child, url);
	}

	private static reply<T>(child: ChildProcess): Promise<T> {
		return new Promise((resolve, reject) => {
			const onExit = (code: number | null) =>
				reject(new Error(`test server process exited with ${code}`));
			child.once('exit', onExit);
			child.once('message', (message: T) => {
				child.off('exit', onExit);
				resolve(message);
			});
		});
	}

	async send<T>(command: ServerCommand): Promise<T> {
		const reply = ServerProcess.reply<T>(this.child);
		this.child.send(command);
		return await reply;
	}

	/** A monitoring command (bench-monitor.ts) and its answer. */
	async monitor<T = object>(command: MonitorCommand): Promise<T> {
		return await this.send<T>(command);
	}

	/** Replaces every report with `reports` seeded ones; returns the first id. */
	async seed(reports: number): Promise<number> {
		return (await this.send<{ firstId: number }>({ cmd: 'seed', reports })).firstId;
	}

	stop(): void {
		if (this.child.connected) this.child.disconnect();
	}
}

// ---------------------------------------------------------------------------------------------
// workflows
// ---------------------------------------------------------------------------------------------

const PHPRANK_CRED = { id: 'benchPhpRankCred', name: 'phpRank (bench server)' };
const HEADER_CRED = { id: 'benchHeaderAuth01', name: 'phpRank bearer header (bench server)' };

/** A Manual Trigger, then `chain` one after the other. */
function workflow(id: string, name: string, chain: WorkflowNode[]): WorkflowJson {
	const nodes = [manualTrigger('Start'), ...chain];
	return buildWorkflow(
		id,
		name,
		nodes,
		chain.map((n, i): Link => [nodes[i].name, n.name]),
	);
}

const phpRankNode = (name: string, parameters: Record<string, unknown>): WorkflowNode =>
	phpRank(name, parameters, PHPRANK_CRED);

/** The HTTP Request node as a user sets it up: Header Auth credential, URL typed in. */
const httpRequestNode = (
	name: string,
	url: string,
	extra: Record<string, unknown> = {},
): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.5,
	parameters: {
		url,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		options: {},
		...extra,
	},
	credentials: { httpHeaderAuth: HEADER_CRED },
});

const splitOutNode = (name: string, field: string, destination?: string): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: {
		fieldToSplitOut: field,
		options: destination ? { destinationFieldName: destination } : {},
	},
});

/** `count` items `{ id }` (report ids from `firstId` on), from a fixed list: Edit Fields (JSON) + Split Out. */
const idItems = (firstId: number, count: number): WorkflowNode[] => [
	{
		name: 'Report IDs',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'raw',
			jsonOutput: JSON.stringify({ ids: Array.from({ length: count }, (_, i) => firstId + i) }),
			options: {},
		},
	},
	splitOutNode('One item per ID', 'ids', 'id'),
];

type Row = 'list' | 'get' | 'monitor';

const SIMPLIFIED = {
	text: 'a simplified report (failed checks as counts, no results)',
	ok: (item: Record<string, unknown>) =>
		typeof item.failed_high === 'number' && !('results' in item),
};
const FULL_RECORD = {
	text: 'a full report (results)',
	ok: (item: Record<string, unknown>) =>
		typeof item.id === 'number' && typeof item.results === 'object',
};

interface N8nContender {
	key: string;
	row: Row;
	label: string;
	workflowId: string;
	/** the nodes doing the job: their executionTime is summed */
	measured: string[];
	/** the node whose output must hold the expected number of items */
	output: string;
	/** what its first item must look like, so that each contender does the job its label says */
	shape: { text: string; ok: (item: Record<string, unknown>) => boolean };
	build: (api: string, firstId: number, gets: number) => object;
}

const N8N_CONTENDERS: N8nContender[] = [
	{
		key: 'listPhpRank',
		row: 'list',
		label: 'phpRank node, Return All, Simplify on',
		workflowId: 'benchListPhpOn01',
		measured: ['phpRank'],
		output: 'phpRank',
		shape: SIMPLIFIED,
		build: () =>
			workflow('benchListPhpOn01', 'bench: phpRank Return All (Simplify on)', [
				phpRankNode('phpRank', {
					resource: 'report',
					operation: 'getAll',
					returnAll: true,
					simplify: true,
				}),
			]),
	},
	{
		key: 'listPhpRankFull',
		row: 'list',
		label: 'phpRank node, Return All, Simplify off',
		workflowId: 'benchListPhpOff1',
		measured: ['phpRank'],
		output: 'phpRank',
		shape: FULL_RECORD,
		build: () =>
			workflow('benchListPhpOff1', 'bench: phpRank Return All (Simplify off)', [
				phpRankNode('phpRank', {
					resource: 'report',
					operation: 'getAll',
					returnAll: true,
					simplify: false,
				}),
			]),
	},
	{
		key: 'listHttp',
		row: 'list',
		label: 'HTTP Request (paging) + Split Out',
		workflowId: 'benchListHttp001',
		measured: ['HTTP Request', 'Split Out'],
		output: 'Split Out',
		shape: FULL_RECORD,
		build: (api) =>
			workflow('benchListHttp001', 'bench: HTTP Request paging + Split Out', [
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
			]),
	},
	{
		key: 'getPhpRank',
		row: 'get',
		label: 'phpRank node, Get',
		workflowId: 'benchGetPhpRank1',
		measured: ['phpRank'],
		output: 'phpRank',
		shape: SIMPLIFIED,
		build: (_api, firstId, gets) =>
			workflow('benchGetPhpRank1', 'bench: phpRank Get per item', [
				...idItems(firstId, gets),
				phpRankNode('phpRank', {
					resource: 'report',
					operation: 'get',
					reportId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				}),
			]),
	},
	{
		key: 'getHttp',
		row: 'get',
		label: 'HTTP Request, Get',
		workflowId: 'benchGetHttp0001',
		measured: ['HTTP Request'],
		output: 'HTTP Request',
		shape: {
			text: 'the API answer { data: report }',
			ok: (item) => typeof (item.data as { id?: unknown } | undefined)?.id === 'number',
		},
		build: (api, firstId, gets) =>
			workflow('benchGetHttp0001', 'bench: HTTP Request per item', [
				...idItems(firstId, gets),
				httpRequestNode('HTTP Request', `=${api}/reports/{{ $json.id }}`),
			]),
	},
];

/** The one-item run of the memory table. */
const BASELINE: N8nContender = {
	key: 'baseline',
	row: 'get',
	label: 'one item (phpRank Get of one report)',
	workflowId: 'benchOneItem0001',
	measured: ['phpRank'],
	output: 'phpRank',
	shape: SIMPLIFIED,
	build: (_api, firstId) =>
		workflow('benchOneItem0001', 'bench: one item', [
			phpRankNode('phpRank', {
				resource: 'report',
				operation: 'get',
				reportId: { __rl: true, mode: 'id', value: String(firstId) },
			}),
		]),
};

/** Confirm Drops' case: one page in this many drops and comes back, the next drops and stays. */
const CONFIRM_EVERY = 25;

/** The site watched in the monitoring table; none of the seeded other reports is of it. */
const MONITOR_SITE = 'pages.example.net';

/** `urls` as items `{ url }`: Edit Fields (JSON) + Split Out, like a sheet with a `url` column. */
const urlItems = (urls: string[]): WorkflowNode[] => [
	{
		name: 'Pages',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ urls }), options: {} },
	},
	splitOutNode('One item per page', 'urls', 'url'),
];

/** Report → Create or Re-Run of each page, and plain Report → Create of each page (what one would use without it). */
function monitorContenders(urls: string[]): {
	createOrRerun: N8nContender;
	create: N8nContender;
	bySite: N8nContender;
	confirm: N8nContender;
	health: N8nContender;
} {
	// Each page through one phpRank report operation; `extra`: its other parameters (Output, Confirm Drops).
	const contender = (
		key: string,
		label: string,
		workflowId: string,
		operation: string,
		shape: N8nContender['shape'],
		extra: Record<string, unknown> = {},
	): N8nContender => ({
		key,
		row: 'monitor',
		label,
		workflowId,
		measured: ['phpRank'],
		output: 'phpRank',
		shape,
		build: () =>
			workflow(workflowId, `bench: ${label}`, [
				...urlItems(urls),
				phpRankNode('phpRank', {
					resource: 'report',
					operation,
					url: '={{ $json.url }}',
					...extra,
					simplify: true,
				}),
			]),
	});
	return {
		createOrRerun: contender(
			'monitorCreateOrRerun',
			'phpRank Create or Re-Run',
			'benchMonitorCoR1',
			'createOrRerun',
			{
				text: 'a Create or Re-Run answer (action, id)',
				ok: (item) =>
					(item.action === 'rerun' || item.action === 'created') && typeof item.id === 'number',
			},
		),
		create: contender('monitorCreate', 'phpRank Create', 'benchMonitorNew1', 'create', SIMPLIFIED),
		bySite: contender(
			'monitorBySite',
			'phpRank Create or Re-Run, One Item per Site',
			'benchMonitorSite',
			'createOrRerun',
			{
				text: 'a site summary (project, pages, summary_text)',
				ok: (item) => item.project === MONITOR_SITE && typeof item.summary_text === 'string',
			},
			{ output: 'sites' },
		),
		confirm: contender(
			'monitorConfirm',
			'phpRank Create or Re-Run, Confirm Drops, One Item per Site',
			'benchMonitorConf',
			'createOrRerun',
			{
				text: 'a site summary (project, worse_pages)',
				ok: (item) => item.project === MONITOR_SITE && typeof item.worse_pages === 'number',
			},
			{ options: { confirmDrops: true }, output: 'sites' },
		),
		health: {
			key: 'monitorHealth',
			row: 'monitor',
			label: 'phpRank Get Health',
			workflowId: 'benchMonitorHlth',
			measured: ['phpRank'],
			output: 'phpRank',
			shape: {
				text: "a site's health (project, pages, health_score)",
				ok: (item) => typeof item.pages === 'number' && typeof item.health_score === 'number',
			},
			build: () =>
				workflow('benchMonitorHlth', 'bench: phpRank Get Health', [
					phpRankNode('phpRank', {
						resource: 'project',
						operation: 'getHealth',
						project: { __rl: true, mode: 'name', value: HEALTH_SITE },
						simplify: true,
					}),
				]),
		},
	};
}

/** Get Health's site: a project of --health-pages pages (10,000 by default), seeded for that row alone. */
const HEALTH_SITE = 'big.example.net';

// ---------------------------------------------------------------------------------------------
// fetch loops (this process)
// ---------------------------------------------------------------------------------------------

interface FetchContender {
	key: string;
	row: Row;
	label: string;
	run: (api: string, firstId: number, gets: number) => Promise<number>;
}

const HEADERS = { Authorization: `Bearer ${TEST_API_KEY}`, Accept: 'application/json' };

async function getJson(
	url: string,
): Promise<{ data: unknown; meta?: { current_page: number; last_page: number } }> {
	const res = await fetch(url, { headers: HEADERS });
	if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
	return (await res.json()) as {
		data: unknown;
		meta?: { current_page: number; last_page: number };
	};
}

const FETCH_CONTENDERS: FetchContender[] = [
	{
		key: 'listFetch',
		row: 'list',
		label: 'fetch loop, pages in sequence',
		run: async (api) => {
			const items: unknown[] = [];
			for (let page = 1; ; page++) {
				const body = await getJson(`${api}/reports?per_page=${PAGE_SIZE}&page=${page}`);
				items.push(...(body.data as unknown[]));
				if (!body.meta || body.meta.current_page >= body.meta.last_page) return items.length;
			}
		},
	},
	{
		key: 'getFetch',
		row: 'get',
		label: 'fetch loop, Gets in sequence',
		run: async (api, firstId, gets) => {
			const items: unknown[] = [];
			for (let i = 0; i < gets; i++)
				items.push((await getJson(`${api}/reports/${firstId + i}`)).data);
			return items.length;
		},
	},
	{
		key: 'getFetchAll',
		row: 'get',
		label: 'fetch loop, Gets all at once',
		run: async (api, firstId, gets) => {
			const items = await Promise.all(
				Array.from(
					{ length: gets },
					async (_, i) => (await getJson(`${api}/reports/${firstId + i}`)).data,
				),
			);
			return items.length;
		},
	},
];

// ---------------------------------------------------------------------------------------------
// running n8n
// ---------------------------------------------------------------------------------------------

interface HookTask {
	startTime: number;
	executionTime: number;
	status?: string;
	items: number[];
	first?: Record<string, unknown>;
	error?: string;
}

interface HookOutput {
	workflowId: string;
	pid: number;
	status?: string;
	error?: string;
	nodes: Record<string, HookTask[]>;
	memoryKb: { peakRss: number; rss: number };
	clock: { epochMs: number; monotonicUs: number };
}

class BrokenRun extends Error {}

interface Bench {
	sb: N8nSandbox;
	server: ServerProcess;
	api: string;
	outDir: string;
}

/** `n8n execute` of one workflow; the hook's record of it. Throws BrokenRun unless it succeeded with `expectItems` items. */
async function executeN8n(
	bench: Bench,
	contender: N8nContender,
	expectItems: number,
	env?: Record<string, string>,
	timeoutMs = EXECUTE_TIMEOUT_MS,
): Promise<HookOutput> {
	const outFile = path.join(bench.outDir, `${contender.workflowId}.json`);
	fs.rmSync(outFile, { force: true });
	let code: number | null;
	let errorMessage: string | undefined;
	let stdout = '';
	if (env) {
		const r = await runCli(bench.sb, ['execute', `--id=${contender.workflowId}`, '--rawOutput'], {
			timeoutMs,
			env,
		});
		code = r.code;
		stdout = r.stdout;
	} else {
		const r = await executeWorkflow(bench.sb, contender.workflowId, { timeoutMs });
		code = r.code;
		errorMessage = r.errorMessage;
		stdout = r.stdout;
	}
	if (!fs.existsSync(outFile)) {
		throw new BrokenRun(
			`${contender.label}: n8n execute exited with ${code} and left no record\n${stdout.slice(-3000)}`,
		);
	}
	const out = JSON.parse(fs.readFileSync(outFile, 'utf8')) as HookOutput;
	if (code !== 0 || out.status !== 'success') {
		throw new BrokenRun(
			`${contender.label}: execution ${out.status ?? 'failed'} (exit ${code}): ${out.error ?? errorMessage ?? 'no error message'}`,
		);
	}
	for (const name of contender.measured) {
		if (!out.nodes[name]?.length)
			throw new BrokenRun(`${contender.label}: node "${name}" did not run`);
	}
	const items = out.nodes[contender.output].reduce((sum, task) => sum + (task.items[0] ?? 0), 0);
	if (items !== expectItems)
		throw new BrokenRun(
			`${contender.label}: ${items} items out of "${contender.output}", expected ${expectItems}`,
		);
	const first = out.nodes[contender.output][0].first;
	if (!first || !contender.shape.ok(first)) {
		throw new BrokenRun(
			`${contender.label}: the first item is not ${contender.shape.text}: ${JSON.stringify(first)?.slice(0, 500)}`,
		);
	}
	return out;
}

const nodeMs = (out: HookOutput, name: string): number =>
	out.nodes[name].reduce((sum, task) => sum + task.executionTime, 0);

// ---------------------------------------------------------------------------------------------
// figures
// ---------------------------------------------------------------------------------------------

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => `${int(n)} ms`;
const mb = (kb: number): string => `${int(kb / 1024)} MB`;
const times = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const plural = (n: number, word: string): string => `${int(n)} ${word}${n === 1 ? '' : 's'}`;

interface Samples {
	ms: number[];
	parts: Record<string, number[]>;
	requests: number[];
	peakInFlight: number[];
	serverCpuMs: number[];
}

function table(header: string[], rows: string[][]): string {
	return [
		`| ${header.join(' | ')} |`,
		`| ${header.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}

// ---------------------------------------------------------------------------------------------
// the speed table
// ---------------------------------------------------------------------------------------------

async function speed(bench: Bench, options: Options, firstId: number): Promise<void> {
	const samples = await speedRounds(bench, options, firstId);
	printSpeed(bench, options, samples);
	checkRequests(samples, options);
}

/** Every contender once a round, alternating the order; each run's time, requests and server figures. */
async function speedRounds(
	bench: Bench,
	options: Options,
	firstId: number,
): Promise<Map<string, Samples>> {
	const samples = new Map<string, Samples>();
	const sample = (key: string): Samples => {
		let s = samples.get(key);
		if (!s)
			samples.set(
				key,
				(s = { ms: [], parts: {}, requests: [], peakInFlight: [], serverCpuMs: [] }),
			);
		return s;
	};
	type Entry = { kind: 'n8n'; c: N8nContender } | { kind: 'fetch'; c: FetchContender };
	const order: Entry[] = [
		...FETCH_CONTENDERS.filter((c) => c.row === 'list').map((c): Entry => ({ kind: 'fetch', c })),
		...N8N_CONTENDERS.filter((c) => c.row === 'list').map((c): Entry => ({ kind: 'n8n', c })),
		...FETCH_CONTENDERS.filter((c) => c.row === 'get').map((c): Entry => ({ kind: 'fetch', c })),
		...N8N_CONTENDERS.filter((c) => c.row === 'get').map((c): Entry => ({ kind: 'n8n', c })),
	];
	const expected = (row: Row) => (row === 'list' ? options.reports : options.gets);
	for (let round = 0; round < options.rounds; round++) {
		const entries = round % 2 ? [...order].reverse() : order;
		const line: string[] = [];
		for (const entry of entries) {
			const s = sample(entry.c.key);
			await bench.server.send({ cmd: 'reset' });
			if (entry.kind === 'fetch') {
				const started = performance.now();
				const items = await entry.c.run(bench.api, firstId, options.gets);
				s.ms.push(performance.now() - started);
				if (items !== expected(entry.c.row))
					throw new BrokenRun(
						`${entry.c.label}: ${items} items, expected ${expected(entry.c.row)}`,
					);
			} else {
				const out = await executeN8n(bench, entry.c, expected(entry.c.row));
				let total = 0;
				for (const name of entry.c.measured) {
					const t = nodeMs(out, name);
					(s.parts[name] ??= []).push(t);
					total += t;
				}
				s.ms.push(total);
			}
			const counts = await bench.server.send<ServerCounts>({ cmd: 'stats' });
			if (counts.failed > 0)
				throw new BrokenRun(
					`${entry.c.label}: the test server answered ${counts.failed} requests with an error status`,
				);
			s.requests.push(counts.requests);
			s.peakInFlight.push(counts.peakInFlight);
			s.serverCpuMs.push(counts.cpuMs);
			line.push(`${entry.c.key} ${int(s.ms[s.ms.length - 1])}`);
		}
		console.log(`  round ${round + 1}/${options.rounds} (ms): ${line.join(', ')}`);
	}
	return samples;
}

/** The speed tables: medians, ratios, spread, and the ratio within each round. */
function printSpeed(bench: Bench, options: Options, samples: Map<string, Samples>): void {
	const m = (key: string) => median(samples.get(key)!.ms);
	const part = (key: string, name: string) => median(samples.get(key)!.parts[name]);
	const req = (key: string) => {
		const r = samples.get(key)!.requests;
		const lo = Math.min(...r);
		const hi = Math.max(...r);
		return lo === hi ? plural(lo, 'request') : `${int(lo)}–${int(hi)} requests`;
	};

	console.log(
		`\n### Speed: medians of ${plural(options.rounds, 'round')}, each node's own executionTime (n8n ${N8N_VERSION}, Node ${nodeVersion(bench)}; fetch loops on Node ${process.version.slice(1)})\n`,
	);
	console.log(
		table(
			['work', 'plain `fetch` loop', 'HTTP Request node (peer)', 'phpRank node'],
			[
				[
					`Return All, ${int(options.reports)} reports`,
					`${ms(m('listFetch'))} (${req('listFetch')})`,
					`${ms(m('listHttp'))} with Split Out (${ms(part('listHttp', 'HTTP Request'))} + ${ms(part('listHttp', 'Split Out'))}; ${req('listHttp')})`,
					`**${ms(m('listPhpRank'))}** (Simplify on), ${ms(m('listPhpRankFull'))} (off) (${req('listPhpRank')})`,
				],
				[
					`${int(options.gets)} Get items (an ID per item)`,
					`${ms(m('getFetch'))} sequential, ${ms(m('getFetchAll'))} all at once (${req('getFetch')})`,
					`${ms(m('getHttp'))} (${req('getHttp')})`,
					`**${ms(m('getPhpRank'))}** (${req('getPhpRank')})`,
				],
			],
		),
	);
	console.log('\nRatios (below 1.00× = the phpRank node is faster):\n');
	console.log(
		table(
			['work', 'phpRank ÷ HTTP Request', 'phpRank ÷ fetch loop', 'HTTP Request ÷ fetch loop'],
			[
				[
					'Return All, Simplify on',
					times(m('listPhpRank'), m('listHttp')),
					times(m('listPhpRank'), m('listFetch')),
					times(m('listHttp'), m('listFetch')),
				],
				[
					'Return All, Simplify off',
					times(m('listPhpRankFull'), m('listHttp')),
					times(m('listPhpRankFull'), m('listFetch')),
					'',
				],
				[
					`${int(options.gets)} Get items`,
					times(m('getPhpRank'), m('getHttp')),
					`${times(m('getPhpRank'), m('getFetch'))} sequential, ${times(m('getPhpRank'), m('getFetchAll'))} all at once`,
					`${times(m('getHttp'), m('getFetch'))} sequential, ${times(m('getHttp'), m('getFetchAll'))} all at once`,
				],
			],
		),
	);
	console.log(
		"\nSpread over the rounds, most requests in flight at once, and the test server's own CPU time per run (medians):\n",
	);
	const keys = [...FETCH_CONTENDERS, ...N8N_CONTENDERS].sort((a, b) =>
		a.row === b.row ? 0 : a.row === 'list' ? -1 : 1,
	);
	console.log(
		table(
			[
				'contender',
				'median',
				'min',
				'max',
				'requests',
				'peak in flight at the server',
				'server CPU',
			],
			keys.map((c) => {
				const s = samples.get(c.key)!;
				return [
					c.label,
					ms(median(s.ms)),
					ms(Math.min(...s.ms)),
					ms(Math.max(...s.ms)),
					req(c.key),
					int(median(s.peakInFlight)),
					ms(median(s.serverCpuMs)),
				];
			}),
		),
	);
	const perRound = (key: string, peer: string) =>
		samples.get(key)!.ms.map((t, i) => t / samples.get(peer)!.ms[i]);
	console.log(
		'\nphpRank ÷ HTTP Request within each round (the pair ran back to back, so a busy machine weighs on both):\n',
	);
	const pairs: Array<[string, number[]]> = [
		['Return All, Simplify on', perRound('listPhpRank', 'listHttp')],
		['Return All, Simplify off', perRound('listPhpRankFull', 'listHttp')],
		[`${int(options.gets)} Get items`, perRound('getPhpRank', 'getHttp')],
	];
	console.log(
		table(
			['work', 'median', 'rounds'],
			pairs.map(([work, ratios]) => [
				work,
				`${median(ratios).toFixed(2)}×`,
				ratios.map((r) => r.toFixed(2)).join(', '),
			]),
		),
	);
}

/** Paging and per-item requests are part of what is compared: say when a contender sent more or fewer. */
function checkRequests(samples: Map<string, Samples>, options: Options): void {
	const want: Record<string, number> = {
		listFetch: Math.ceil(options.reports / PAGE_SIZE),
		listHttp: Math.ceil(options.reports / PAGE_SIZE),
		listPhpRank: Math.ceil(options.reports / PAGE_SIZE),
		listPhpRankFull: Math.ceil(options.reports / PAGE_SIZE),
		getFetch: options.gets,
		getFetchAll: options.gets,
		getHttp: options.gets,
		getPhpRank: options.gets,
	};
	for (const [key, n] of Object.entries(want)) {
		const odd = samples.get(key)!.requests.filter((r) => r !== n);
		if (odd.length)
			console.log(`note: ${key} sent ${odd.join(', ')} requests in some rounds, expected ${n}`);
	}
}

// ---------------------------------------------------------------------------------------------
// the memory table
// ---------------------------------------------------------------------------------------------

async function memory(bench: Bench, options: Options): Promise<void> {
	const contenders = [BASELINE, ...N8N_CONTENDERS.filter((c) => c.row === 'list')];
	const peaks = new Map<string, number[]>(contenders.map((c) => [c.key, []]));
	for (let round = 0; round < options.memRounds; round++) {
		const entries = round % 2 ? [...contenders].reverse() : contenders;
		for (const c of entries) {
			const out = await executeN8n(bench, c, c === BASELINE ? 1 : options.memReports);
			peaks.get(c.key)!.push(out.memoryKb.peakRss);
		}
		console.log(
			`  memory round ${round + 1}/${options.memRounds} (peak RSS MB): ${contenders.map((c) => `${c.key} ${int(peaks.get(c.key)!.at(-1)! / 1024)}`).join(', ')}`,
		);
	}
	const peak = (key: string) => median(peaks.get(key)!);
	const base = peak(BASELINE.key);
	const over = (key: string) => peak(key) - base;
	console.log(
		`\n### Memory: Return All over ${int(options.memReports)} reports, peak RSS of the n8n process (VmHWM when the execution ended, after n8n saved it; median of ${plural(options.memRounds, 'round')})\n`,
	);
	console.log(
		table(
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
		),
	);
}

// ---------------------------------------------------------------------------------------------
// the monitoring table
// ---------------------------------------------------------------------------------------------

/** phpRank's throttle (PHPRANK_RATE_LIMIT a window) scaled in time to the bench's window; what it lets through a minute. */
function scaledThrottle(options: Options): { throttle: ThrottleOptions; perMinute: number } {
	const throttle: ThrottleOptions = {
		limit: PHPRANK_RATE_LIMIT,
		windowMs: options.monitorWindowMs,
	};
	return { throttle, perMinute: (throttle.limit * 60_000) / throttle.windowMs };
}

/** How long a throttled run may take: three times the throttle's floor and two minutes, EXECUTE_TIMEOUT_MS at least. */
function throttledTimeoutMs(requests: number, throttle: ThrottleOptions): number {
	return Math.max(
		EXECUTE_TIMEOUT_MS,
		3 * throttleFloorMs(requests, throttle.limit, throttle.windowMs) + 120_000,
	);
}

/** A throttled table's last column: the floor of `requests` at phpRank's own 60 a minute, and at a steady 60/min. */
function floorAtPhpRankRate(requests: number): string {
	return `≥ ${(throttleFloorMs(requests, PHPRANK_RATE_LIMIT, 60_000) / 60_000).toFixed(0)} min (${(requests / PHPRANK_RATE_LIMIT).toFixed(1)} min at a steady 60/min)`;
}

interface MonitorCase {
	label: string;
	contender: N8nContender;
	/** what the first output item's `action` must be (Create or Re-Run) */
	action?: 'rerun' | 'created';
	/** before the run: the state of the site it needs */
	prepare?: () => Promise<void>;
	expect: { list: number; put: number; post: number; created: number };
}

/** What the monitoring cases share: the bench, the site's size, the throttle, and what they found broken. */
interface MonitorRun {
	bench: Bench;
	n: number;
	throttle: ThrottleOptions;
	contenders: ReturnType<typeof monitorContenders>;
	/** the drops the Confirm Drops case scripted: noise, and drops that hold */
	scripted: { noisy: number; real: number };
	broken: string[];
}

async function monitor(bench: Bench, options: Options): Promise<void> {
	const n = options.monitorUrls;
	const { throttle, perMinute } = scaledThrottle(options);
	const { urls: stored } = await bench.server.monitor<{ urls: string[] }>({
		cmd: 'monitor-seed',
		others: options.monitorOthers,
		site: MONITOR_SITE,
		siteReports: n,
	});
	const urls = spelledUrls(stored);
	const contenders = monitorContenders(urls);
	const { createOrRerun, create, bySite, confirm, health } = contenders;
	await importWorkflows(
		bench.sb,
		[createOrRerun, create, bySite, confirm, health].map((contender) =>
			contender.build(bench.api, 0, 0),
		),
	);
	console.log(
		`  input: ${plural(n, 'page')} of ${MONITOR_SITE}, e.g. ${urls.slice(0, 5).join(', ')}`,
	);

	const run: MonitorRun = {
		bench,
		n,
		throttle,
		contenders,
		scripted: { noisy: 0, real: 0 },
		broken: [],
	};
	const rows: string[][] = [];
	for (const c of monitorCases(run)) rows.push(await runMonitorCase(run, c));
	await bench.server.monitor({ cmd: 'throttle', throttle: false });
	rows.push(await healthRow(bench, options, health, run.broken));

	console.log(
		`\n### Monitoring: ${plural(n, 'page')} of one site (varied spellings) among ${int(options.monitorOthers)} reports of other sites, ` +
			`phpRank's throttle scaled in time: ${throttle.limit} requests per ${ms(throttle.windowMs)} window (${int(perMinute)} a minute)\n`,
	);
	console.log(
		table(
			[
				'case',
				'requests answered',
				'429s',
				'reports created',
				'wall time (the node)',
				"throttle's floor",
				'wall ÷ floor',
				"floor at phpRank's 60 a minute",
			],
			rows,
		),
	);
	console.log(
		`\nThe floor: a fixed window opens at the first request and lets ${throttle.limit} through; the last request cannot go before the ` +
			`window ceil(requests / ${throttle.limit}) opens, ${ms(throttle.windowMs)} after the one before (the requests' own time not counted). ` +
			`The node learns a window's end from the 429 of one probe request (Retry-After, whole seconds).`,
	);
	console.log(
		`Not run, counted: by hand, per page a Get Many with Search + an Update with Re-Run Analysis (which reads the report first) ` +
			`is ${int(n)} + ${int(2 * n)} = ${int(3 * n)} requests, and a search for a URL also finds longer URLs that contain it.`,
	);
	if (run.broken.length) throw new BrokenRun(run.broken.join('\n'));
}

/** The cases: Create or Re-Run (every page re-run, the first run), One Item per Site, Confirm Drops, Create. */
function monitorCases(run: MonitorRun): MonitorCase[] {
	const { bench, n } = run;
	const { createOrRerun, create, bySite, confirm } = run.contenders;
	const pages = Math.max(1, Math.ceil(n / PAGE_SIZE));
	const cases: MonitorCase[] = [
		{
			label: `Create or Re-Run, every page has a report (a week after the first)`,
			contender: createOrRerun,
			action: 'rerun',
			expect: { list: pages, put: n, post: 0, created: 0 },
		},
		{
			label: 'Create or Re-Run, the first run (the site has no report)',
			contender: createOrRerun,
			action: 'created',
			prepare: async () =>
				void (await bench.server.monitor({ cmd: 'delete-site', site: MONITOR_SITE })),
			expect: { list: 1, put: 0, post: n, created: n },
		},
		{
			label:
				'Create or Re-Run, One Item per Site: the same re-runs and a site summary, no request more',
			contender: bySite,
			expect: { list: pages, put: n, post: 0, created: 0 },
		},
		{
			label: `Create or Re-Run with Confirm Drops, One Item per Site: one page in ${CONFIRM_EVERY} drops by ${SCRIPTED_DROP} and comes back (noise), the next drops and stays`,
			contender: confirm,
			prepare: async () => {
				const { noisy, real } = await bench.server.monitor<{ noisy: string[]; real: string[] }>({
					cmd: 'script-drops',
					site: MONITOR_SITE,
					every: CONFIRM_EVERY,
				});
				run.scripted = { noisy: noisy.length, real: real.length };
				confirmCase.expect = {
					list: pages,
					put: n + noisy.length + real.length,
					post: 0,
					created: 0,
				};
			},
			expect: { list: pages, put: n, post: 0, created: 0 },
		},
		{
			label: 'baseline: Create every week (the pages have their reports)',
			contender: create,
			expect: { list: 0, put: 0, post: n, created: n },
		},
	];
	const confirmCase = cases.find((c) => c.contender === confirm) as MonitorCase;
	return cases;
}

/** One case run under the throttle: its row of the table; what it got wrong goes to run.broken. */
async function runMonitorCase(run: MonitorRun, c: MonitorCase): Promise<string[]> {
	const { bench, n, throttle, broken } = run;
	const { bySite, confirm } = run.contenders;
	await c.prepare?.();
	const before = await bench.server.monitor<MonitorCounts>({
		cmd: 'monitor-stats',
		site: MONITOR_SITE,
	});
	await bench.server.monitor({ cmd: 'throttle', throttle });
	const expectedRequests = c.expect.list + c.expect.put + c.expect.post;
	const timeoutMs = throttledTimeoutMs(expectedRequests, throttle);
	// One item a page, or one for the site.
	const out = await executeN8n(
		bench,
		c.contender,
		c.contender === bySite || c.contender === confirm ? 1 : n,
		undefined,
		timeoutMs,
	);
	const wallMs = nodeMs(out, 'phpRank');
	const after = await bench.server.monitor<MonitorCounts>({
		cmd: 'monitor-stats',
		site: MONITOR_SITE,
	});
	const action = out.nodes.phpRank[0].first?.action;
	if (c.action && action !== c.action)
		broken.push(`${c.label}: the first item's action is ${String(action)}, expected ${c.action}`);
	if (!c.contender.shape.ok(out.nodes.phpRank[0].first ?? {}))
		broken.push(`${c.label}: the first item is not ${c.contender.shape.text}`);
	if (after.failed > 0)
		broken.push(
			`${c.label}: the test server answered ${after.failed} requests with an error status other than 429`,
		);
	const created = after.createdTotal - before.createdTotal;
	const got = { list: after.list, put: after.put, post: after.post, created };
	for (const key of Object.keys(c.expect) as Array<keyof MonitorCase['expect']>) {
		if (got[key] !== c.expect[key])
			console.log(`note: ${c.label}: ${key} ${got[key]}, expected ${c.expect[key]}`);
	}
	// Whole sites: exact request counts are the claim (README, Whole sites).
	if (
		(c.contender === bySite || c.contender === confirm) &&
		(got.list !== c.expect.list || got.put !== c.expect.put || got.post !== 0)
	) {
		broken.push(`${c.label}: ${JSON.stringify(got)}, expected ${JSON.stringify(c.expect)}`);
	}
	// Confirm Drops: one request more per suspected drop, and only the drops that held count as worse.
	if (c.contender === confirm) {
		const worse = out.nodes.phpRank[0].first?.worse_pages;
		if (worse !== run.scripted.real)
			broken.push(
				`${c.label}: worse_pages ${String(worse)}, expected the ${run.scripted.real} drops that held`,
			);
		console.log(
			`  Confirm Drops: ${run.scripted.noisy + run.scripted.real} suspected drops (${run.scripted.noisy} noise, ${run.scripted.real} real) cost ${got.put - n} requests more; worse_pages ${String(worse)}`,
		);
	}
	const requests = after.list + after.otherList + after.put + after.post + after.other;
	const floorMs = throttleFloorMs(requests, throttle.limit, throttle.windowMs);
	const duplicates = after.siteReports - n;
	const row = [
		c.label,
		`**${int(requests)}**: ${int(after.list)} list (project filter)${after.otherList ? ` + ${int(after.otherList)} other list` : ''} + ${int(after.put)} re-runs + ${int(after.post)} creates${after.other ? ` + ${int(after.other)} other` : ''}`,
		int(after.throttled),
		`${int(created)}${duplicates > 0 ? ` (${int(duplicates)} duplicates: the site now has ${int(after.siteReports)})` : ''}`,
		ms(wallMs),
		`${ms(floorMs)} (${plural(Math.ceil(requests / throttle.limit), 'window')})`,
		floorMs > 0 ? times(wallMs, floorMs) : '',
		floorAtPhpRankRate(requests),
	];
	console.log(
		`  ${c.label}: ${int(requests)} requests, ${int(after.throttled)} × 429, ${int(created)} created, ${ms(wallMs)}`,
	);
	return row;
}

/** Get Health of a big site: its report list alone, 100 a page, with the project filter. Its row of the table. */
async function healthRow(
	bench: Bench,
	options: Options,
	health: N8nContender,
	broken: string[],
): Promise<string[]> {
	const healthPages = options.healthPages;
	await bench.server.monitor({ cmd: 'seed-site', site: HEALTH_SITE, siteReports: healthPages });
	const healthOut = await executeN8n(bench, health, 1, undefined, EXECUTE_TIMEOUT_MS);
	const healthCounts = await bench.server.monitor<MonitorCounts>({
		cmd: 'monitor-stats',
		site: HEALTH_SITE,
	});
	const healthItem = healthOut.nodes.phpRank[0].first ?? {};
	const healthLists = Math.ceil(healthPages / PAGE_SIZE);
	if (
		healthCounts.list !== healthLists ||
		healthCounts.otherList + healthCounts.put + healthCounts.post + healthCounts.other !== 0 ||
		healthItem.pages !== healthPages
	) {
		broken.push(
			`Get Health of ${int(healthPages)} pages: ${JSON.stringify(healthCounts)}, pages ${String(healthItem.pages)}; expected ${healthLists} list requests and nothing else`,
		);
	}
	console.log(
		`  Get Health of ${HEALTH_SITE}, ${int(healthPages)} pages: ${int(healthCounts.list)} list requests (project filter), nothing else; ${ms(nodeMs(healthOut, 'phpRank'))}`,
	);
	return [
		`Get Health of a site of ${int(healthPages)} pages (its report list alone)`,
		`**${int(healthCounts.list)}**: ${int(healthCounts.list)} list (project filter)`,
		int(healthCounts.throttled),
		'0',
		ms(nodeMs(healthOut, 'phpRank')),
		'(unthrottled)',
		'',
		floorAtPhpRankRate(healthCounts.list),
	];
}

// ---------------------------------------------------------------------------------------------
// the sitemap table
// ---------------------------------------------------------------------------------------------

/** The site of the sitemap table; none of the seeded other reports is of it. */
const SITEMAP_SITE = 'audit.example.net';
/** The example's nodes that are not the sitemap reading: their time is not the sitemap's. */
const NOT_SITEMAP_NODES = new Set<string>([
	SITEMAP_EXAMPLE.audit,
	SITEMAP_EXAMPLE.email,
	SITEMAP_EXAMPLE.site,
]);

/** One run of the sitemap example, its expected counts. */
interface SitemapCase {
	label: string;
	expect: { list: number; put: number; post: number; created: number; rerun: number };
}

/** What the sitemap runs share: the servers, the throttle, the sitemaps served, and what they found broken. */
interface SitemapRun {
	bench: Bench;
	files: FileServer;
	smtp: SmtpCatcher;
	throttle: ThrottleOptions;
	contender: N8nContender;
	sitemaps: string[];
	broken: string[];
}

async function sitemapAudit(bench: Bench, options: Options): Promise<void> {
	const n = options.sitemapPages;
	const { throttle, perMinute } = scaledThrottle(options);
	const example = loadExamples().get(SITEMAP_EXAMPLE.file);
	if (!example) throw new BrokenRun(`examples/${SITEMAP_EXAMPLE.file} is missing`);
	// The others only: the site has no report before the first run.
	await bench.server.monitor({
		cmd: 'monitor-seed',
		others: options.monitorOthers,
		site: SITEMAP_SITE,
		siteReports: 0,
	});
	const urls = Array.from(
		{ length: n },
		(_, i) =>
			`https://${i % 2 ? 'www.' : ''}${SITEMAP_SITE}/${['products', 'blog', 'help'][i % 3]}/page-${i + 1}`,
	);
	await bench.server.monitor({ cmd: 'steady-analyses', urls });

	const files = await startFileServer();
	const smtp = await startSmtpCatcher();
	try {
		const sitemaps: string[] = [];
		for (let at = 0; at < n; at += options.sitemapPerFile) {
			const file = `/sitemap-${sitemaps.length + 1}.xml`;
			files.set(file, {
				body: urlsetXml(urls.slice(at, at + options.sitemapPerFile)),
				contentType: XML_TYPE,
			});
			sitemaps.push(file);
		}
		files.set('/sitemap.xml', {
			body: sitemapIndexXml(sitemaps.map((file) => files.origin + file)),
			contentType: XML_TYPE,
		});
		await importCredentials(bench.sb, [testServerCredential(bench.server), smtpCredential(smtp)]);
		// History Store → This Workflow instead of the example's Data Table: `n8n execute` serves no public API
		// for the node to reach its table, and the bench measures phpRank's side (the table's requests to n8n are
		// counted by npm run test:e2e:sitemap).
		const wf = withWorkflowHistory(withSitemapUrl(example, `${files.origin}/sitemap.xml`));
		await importWorkflows(bench.sb, [wf]);
		console.log(
			`  input: ${files.origin}/sitemap.xml, an index of ${plural(sitemaps.length, 'sitemap')} (${int(options.sitemapPerFile)} URLs each), ${plural(n, 'page')} of ${SITEMAP_SITE}`,
		);
		const contender: N8nContender = {
			key: 'sitemapAudit',
			row: 'monitor',
			label: 'the sitemap example',
			workflowId: wf.id,
			measured: [SITEMAP_EXAMPLE.audit, SITEMAP_EXAMPLE.email],
			output: SITEMAP_EXAMPLE.audit,
			shape: {
				text: `the summary of ${SITEMAP_SITE} (${n} pages)`,
				ok: (item) => item.project === SITEMAP_SITE && item.pages === n,
			},
			build: () => wf,
		};
		const listPages = Math.max(1, Math.ceil(n / PAGE_SIZE));
		const cases: SitemapCase[] = [
			{
				label: 'the first run (the site has no report yet)',
				expect: { list: 1, put: 0, post: n, created: n, rerun: 0 },
			},
			{
				label: 'every week after (a steady week: no drop to confirm)',
				expect: { list: listPages, put: n, post: 0, created: 0, rerun: n },
			},
		];
		const rows: string[][] = [];
		const broken: string[] = [];
		const run: SitemapRun = { bench, files, smtp, throttle, contender, sitemaps, broken };
		for (const c of cases) rows.push(await runSitemapCase(run, c));
		await bench.server.monitor({ cmd: 'throttle', throttle: false });
		await bench.server.monitor({ cmd: 'clear-analyses' });
		console.log(
			`\n### A whole site from its sitemap (examples/${SITEMAP_EXAMPLE.file} as it is, but History Store → This Workflow): ${plural(n, 'page')} of one site in an index of ${plural(sitemaps.length, 'sitemap')}, ` +
				`among ${int(options.monitorOthers)} reports of other sites; phpRank's throttle scaled in time: ${throttle.limit} requests per ${ms(throttle.windowMs)} window (${int(perMinute)} a minute)\n`,
		);
		console.log(
			table(
				[
					'run',
					'phpRank requests answered',
					"sitemap reads (the reading nodes' time)",
					'429s',
					'reports created',
					'wall time (the phpRank node)',
					"throttle's floor",
					'wall ÷ floor',
					"floor at phpRank's 60 a minute",
				],
				rows,
			),
		);
		const scores = urls.map((_, i) => steadyScore(i));
		console.log(
			`\nA steady week: each page keeps its score (${Math.min(...scores)}-${Math.max(...scores)}) and its checks, so Confirm Drops has nothing to confirm; each suspected drop costs one re-run more.`,
		);
		if (broken.length) throw new BrokenRun(broken.join('\n'));
	} finally {
		await files.stop();
		await smtp.stop();
	}
}

/** The example run once under the throttle: its row of the table; what it got wrong goes to run.broken. */
async function runSitemapCase(run: SitemapRun, c: SitemapCase): Promise<string[]> {
	const { bench, files, smtp, throttle, contender, sitemaps, broken } = run;
	const reads = 1 + sitemaps.length;
	const before = await bench.server.monitor<MonitorCounts>({
		cmd: 'monitor-stats',
		site: SITEMAP_SITE,
	});
	await bench.server.monitor({ cmd: 'throttle', throttle });
	files.hits.length = 0;
	smtp.clear();
	const requests = c.expect.list + c.expect.put + c.expect.post;
	const timeoutMs = throttledTimeoutMs(requests, throttle);
	const out = await executeN8n(bench, contender, 1, undefined, timeoutMs);
	const after = await bench.server.monitor<MonitorCounts>({
		cmd: 'monitor-stats',
		site: SITEMAP_SITE,
	});
	const summary = out.nodes[SITEMAP_EXAMPLE.audit][0].first ?? {};
	const mails = await smtp.waitFor(1, 10_000);
	const got = {
		list: after.list,
		put: after.put,
		post: after.post,
		created: after.createdTotal - before.createdTotal,
		rerun: Number(summary.rerun),
	};
	const answered = after.list + after.otherList + after.put + after.post + after.other;
	// Exact counts are the claim (README, Whole sites): anything else is a broken run.
	if (!same(got, c.expect) || after.otherList + after.other + after.failed > 0) {
		broken.push(
			`${c.label}: ${JSON.stringify({ ...got, otherList: after.otherList, other: after.other, failed: after.failed })}, expected ${JSON.stringify(c.expect)} and nothing else`,
		);
	}
	if (Number(summary.created) !== c.expect.created)
		broken.push(
			`${c.label}: the summary says created ${String(summary.created)}, expected ${c.expect.created}`,
		);
	if (
		files.hits.length !== reads ||
		!same([...files.hits].sort(), ['/sitemap.xml', ...sitemaps].sort())
	)
		broken.push(
			`${c.label}: sitemap reads ${JSON.stringify(files.hits)}, expected the index and each sitemap once`,
		);
	if (mails.length !== 1 || mails[0].html !== summary.summary_html)
		broken.push(`${c.label}: ${mails.length} emails, expected one whose body is summary_html`);
	const nodeWall = nodeMs(out, SITEMAP_EXAMPLE.audit);
	const sitemapMs = Object.keys(out.nodes)
		.filter(
			(name) => !NOT_SITEMAP_NODES.has(name) && !/trigger|Execute workflow|Every /i.test(name),
		)
		.reduce((sum, name) => sum + nodeMs(out, name), 0);
	const floorMs = throttleFloorMs(answered, throttle.limit, throttle.windowMs);
	const row = [
		c.label,
		`**${int(answered)}**: ${int(after.list)} list (project filter) + ${int(after.put)} re-runs + ${int(after.post)} creates`,
		`${int(files.hits.length)} (the index + ${plural(sitemaps.length, 'sitemap')}), ${ms(sitemapMs)}`,
		int(after.throttled),
		int(got.created),
		ms(nodeWall),
		`${ms(floorMs)} (${plural(Math.ceil(answered / throttle.limit), 'window')})`,
		floorMs > 0 ? times(nodeWall, floorMs) : '',
		floorAtPhpRankRate(answered),
	];
	console.log(
		`  ${c.label}: ${int(answered)} phpRank requests, ${int(files.hits.length)} sitemap reads, ${int(after.throttled)} × 429, ${int(got.created)} created, ${ms(nodeWall)}; score ${String(summary.average_score)}`,
	);
	return row;
}

// ---------------------------------------------------------------------------------------------
// CPU profile
// ---------------------------------------------------------------------------------------------

interface CpuProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
	children?: number[];
}

interface CpuProfile {
	nodes: CpuProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

function frameName(node: CpuProfileNode): string {
	const { functionName, url, lineNumber } = node.callFrame;
	const name = functionName || '(anonymous)';
	if (!url) return name;
	const file = url.replace(/^file:\/\//, '');
	const short = file.includes('/node_modules/')
		? file.slice(file.lastIndexOf('/node_modules/') + 14)
		: file.startsWith('node:')
			? file
			: path.basename(file);
	return `${name}  ${short}:${lineNumber + 1}`;
}

/** Self and total time per function over the samples taken between `fromUs` and `toUs` (profile clock). */
export function profileTimes(
	profile: CpuProfile,
	fromUs: number,
	toUs: number,
): { windowMs: number; self: Map<string, number>; total: Map<string, number> } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const self = new Map<string, number>();
	const total = new Map<string, number>();
	let t = profile.startTime;
	let windowUs = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i] ?? 0;
		if (t < fromUs || t > toUs) continue;
		// A sample stands for the time until the next one.
		const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
		windowUs += dt;
		const leaf = byId.get(profile.samples[i])!;
		const leafName = frameName(leaf);
		self.set(leafName, (self.get(leafName) ?? 0) + dt);
		const seen = new Set<string>();
		for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
			const name = frameName(byId.get(id)!);
			if (seen.has(name)) continue;
			seen.add(name);
			total.set(name, (total.get(name) ?? 0) + dt);
		}
	}
	const toMs = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / 1000]));
	return { windowMs: windowUs / 1000, self: toMs(self), total: toMs(total) };
}

async function cpuProfile(bench: Bench, options: Options): Promise<void> {
	const dir = options.cpuProf!;
	fs.mkdirSync(dir, { recursive: true });
	const contender = N8N_CONTENDERS.find(
		(c) => c.key === (options.cpuProfRow === 'get' ? 'getPhpRank' : 'listPhpRank'),
	)!;
	const before = new Set(fs.readdirSync(dir));
	const out = await executeN8n(
		bench,
		contender,
		options.cpuProfRow === 'get' ? options.gets : options.reports,
		{
			NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
		},
	);
	const file = fs
		.readdirSync(dir)
		.find(
			(f) => !before.has(f) && f.endsWith('.cpuprofile') && f.split('.')[3] === String(out.pid),
		);
	if (!file) throw new BrokenRun(`no .cpuprofile of the n8n process (pid ${out.pid}) in ${dir}`);
	const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
	// The node's start (Date) placed on the profile's clock (monotonic µs, as process.hrtime).
	const task = out.nodes[contender.measured[0]][0];
	const fromUs = out.clock.monotonicUs - (out.clock.epochMs - task.startTime) * 1000;
	const toUs = fromUs + task.executionTime * 1000;
	if (fromUs < profile.startTime || toUs > profile.endTime)
		throw new BrokenRun(
			`the node's run (${fromUs}–${toUs} µs) lies outside the profile (${profile.startTime}–${profile.endTime} µs)`,
		);
	const { windowMs, self, total } = profileTimes(profile, fromUs, toUs);
	const top = (m: Map<string, number>, skip: (name: string) => boolean) =>
		[...m]
			.filter(([name]) => !skip(name))
			.sort((a, b) => b[1] - a[1])
			.slice(0, 15)
			.map(([name, t], i) => [
				String(i + 1),
				ms(t),
				`${((100 * t) / windowMs).toFixed(1)}%`,
				`\`${name}\``,
			]);
	console.log(`\nCPU profile: ${path.join(dir, file)}`);
	console.log(
		`${contender.label}, ${int(options.cpuProfRow === 'get' ? options.gets : options.reports)} ${options.cpuProfRow === 'get' ? 'items' : 'reports'}: executionTime ${ms(task.executionTime)} under the profiler, ${ms(windowMs)} of samples in it\n`,
	);
	console.log('Top 15 by self time while the node ran:\n');
	console.log(
		table(
			['#', 'self', 'share', 'function  file:line'],
			top(self, () => false),
		),
	);
	console.log(
		'\nTop 15 by total time (self + callees) while the node ran, without the engine frames that hold everything:\n',
	);
	const holders =
		/^\((root|program|idle)\)|^processTicksAndRejections |^runMicrotasks|^\(anonymous\) {2}node:/;
	console.log(
		table(
			['#', 'total', 'share', 'function  file:line'],
			top(total, (name) => holders.test(name)),
		),
	);
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

let N8N_VERSION = '?';
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
	let server: ServerProcess | undefined;
	try {
		if (options.build) {
			step('npm run build');
			const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
			if (build.status !== 0)
				throw new BrokenRun(`npm run build failed:\n${build.stdout}${build.stderr}`);
		}
		const tgz = await packPackage(REPO, work);
		step('n8n runtime, sandbox, package');
		const runtime = getRuntime({ install: true });
		N8N_VERSION = (
			JSON.parse(
				fs.readFileSync(path.join(runtime.cacheDir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
			) as { version: string }
		).version;
		const outDir = path.join(work, 'hook');
		fs.mkdirSync(outDir);
		sb = await createSandbox({
			runtime,
			userFolder: path.join(work, 'n8n'),
			env: { EXTERNAL_HOOK_FILES: HOOK_FILE, PHPRANK_BENCH_DIR: outDir },
		});
		await installPackage(sb, tgz);

		server = await ServerProcess.start();
		const api = `${server.url}/api/v1`;
		const speedRun = options.cpuProf !== undefined || options.jobs.has('speed');
		const firstId = speedRun ? await server.seed(options.reports) : 1;
		step(
			`test server ${server.url}${speedRun ? `, ${int(options.reports)} reports` : ''}; importing credentials and workflows`,
		);
		await importCredentials(sb, [
			{ ...PHPRANK_CRED, type: 'phpRankApi', data: { baseUrl: server.url, apiKey: TEST_API_KEY } },
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

		if (options.cpuProf) {
			step(`CPU profile of the phpRank node, ${options.cpuProfRow} row`);
			await cpuProfile(bench, options);
		} else {
			if (options.jobs.has('speed')) {
				step(`speed: ${plural(options.rounds, 'round')}`);
				await speed(bench, options, firstId);
			}
			if (options.jobs.has('memory') && options.memReports > 0) {
				const memFirstId = await server.seed(options.memReports);
				await importWorkflows(sb, [BASELINE.build(api, memFirstId, 1)]);
				step(`memory: ${int(options.memReports)} reports, ${plural(options.memRounds, 'round')}`);
				await memory(bench, options);
			}
			if (options.jobs.has('monitor') && options.monitorUrls > 0) {
				step(
					`monitoring: ${plural(options.monitorUrls, 'page')} among ${int(options.monitorOthers)} other reports, throttled`,
				);
				await monitor(bench, options);
			}
			if (options.jobs.has('sitemap') && options.sitemapPages > 0) {
				step(
					`sitemap audit (the example): ${plural(options.sitemapPages, 'page')} among ${int(options.monitorOthers)} other reports, throttled`,
				);
				await sitemapAudit(bench, options);
			}
		}
		step(
			`done; load average ${os
				.loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')} on ${os.cpus().length} CPUs`,
		);
	} finally {
		server?.stop();
		if (sb && !process.env.KEEP_SANDBOX) await removeSandbox(sb);
		fs.rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv.includes('--serve')) {
	void serve();
} else {
	main().catch((error: unknown) => {
		if (error instanceof UsageError)
			console.error(`${error.message} (see npm run bench:n8n -- --help)`);
		else console.error(error instanceof BrokenRun ? `broken run: ${error.message}` : error);
		process.exit(1);
	});
}
