/**
 * examples/agency-weekly-audit.json on a queue-mode n8n (main + 2 workers, Redis, PostgreSQL), as `npm run
 * bench:agency` and the agency e2e suite run it: the phpRank test server with `sites` projects of `pages`
 * reports (every page's analysis fixed at its score, so Confirm Drops confirms nothing and the floor is exact),
 * its throttle 60 a minute × `throttleFactor`; the example saved and published as a user would (the History
 * Store credential's n8n Address a counting pass-through proxy in front of the main; Settings' n8n_address
 * the main's), then run from its Manual trigger with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true, so that the
 * dispatcher too runs on a worker, as its schedule would. Each run is measured: phpRank and n8n API requests,
 * wall time, each worker's peak RSS (/proc, with its child processes), the growth of n8n's execution and
 * data-table relations in PostgreSQL, the digest's time and size, which worker ran which site.
 */
import * as fs from 'fs';

import type { PhpRankServer } from '../../test/server';
import { median } from '../benchKit';
import { n8nApiAccess, PUBLIC_API_ON } from './apiKey';
import { EXAMPLES_DIR, testServerCredential, type WorkflowJson } from './checks';
import type { SmtpCatcher } from './catchers';
import type { CountingProxy } from './proxy';
import { setupOwner, type CredentialImport } from './n8n';
import { sleep } from './proc';
import { clusterWithPackage, startedBy, type QueueCluster } from './queue';
import type { Report } from './report';
import { editWorkflow, saveAndPublish, type RestSession } from './rest';
import { requireFromN8n } from './runtime';
import type { Suite } from './suite';

export const AGENCY_FILE = 'agency-weekly-audit.json';
const DISPATCH = 'Audit each site (one execution per site)';
const AGAIN = 'Audit again (the sites whose call failed)';
const DIGEST = 'Digest of every site';

export interface AgencyOptions {
	sites: number;
	pages: number;
	/** phpRank's 60 requests a minute multiplied by this */
	throttleFactor: number;
	/** `n8n worker --concurrency` */
	concurrency?: number;
	/** extra env for every n8n process (e.g. QUEUE_WORKER_LOCK_DURATION) */
	env?: Record<string, string>;
}

export interface AgencyRun {
	/** the dispatcher's execution ID: the sites' Run Key */
	id: string;
	label: string;
	status: string;
	wallMs: number;
	siteExecutions: number;
	siteStatuses: Record<string, number>;
	/** median of the site executions' own time */
	siteMedianMs: number;
	/** by kind the requests answered (neither 429 nor a fault: 5xx, or no answer), then those */
	phpRank: Record<
		'total' | 'lists' | 'projectLists' | 'analyses' | 'other' | 'throttled' | 'faulted',
		number
	>;
	/** when the dispatcher was started (ms since 1970) */
	startedAt: number;
	/** the run's site executions, with the site each was called for ('' when its data is gone) */
	sites: Array<ExecRow & { site: string }>;
	n8nApi: number;
	/** worker name → peak RSS in bytes over the run */
	peakRss: Record<string, number>;
	/** relation group → bytes grown over the run */
	dbGrowth: { executions: number; tables: number; database: number };
	/** the run's site executions still stored after it (not soft-deleted: n8n marks an execution it does not
	 * keep with deletedAt and pruning removes it within EXECUTIONS_DATA_HARD_DELETE_BUFFER), and their run data */
	kept: { executions: number; dataBytes: number };
	digest: {
		ms: number;
		bytes: number;
		totalSites: number;
		htmlBytes: number;
		notAudited: number;
		/** the sites the digest names as not audited */
		notAuditedList: string[];
	};
	/** the sites' answers to the dispatcher with history_saved false */
	historyErrors: number;
	/** worker name → how many site executions it started */
	sitesBy: Record<string, number>;
	/** the dispatcher's HTTP Request items that are errors; its second calls (Audit again), and their errors */
	dispatchErrors: number;
	again: { calls: number; errors: number };
	mails: number;
}

/** During a run: `during` runs beside it once the dispatcher started; the wait ends at `deadlineMs` (then status 'running'). */
export interface RunHooks {
	during?: (dispatcherId: string) => Promise<unknown>;
	deadlineMs?: number;
}

export interface Agency {
	hosts: string[];
	cluster: QueueCluster;
	proxy: CountingProxy;
	run(label: string, settings?: Record<string, unknown>, hooks?: RunHooks): Promise<AgencyRun>;
	/** site → rows in the history table (of one run: its Run Key, `run:<dispatcher ID>`) */
	rowsPerSite(runKey?: string): Promise<Map<string, number>>;
}

/**
 * phpRank requests of one run, the floor: one analysis per page, Create or Re-Run's one read of each site's
 * reports (Pages From → A Project's Reports: its pages from that read) and the digest's one read of every
 * report, at 100 a request, and Project → Get Many's lists.
 */
export function agencyFloor(o: AgencyOptions): {
	analyses: number;
	lists: number;
	projectLists: number;
} {
	return {
		analyses: o.sites * o.pages,
		lists: o.sites * Math.ceil(o.pages / 100) + Math.ceil((o.sites * o.pages) / 100),
		projectLists: Math.ceil(o.sites / 100),
	};
}

/** A run's outcome as both the e2e suite and the bench check it: phpRank's requests at the floor, every site done. */
export function checkAgencyRun(check: Report['check'], o: AgencyOptions, run: AgencyRun): void {
	const floor = agencyFloor(o);
	check(
		`${run.label}: phpRank requests at the floor exactly (${floor.analyses} analyses, ${floor.lists} report lists, ${floor.projectLists} project lists)`,
		run.phpRank.analyses === floor.analyses &&
			run.phpRank.lists === floor.lists &&
			run.phpRank.projectLists === floor.projectLists &&
			run.phpRank.other === 0,
		run.phpRank,
	);
	check(
		`${run.label}: the dispatcher ended successfully; ${o.sites} site executions, all successful; no failed call; the digest counts ${o.sites} sites`,
		run.status === 'success' &&
			run.siteExecutions === o.sites &&
			run.siteStatuses.success === o.sites &&
			run.dispatchErrors === 0 &&
			run.again.calls === 0 &&
			run.digest.totalSites === o.sites,
		{ status: run.status, sites: run.siteStatuses, errors: run.dispatchErrors, digest: run.digest },
	);
}

export const hostsFor = (sites: number): string[] =>
	Array.from({ length: sites }, (_, i) => `client-${String(i + 1).padStart(3, '0')}.example.com`);

/** The account: `sites` projects of `pages` reports, each URL's analysis fixed at its score. */
export function seedAccount(api: PhpRankServer, o: AgencyOptions): string[] {
	const hosts = hostsFor(o.sites);
	const reports = api.seedReports(o.sites * o.pages, { hosts, uniqueUrls: true });
	for (const r of reports) api.setAnalysis(`https://${r.url}`, { score: r.result, others: 'keep' });
	api.setThrottle({ limit: 60 * o.throttleFactor, windowMs: 60_000 });
	return hosts;
}

/** The example as a user sets it up here: n8n_address the main's (its credentials: the session's, saveWorkflow). */
export function agencyWorkflow(mainUrl: string): WorkflowJson {
	const wf = JSON.parse(fs.readFileSync(`${EXAMPLES_DIR}/${AGENCY_FILE}`, 'utf8')) as WorkflowJson;
	const settings = wf.nodes.find((n) => n.name === 'Settings');
	const assignments = (
		settings?.parameters.assignments as { assignments: Array<{ value: string }> }
	).assignments;
	assignments[0].value = mainUrl;
	return wf;
}

/** Starts the cluster with the package, the credentials and the example published. */
export async function startAgency(
	suite: Suite,
	api: PhpRankServer,
	smtp: SmtpCatcher,
	smtpCredential: CredentialImport,
	o: AgencyOptions,
): Promise<Agency> {
	const hosts = seedAccount(api, o);
	const cluster = await clusterWithPackage(suite, {
		workers: 2,
		concurrency: o.concurrency,
		env: { ...PUBLIC_API_ON, OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', ...o.env },
	});
	await cluster.start();
	const main = cluster.main as NonNullable<QueueCluster['main']>;
	const session = await setupOwner(main);
	await session.addCredentials([testServerCredential(api), smtpCredential]);
	const { proxy } = await n8nApiAccess(suite, {
		session,
		n8nUrl: main.baseUrl,
		label: 'phpRank agency audit',
		proxy: true,
		name: 'phpRank History Store API (counted)',
	});
	const { id, published } = await saveAndPublish(session, agencyWorkflow(main.baseUrl));
	if (published.status !== 200) throw new Error(`not published: ${JSON.stringify(published.body)}`);
	const ctx: RunContext = {
		cluster,
		session,
		workflowId: id,
		api,
		smtp,
		proxy,
		sites: o.sites,
		hosts,
	};
	return {
		hosts,
		cluster,
		proxy,
		run: (label, settings, hooks) => runOnce(ctx, label, settings, hooks),
		rowsPerSite: (runKey) => rowsPerSite(cluster, runKey),
	};
}

interface RunContext {
	cluster: QueueCluster;
	session: RestSession;
	workflowId: string;
	api: PhpRankServer;
	smtp: SmtpCatcher;
	proxy: CountingProxy;
	sites: number;
	hosts: string[];
}

/** RSS of a process and its children, from /proc (0 when it is gone). */
function rssOf(pid: number): number {
	let bytes = 0;
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		bytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
		for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
			const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
			for (const child of children.split(' ').filter(Boolean)) bytes += rssOf(Number(child));
		}
	} catch {
		// the process ended between two reads
	}
	return bytes;
}

/** Bytes of n8n's execution relations, of the data tables' own relations, and of the whole database. */
async function dbSizes(
	cluster: QueueCluster,
): Promise<{ executions: number; tables: number; database: number }> {
	const rows = await cluster.postgres.query<{ relname: string; bytes: string }>(
		`SELECT relname, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relkind = 'r'
		 AND (relname LIKE 'execution%' OR relname LIKE 'data_table_user_%')`,
	);
	const sum = (prefix: string) =>
		rows.filter((r) => r.relname.startsWith(prefix)).reduce((s, r) => s + Number(r.bytes), 0);
	const [db] = await cluster.postgres.query<{ bytes: string }>(
		'SELECT pg_database_size(current_database()) AS bytes',
	);
	return {
		executions: sum('execution'),
		tables: sum('data_table_user_'),
		database: Number(db.bytes),
	};
}

/** The data tables' relations in PostgreSQL (the history table's). */
export const historyTables = async (cluster: QueueCluster): Promise<string[]> =>
	(
		await cluster.postgres.query<{ relname: string }>(
			"SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'data_table_user_%'",
		)
	).map((t) => t.relname);

/** site → rows (with `runKey`, of that run), read from the history table's relation in PostgreSQL. */
async function rowsPerSite(cluster: QueueCluster, runKey?: string): Promise<Map<string, number>> {
	const out = new Map<string, number>();
	for (const relname of await historyTables(cluster)) {
		const rows = await cluster.postgres.query<{ site: string; n: string }>(
			`SELECT site, count(*) AS n FROM "${relname}" WHERE $1::text IS NULL OR execution_id = $1 GROUP BY site`,
			[runKey ?? null],
		);
		for (const r of rows) out.set(r.site, (out.get(r.site) ?? 0) + Number(r.n));
	}
	return out;
}

export interface ExecRow {
	id: string;
	status: string;
	mode: string;
	createdAt: Date | null;
	startedAt: Date | null;
	stoppedAt: Date | null;
}

async function executionsOf(cluster: QueueCluster, workflowId: string): Promise<ExecRow[]> {
	return await cluster.postgres.query<ExecRow>(
		`SELECT id::text AS id, status, mode, "createdAt", "startedAt", "stoppedAt" FROM execution_entity
		 WHERE "workflowId" = $1 ORDER BY id`,
		[workflowId],
	);
}

const FINISHED = (status: string) => !['new', 'running', 'waiting', 'unknown'].includes(status);

/** The dispatcher's run data (flatted JSON in execution_data). */
async function runDataOf(
	cluster: QueueCluster,
	id: string,
): Promise<Record<string, Array<Record<string, unknown>>>> {
	const [row] = await cluster.postgres.query<{ data: string }>(
		'SELECT data FROM execution_data WHERE "executionId" = $1',
		[id],
	);
	const flatted = requireFromN8n<{ parse(text: string): unknown }>(
		cluster.mainSandbox.runtime,
		'flatted',
	);
	const data = (row ? flatted.parse(row.data) : {}) as {
		resultData?: { runData?: Record<string, Array<Record<string, unknown>>> };
	};
	return data.resultData?.runData ?? {};
}

type NodeRun = {
	executionTime?: number;
	data?: { main?: Array<Array<{ json: Record<string, unknown> }>> };
};
const itemsOf = (runs: Array<Record<string, unknown>> | undefined) =>
	((runs?.[runs.length - 1] as NodeRun | undefined)?.data?.main?.[0] ?? []).map((i) => i.json);

/** worker name → the site executions it started ("Worker started execution <id> (job" in its log). */
function sitesBy(cluster: QueueCluster, ids: Set<string>): Record<string, number> {
	const out: Record<string, number> = {};
	for (const w of cluster.workers) out[w.name] = startedBy(w).filter((id) => ids.has(id)).length;
	return out;
}

function phpRankCounts(api: PhpRankServer): AgencyRun['phpRank'] {
	const all = api.requests.filter((r) => r.path.includes('/api/v1/'));
	const throttled = all.filter((r) => r.status === 429).length;
	const reqs = all.filter((r) => r.status !== undefined && r.status !== 429 && r.status < 500);
	const count = (method: string, path: RegExp) =>
		reqs.filter((r) => r.method === method && path.test(r.path)).length;
	const [lists, projectLists] = [count('GET', /\/reports\/?$/), count('GET', /\/projects\/?$/)];
	const analyses = count('POST', /\/reports\/?$/) + count('PUT', /\/reports\/\d+/);
	return {
		total: all.length,
		lists,
		projectLists,
		analyses,
		other: reqs.length - lists - projectLists - analyses,
		throttled,
		faulted: all.length - reqs.length - throttled,
	};
}

/** Optional workflow settings (e.g. saveDataSuccessExecution), then one run from the Manual trigger. */
async function runOnce(
	ctx: RunContext,
	label: string,
	settings?: Record<string, unknown>,
	hooks: RunHooks = {},
): Promise<AgencyRun> {
	const { cluster, session, workflowId, api } = ctx;
	if (settings) await applySettings(ctx, settings);
	const before = await dbSizes(cluster);
	const known = new Set((await executionsOf(cluster, workflowId)).map((e) => e.id));
	api.clearRequests();
	ctx.proxy.reset();
	ctx.smtp.clear();
	const peakRss: Record<string, number> = {};
	const startedAt = Date.now();
	const sampler = setInterval(() => {
		for (const w of cluster.workers) peakRss[w.name] = Math.max(peakRss[w.name] ?? 0, rssOf(w.pid));
	}, 1000);
	const started = await session.request<{ data?: { executionId?: string } }>(
		'POST',
		`/rest/workflows/${workflowId}/run`,
		{ triggerToStartFrom: { name: 'When clicking ‘Execute workflow’' } },
	);
	const dispatcherId = started.body?.data?.executionId;
	if (!dispatcherId) throw new Error(`the run did not start: ${JSON.stringify(started.body)}`);
	const during = hooks.during?.(dispatcherId);
	let dispatcher: ExecRow | undefined;
	const deadline = startedAt + (hooks.deadlineMs ?? Infinity);
	for (let tick = 1; !dispatcher || !FINISHED(dispatcher.status); tick++) {
		if (Date.now() > deadline) break;
		await sleep(2000);
		const now = (await executionsOf(cluster, workflowId)).filter((e) => !known.has(e.id));
		dispatcher = now.find((e) => e.id === dispatcherId);
		if (tick % 30 === 0)
			console.log(
				`       ${label}: ${now.filter((e) => e.mode === 'webhook' && FINISHED(e.status)).length} of ${ctx.sites} sites done`,
			);
	}
	await during;
	clearInterval(sampler);
	const execs = (await executionsOf(cluster, workflowId)).filter((e) => !known.has(e.id));
	const sites = execs.filter((e) => e.mode === 'webhook');
	return {
		id: dispatcherId,
		label,
		status: dispatcher?.status ?? 'not stored',
		startedAt,
		sites: await siteOfEach(cluster, sites, ctx.hosts),
		wallMs: dispatcher?.stoppedAt
			? +dispatcher.stoppedAt - +(dispatcher.startedAt ?? 0)
			: Date.now() - startedAt,
		siteExecutions: sites.length,
		siteStatuses: Object.fromEntries(tally(sites.map((e) => e.status))),
		siteMedianMs: median(sites.map((e) => +(e.stoppedAt ?? 0) - +(e.startedAt ?? 0))),
		phpRank: phpRankCounts(api),
		n8nApi: ctx.proxy.count(),
		peakRss,
		dbGrowth: diffSizes(before, await dbSizes(cluster)),
		kept: await keptData(
			cluster,
			sites.map((e) => e.id),
		),
		sitesBy: sitesBy(cluster, new Set(sites.map((e) => e.id))),
		mails: ctx.smtp.messages.length,
		...(await dispatcherFigures(cluster, dispatcherId, ctx.smtp)),
	};
}

/** Each site execution with the site it was called for: the one host its stored data names. */
async function siteOfEach(
	cluster: QueueCluster,
	execs: ExecRow[],
	hosts: string[],
): Promise<AgencyRun['sites']> {
	const rows = await cluster.postgres.query<{ id: string; data: string }>(
		'SELECT "executionId"::text AS id, data FROM execution_data WHERE "executionId" = ANY($1::int[])',
		[execs.map((e) => Number(e.id))],
	);
	const data = new Map(rows.map((r) => [r.id, r.data]));
	return execs.map((e) => ({
		...e,
		site: hosts.find((h) => data.get(e.id)?.includes(`"${h}"`)) ?? '',
	}));
}

/** How many of `ids` are still stored, and the bytes of their execution data. */
async function keptData(cluster: QueueCluster, ids: string[]): Promise<AgencyRun['kept']> {
	const [row] = await cluster.postgres.query<{ n: string; bytes: string | null }>(
		`SELECT count(*) AS n, sum(octet_length(d.data)) AS bytes FROM execution_entity e
		 LEFT JOIN execution_data d ON d."executionId" = e.id
		 WHERE e.id = ANY($1::int[]) AND e."deletedAt" IS NULL`,
		[ids.map(Number)],
	);
	return { executions: Number(row.n), dataBytes: Number(row.bytes ?? 0) };
}

function diffSizes(a: AgencyRun['dbGrowth'], b: AgencyRun['dbGrowth']): AgencyRun['dbGrowth'] {
	return {
		executions: b.executions - a.executions,
		tables: b.tables - a.tables,
		database: b.database - a.database,
	};
}

/** How many times each key occurs. */
export const tally = <K>(keys: K[]) =>
	keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>());

/** The digest's time and size, and the dispatcher's failed calls, from its run data. */
async function dispatcherFigures(
	cluster: QueueCluster,
	id: string,
	smtp: SmtpCatcher,
): Promise<Pick<AgencyRun, 'digest' | 'dispatchErrors' | 'historyErrors' | 'again'>> {
	const runData = await runDataOf(cluster, id);
	const digestRun = runData[DIGEST]?.[0] as NodeRun | undefined;
	const [digest] = itemsOf(runData[DIGEST]);
	const [calls, again] = [itemsOf(runData[DISPATCH]), itemsOf(runData[AGAIN])];
	const mail = smtp.messages[0];
	return {
		digest: {
			ms: digestRun?.executionTime ?? 0,
			bytes: digest ? JSON.stringify(digest).length : 0,
			totalSites: Number(digest?.total_sites ?? 0),
			htmlBytes: String(digest?.summary_html ?? mail?.html ?? '').length,
			notAudited: Number(digest?.not_audited_sites ?? 0),
			notAuditedList: ((digest?.not_audited ?? []) as Array<{ project: string }>).map(
				(n) => n.project,
			),
		},
		dispatchErrors: calls.filter((c) => c.error !== undefined).length,
		historyErrors: calls.filter((c) => c.history_saved === false).length,
		again: { calls: again.length, errors: again.filter((c) => c.error !== undefined).length },
	};
}

/** The workflow's settings changed as the editor's Workflow Settings would, and published again. */
async function applySettings(ctx: RunContext, settings: Record<string, unknown>): Promise<void> {
	await editWorkflow(ctx.session, ctx.workflowId, (wf) => ({
		...wf,
		settings: { ...(wf.settings as object), ...settings },
	}));
	await sleep(3000);
}
