/**
 * `npm run test:e2e:table-history`: History Store → Data Table (Create or Re-Run, One Item per Site) in a
 * REAL n8n (2.41.1) installed as README says, with n8n's public API on and a key made as Settings → n8n API
 * makes it. One n8n start (SQLite) for the one-machine sections: five webhook runs whose rows and answers equal
 * the test server's figures, the node renamed and the workflow duplicated, Retry On Fail after a lost answer, a
 * manual run, a write that fails after the audit, and bad input stopped before any phpRank request (the public
 * API turned off: the history suite, whose n8n has it off). Then queue mode (main + 2 workers, Redis, PostgreSQL):
 * six runs over both workers, a manual run offloaded to a worker, History Store → This Workflow on the workers
 * (each run's history starts anew; a manual run there adds nothing), and a phpRank Trigger beside a Create or
 * Re-Run with This Workflow (what happens to the trigger's static data, printed and pinned).
 *
 * In the one-machine part the n8n API credential points at a counting pass-through proxy in front of n8n (its
 * requests per run are counted, and it can fail the rows/upsert POSTs); in queue mode at the main's address.
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1, E2E_TARBALL (the runner's tarball).
 * Args: `-- --only one|queue` runs one part.
 */
import { historyOf, MONTHS, scriptRun } from '../../../test/harness/siteOverMonths';
import { siteFigures, type SiteFigures } from '../../../test/server';
import { n8nApiAccess, PUBLIC_API_ON, startWithN8nApi } from '../apiKey';
import { apiRequests, describeRequests, json, PHPRANK_CRED, testServerCredential } from '../checks';
import { createDataTable, publicTables, README_HISTORY_COLUMNS } from '../dataTable';
import { nthExecution } from '../db';
import { login, setupOwner, startServer, storedExecutions, waitForExecutions } from '../n8n';
import { sleep } from '../proc';
import { describeProxied } from '../proxy';
import { clusterWithPackage } from '../queue';
import { same } from '../report';
import { renameNode } from '../rest';
import type { N8nSandbox } from '../sandbox';
import {
	loseCreateAnswerOnce,
	manualRun,
	production,
	siteWorkflow,
	type Site,
} from '../siteHistory';
import { Suite } from '../suite';
import {
	phpRank,
	phpRankTrigger,
	pollAt,
	workflow,
	type CredentialRef,
	type WorkflowJson,
} from '../workflow';

const suite = new Suite('table-history', { editor: false });
const { check, section, note, api } = suite;

const SITE = 'table.example.com';
const PAGES = ['/', '/pricing', '/blog'].map((p) => `https://${SITE}${p}`);
/** A second site, in the Retry On Fail run only: its create's answer is lost once. */
const OTHER = 'https://second.example.com/';
const TABLE = 'phpRank history (e2e)';
const HOOK = 'phprank-tablehistory';
const START = Date.parse('2026-02-02T08:00:00Z');
const TIMES: Array<[string, number]> = [];

type Row = Record<string, unknown>;

// ------------------------------------------------------------------------------------------------
// the workflow, the runs, the table
// ------------------------------------------------------------------------------------------------

interface HistoryOptions {
	hook: string;
	audit?: string;
	table?: { mode: string; value: string };
	n8nApi: CredentialRef;
	store?: 'dataTable' | 'workflow';
}

/** Webhook (answers the site item) and Manual → Pages → Create or Re-Run (One Item per Site), Retry On Fail. */
const historyWorkflow = (name: string, o: HistoryOptions): WorkflowJson =>
	siteWorkflow({
		name,
		hook: o.hook,
		pages: PAGES,
		audit: o.audit,
		n8nApi: o.n8nApi,
		parameters: {
			historyStore: o.store ?? 'dataTable',
			historyTable: o.table ?? { mode: 'name', value: TABLE },
			// A write n8n refuses (writeFails) is tried again for 2 s, not the default 300 s.
			requestOptions: { waitOutOutages: 2 },
		},
	});

/** Each page's next analysis for run `run` (a week apart, pages a second apart): the site over months, again and again. */
const script = (run: number) =>
	scriptRun(api, PAGES, { start: START, run, ...MONTHS[run % MONTHS.length] });

/** A row's figures as siteFigures writes them. */
const rowFigures = (row: Row): SiteFigures => ({
	date: new Date(String(row.run_date)).toISOString().replace('.000Z', 'Z'),
	average_score: row.average_score as number,
	health_score: row.health_score as number,
	pages: row.pages as number,
});

/** Every row of the site in the table (by name), oldest first, through the public API. */
async function tableRows(base: string, key: string): Promise<Row[]> {
	const tables = publicTables(base, key);
	const [table] = await tables.named(TABLE);
	return table ? await tables.rows(table.id, { site: SITE, sortBy: 'run_date:asc' }) : [];
}

async function timedSection<T>(name: string, fn: () => Promise<T>): Promise<T> {
	section(name);
	const t = Date.now();
	try {
		return await fn();
	} finally {
		TIMES.push([name, (Date.now() - t) / 1000]);
		note(`(section: ${((Date.now() - t) / 1000).toFixed(1)} s)`);
	}
}

// ------------------------------------------------------------------------------------------------
// one machine
// ------------------------------------------------------------------------------------------------

type One = Awaited<ReturnType<typeof startOne>>;

async function startOne() {
	const { sb } = await suite.packageSandbox();
	const { n8n, session, key, proxy, cred } = await startWithN8nApi(suite, sb, {
		label: 'phpRank history (e2e)',
		proxy: true,
		name: 'phpRank History Store API',
	});
	await session.addCredentials([testServerCredential(api)]);
	const wfId = await session.save(
		historyWorkflow('e2e: table history', { hook: HOOK, n8nApi: cred }),
	);
	return {
		sb,
		baseUrl: n8n.baseUrl,
		session,
		key,
		proxy,
		cred,
		wfId,
		records: [] as SiteFigures[],
		executions: [] as string[],
		stop: (): Promise<void> => n8n.stop(),
	};
}

/** Webhook executions of each workflow already taken by lastExecution. */
const TAKEN = new Map<string, number>();

/** The workflow's next webhook execution once n8n has stored it as ended (the answer can come before). */
async function lastExecution(sb: N8nSandbox, wfId: string) {
	const n = (TAKEN.get(wfId) ?? 0) + 1;
	TAKEN.set(wfId, n);
	return await nthExecution(sb, wfId, 'webhook', n, 30_000);
}

/** A production run of `hook`: the answer's history = the records so far + this run's figures. */
async function recordedRun(one: One, hook: string, wfId: string, label: string): Promise<Site> {
	const before = one.proxy.seen.length;
	const site = await production(suite, one.baseUrl, hook, PAGES);
	one.records.push(siteFigures(api, SITE));
	const exec = await lastExecution(one.sb, wfId);
	one.executions.push(exec?.id ?? '?');
	const seen = one.proxy.seen.slice(before);
	note(`${label}: ${seen.length} requests to n8n: ${describeProxied(seen).join(', ')}`);
	check(
		`${label}: history holds ${one.records.length} runs, each the test server's figures; history_saved true`,
		same(historyOf(site), one.records) && site.history_saved === true && !site.history_error,
		{ history: historyOf(site), expected: one.records, saved: site.history_saved },
	);
	return site;
}

/** The table's rows of the site equal the records, one per execution. */
async function checkRows(one: One, label: string): Promise<Row[]> {
	const rows = await tableRows(one.baseUrl, one.key);
	check(
		`${label}: the table (read through n8n's public API) holds ${one.records.length} rows of ${SITE}, each the test server's figures, one per execution`,
		same(rows.map(rowFigures), one.records) &&
			same(
				rows.map((r) => String(r.execution_id)),
				one.executions,
			),
		{
			rows: rows.map(rowFigures),
			expected: one.records,
			ids: [rows.map((r) => r.execution_id), one.executions],
		},
	);
	return rows;
}

async function fiveRuns(one: One): Promise<void> {
	for (let run = 0; run < 5; run++) {
		script(run);
		await recordedRun(one, HOOK, one.wfId, `run ${run + 1}`);
	}
	const rows = await checkRows(one, 'after five runs');
	const first = one.proxy.seen.filter(
		(s) => s.method === 'POST' && s.path === '/api/v1/data-tables',
	);
	check(
		'the table was created by the node on the first run (one POST /data-tables), with every column',
		first.length === 1 &&
			rows.every((r) =>
				['good_pages', 'decent_pages', 'bad_pages', 'failing_checks', 'workflow_id'].every(
					(c) => c in r,
				),
			) &&
			rows.every((r) => r.workflow_id === one.wfId),
		{ creates: first, row: rows[0] },
	);
	note(`a row: ${JSON.stringify(rows.at(-1))}`);
}

/** Renamed node (saved and published again), then a copy of the workflow with its own id and path. */
async function renamedAndCopied(one: One): Promise<void> {
	const renamed = 'Audit the site';
	const { versionId, seconds } = await renameNode(one.session, one.sb, one.wfId, [
		'Audit',
		renamed,
	]);
	note(
		`renamed: version ${versionId}, published by n8n's publication outbox after ${seconds.toFixed(1)} s`,
	);
	script(5);
	await recordedRun(one, HOOK, one.wfId, `run 6, node renamed "${renamed}"`);
	const exec = (await storedExecutions(one.sb, one.wfId)).find(
		(e) => e.id === one.executions.at(-1),
	);
	check(
		`run 6 ran the renamed node (the stored run has "${renamed}", no "Audit")`,
		renamed in (exec?.outputs ?? {}) && !('Audit' in (exec?.outputs ?? {})),
		Object.keys(exec?.outputs ?? {}),
	);

	const copyHook = `${HOOK}-copy`;
	const copy = historyWorkflow('e2e: table history (copy)', {
		hook: copyHook,
		audit: renamed,
		n8nApi: one.cred,
	});
	const copyId = await one.session.save(copy);
	script(6);
	await recordedRun(one, copyHook, copyId, `run 7, the workflow's copy (${copyId})'s first run`);
	const rows = await checkRows(one, 'after the rename and the copy');
	check(
		"the copy's row carries its own workflow id, the others the first workflow's",
		rows.at(-1)?.workflow_id === copyId &&
			rows.slice(0, -1).every((r) => r.workflow_id === one.wfId),
		rows.map((r) => r.workflow_id),
	);
}

/** Retry On Fail after a lost answer: one row for the run; then a manual run: no row. */
async function retryAndManual(one: One): Promise<void> {
	script(7);
	loseCreateAnswerOnce(api, OTHER);
	const before = one.proxy.seen.length;
	const site = await production(suite, one.baseUrl, HOOK, [...PAGES, OTHER]);
	one.records.push(siteFigures(api, SITE));
	one.executions.push((await lastExecution(one.sb, one.wfId))?.id ?? '?');
	const others = apiRequests(api).filter(
		(r) =>
			r.form.url?.includes('second.example.com') ||
			(r.method === 'PUT' && r.path.includes('/reports/')),
	);
	const seen = one.proxy.seen.slice(before);
	note(`run 8 (two tries): ${seen.length} requests to n8n: ${describeProxied(seen).join(', ')}`);
	note(`run 8, phpRank writes: ${describeRequests(others)}`);
	const upserts = seen.filter((s) => s.path.endsWith('/rows/upsert'));
	check(
		`run 8: ${upserts.length} upserts, one table read: the site's row written on each try (2) and the second site's once, n8n's Retry On Fail re-ran the node`,
		upserts.length === 3 && seen.filter((s) => s.path.endsWith('/rows')).length === 1,
		describeProxied(seen).join(', '),
	);
	check(
		"run 8: the second site's create was answered by a reset and the node tried again (Retry On Fail)",
		others.some((r) => r.method === 'POST' && r.status === undefined) &&
			api.listReports().filter((r) => r.project === 'second.example.com').length === 1,
		describeRequests(others),
	);
	check(
		`run 8 (Retry On Fail): history holds ${one.records.length} runs, history_saved true`,
		same(historyOf(site), one.records) && site.history_saved === true,
		{ history: historyOf(site), expected: one.records },
	);
	await checkRows(one, 'after Retry On Fail: one row for that run, not two');

	script(8);
	const manual = await manualRun(one.session, one.sb, one.wfId, 'Audit the site');
	const expected = [...one.records, siteFigures(api, SITE)];
	check(
		"a manual run (the editor's Execute workflow): succeeds, shows the history with this run last, history_saved false",
		manual.exec?.status === 'success' &&
			manual.exec.mode === 'manual' &&
			same(historyOf(manual.site), expected) &&
			manual.site.history_saved === false,
		{
			status: manual.exec?.status,
			history: historyOf(manual.site),
			expected,
			saved: manual.site.history_saved,
		},
	);
	await checkRows(one, 'after the manual run: no row added');
}

/** The run's row cannot be written (the proxy answers 503 to rows/upsert): the item still comes out. */
async function writeFails(one: One): Promise<void> {
	one.proxy.fault = (method, path) =>
		method === 'POST' && path.endsWith('/rows/upsert') ? 503 : undefined;
	script(9);
	api.clearRequests();
	const before = one.proxy.seen.length;
	const site = await production(suite, one.baseUrl, HOOK, PAGES);
	one.proxy.fault = undefined;
	const figures = siteFigures(api, SITE);
	const exec = await lastExecution(one.sb, one.wfId);
	const audits = apiRequests(api).filter(
		(r) => (r.method === 'POST' && r.path.endsWith('/reports')) || r.method === 'PUT',
	);
	note(`run 9: requests to n8n: ${describeProxied(one.proxy.seen.slice(before)).join(', ')}`);
	note(`run 9: history_error: ${String(site.history_error)}`);
	const upserts = one.proxy.seen
		.slice(before)
		.filter((r) => r.method === 'POST' && r.path.endsWith('/rows/upsert')).length;
	check(
		`a write that fails after the audit (n8n answers 503 to rows/upsert, tried ${upserts} times within Wait Out Outages, 2 s here): the execution succeeds, the site item comes out with history_saved false and history_error naming the HTTP 503`,
		upserts >= 2 &&
			exec?.status === 'success' &&
			site.history_saved === false &&
			/503/.test(String(site.history_error)) &&
			same(historyOf(site), [...one.records, figures]),
		{
			status: exec?.status,
			saved: site.history_saved,
			error: site.history_error,
			history: historyOf(site),
		},
	);
	check(
		`the analysis is not repeated: one create or re-run per page (${PAGES.length}), no retry`,
		audits.length === PAGES.length,
		describeRequests(audits),
	);
	await checkRows(one, 'after the failed write: no row for that run');
}

/** A History Store of Data Table that cannot be read: the error names the fix; phpRank gets nothing. */
async function badInput(one: One): Promise<void> {
	const lacking = await createDataTable(
		one.session,
		'history lacking columns',
		README_HISTORY_COLUMNS.filter((c) => !['health_score', 'workflow_id'].includes(c.name)),
	);
	const gone = await createDataTable(one.session, 'history deleted', README_HISTORY_COLUMNS);
	const deleted = await publicTables(one.baseUrl, one.key).request(
		'DELETE',
		`/data-tables/${gone.id}`,
	);
	note(`the table "history deleted" removed through the public API: HTTP ${deleted.status}`);
	const wrong = await one.session.createCredential({
		name: 'n8n API (wrong key)',
		type: 'phpRankN8nApi',
		data: { baseUrl: one.proxy.url, apiKey: 'n8n_api_not-a-key' },
	});
	const cases: Array<[string, Partial<HistoryOptions>, RegExp]> = [
		['History Table empty', { table: { mode: 'list', value: '' } }, /History Table/],
		[
			'a table missing two columns, named',
			{ table: { mode: 'id', value: lacking.id } },
			/health_score.*workflow_id/,
		],
		[
			'a wrong API key (401), the error names the fix',
			{ n8nApi: { id: wrong.id, name: wrong.name } },
			/401.*Settings → n8n API/s,
		],
		['the table deleted', { table: { mode: 'id', value: gone.id } }, /gone|not found/i],
	];
	for (const [label, opts, expected] of cases) {
		const wf = historyWorkflow(`e2e: bad input: ${label}`, {
			hook: `${HOOK}-bad`,
			n8nApi: one.cred,
			...opts,
		});
		const id = await one.session.save(wf, false);
		api.clearRequests();
		const run = await manualRun(one.session, one.sb, id);
		note(`${label}: ${run.error}`);
		check(
			`${label}: the run fails with an error that says so, and phpRank got no request`,
			run.exec?.status === 'error' && expected.test(run.error) && apiRequests(api).length === 0,
			{ status: run.exec?.status, error: run.error, phpRank: describeRequests(apiRequests(api)) },
		);
	}
}

async function oneMachine(): Promise<One> {
	const one = await timedSection('one n8n (SQLite), public API on, a key made by REST', startOne);
	await timedSection('five production runs (History Store: Data Table, table By Name)', () =>
		fiveRuns(one),
	);
	await timedSection('the node renamed; the workflow duplicated', () => renamedAndCopied(one));
	await timedSection('Retry On Fail after a lost answer; a manual run', () => retryAndManual(one));
	await timedSection('a write that fails after the audit', () => writeFails(one));
	await timedSection('bad input: stopped before any phpRank request', () => badInput(one));
	return one;
}

// ------------------------------------------------------------------------------------------------
// queue mode
// ------------------------------------------------------------------------------------------------

type Queue = Awaited<ReturnType<typeof startQueue>>;

async function startQueue() {
	const cluster = await clusterWithPackage(suite, {
		workers: 2,
		env: { ...PUBLIC_API_ON, OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
	});
	await cluster.start();
	const main = cluster.main;
	if (!main) throw new Error('the queue-mode main did not start');
	const sb = cluster.mainSandbox;
	const session = await setupOwner(main);
	await session.addCredentials([testServerCredential(api)]);
	const { key, cred } = await n8nApiAccess(suite, {
		session,
		n8nUrl: main.baseUrl,
		label: 'phpRank history (e2e, queue)',
		name: 'phpRank History Store API (main)',
	});
	note(`the credential's n8n Address is the main's: ${main.baseUrl}`);
	const queue = {
		sb,
		baseUrl: main.baseUrl,
		session,
		key,
		cred,
		ranBy: (id: string) => cluster.ranBy(id),
		/** the main stopped, `whileDown` run, the main started again on its port */
		restartMain: async (whileDown: () => void): Promise<void> => {
			await cluster.main?.stop();
			whileDown();
			cluster.main = await startServer(sb, { port: main.port });
			queue.session = await login(cluster.main);
		},
	};
	return queue;
}

/** Six webhook runs taken by the two workers; then a manual run offloaded to a worker. */
async function queueRuns(q: Queue): Promise<void> {
	const wfId = await q.session.save(
		historyWorkflow('e2e: table history (queue)', { hook: HOOK, n8nApi: q.cred }),
	);
	const records: SiteFigures[] = [];
	const workers: string[] = [];
	for (let run = 0; run < 6; run++) {
		script(20 + run);
		const site = await production(suite, q.baseUrl, HOOK, PAGES);
		records.push(siteFigures(api, SITE));
		const exec = await lastExecution(q.sb, wfId);
		workers.push(q.ranBy(exec?.id ?? '').join('+') || '?');
		check(
			`queue mode, run ${run + 1} (${workers[run]}): history holds ${records.length} runs, each the server's figures; history_saved`,
			same(historyOf(site), records) && site.history_saved === true,
			{ history: historyOf(site), expected: records },
		);
	}
	note(
		`runs 1-6 taken by: ${workers.join(', ')} ("Worker started execution <id>" in each worker's log)`,
	);
	check(
		'both workers took runs',
		workers.includes('worker-1') && workers.includes('worker-2'),
		workers,
	);
	const rows = await tableRows(q.baseUrl, q.key);
	check(
		"the table holds six rows, each the test server's figures",
		same(rows.map(rowFigures), records),
		{ rows: rows.map(rowFigures), records },
	);
	script(26);
	const manual = await offloadedManual(q, wfId);
	const after = await tableRows(q.baseUrl, q.key);
	check(
		'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true: a manual run on a worker shows seven runs, history_saved false, and writes no row',
		manual.onAWorker && historyOf(manual.site).length === 7 && after.length === 6,
		{ ...manual, site: undefined, history: historyOf(manual.site).length, rows: after.length },
	);
}

/** The editor's run of the workflow, offloaded: whether it succeeded on one worker and said it saved nothing. */
async function offloadedManual(q: Queue, wfId: string) {
	const { exec, site } = await manualRun(q.session, q.sb, wfId);
	const by = exec ? q.ranBy(exec.id) : [];
	const saved = site.history_saved;
	return {
		site,
		status: exec?.status,
		by,
		saved,
		onAWorker: exec?.status === 'success' && by.length === 1 && saved === false,
	};
}

/**
 * History Store → This Workflow on the workers: n8n 2.41.1 gives a worker no static data for a new execution (the
 * execution's stored workflow omits it, and the job is enqueued without loadStaticData), so each worker run's
 * history starts anew; README, "Where history lives", says so. Checked, so that the day n8n loads it this check
 * fails and README changes. A manual run offloaded to a worker works there, adds nothing and says so.
 */
async function workflowStoreOnWorkers(q: Queue): Promise<void> {
	const hook = `${HOOK}-static`;
	const wfId = await q.session.save(
		historyWorkflow('e2e: This Workflow (queue)', { hook, n8nApi: q.cred, store: 'workflow' }),
	);
	for (const run of [0, 1]) {
		script(30 + run);
		const site = await production(suite, q.baseUrl, hook, PAGES);
		const figures = siteFigures(api, SITE);
		const by = q.ranBy((await lastExecution(q.sb, wfId))?.id ?? '');
		check(
			`This Workflow, run ${run + 1}: a worker ran it (${by.join('+')}), the history holds this run only, the server's figures (n8n 2.41.1 gives the worker no static data); history_saved`,
			by.length === 1 && same(historyOf(site), [figures]) && site.history_saved === true,
			{ by, history: historyOf(site), figures },
		);
	}
	script(32);
	const manual = await offloadedManual(q, wfId);
	check(
		'This Workflow, a manual run offloaded to a worker: it works there, adds nothing and says so (history_saved false, summary_text)',
		manual.onAWorker &&
			historyOf(manual.site).length === 1 &&
			String(manual.site.summary_text).includes('not saved'),
		manual,
	);
}

const TRIGGER = 'phpRank Trigger';
/** The trigger's item names the page as phpRank stores it, without its scheme (trigger.example.com/a). */
const TRIGGER_URL = '={{ "https://" + $json.url }}';

/** The workflow's static data as n8n stored it (GET /rest/workflows/:id, read from the database). */
async function staticDataOf(q: Queue, id: string): Promise<Record<string, unknown>> {
	const res = await q.session.request<{ data: { staticData?: Record<string, unknown> | null } }>(
		'GET',
		`/rest/workflows/${id}`,
	);
	return res.body?.data?.staticData ?? {};
}

/** Which of the trigger's state keys and the Create node's history the stored static data holds. */
function describeState(data: Record<string, unknown>): string {
	const trigger = data[`node:${TRIGGER}`] as Record<string, unknown> | undefined;
	const audit = JSON.stringify(data['node:Audit'] ?? null);
	return `trigger: ${trigger ? `lastId ${String(trigger.lastId)}` : 'none'}; Audit: ${audit === 'null' ? 'none' : `${audit.length} chars`}`;
}

/**
 * A phpRank Trigger (New Report, polled every 10 s on the main) and Create or Re-Run with This Workflow, in
 * queue mode: each report it finds is re-run by a worker. Observed: the trigger's state and the history.
 */
async function triggerBeside(q: Queue): Promise<void> {
	const wf = workflow(
		'',
		'e2e: trigger and This Workflow (queue)',
		[
			phpRankTrigger(
				TRIGGER,
				{ pollTimes: pollAt([0, 10, 20, 30, 40, 50]), event: 'newReport' },
				PHPRANK_CRED,
			),
			phpRank(
				'Audit',
				{
					resource: 'report',
					operation: 'createOrRerun',
					url: TRIGGER_URL,
					privacy: 1,
					output: 'sites',
					simplify: false,
					historyStore: 'workflow',
				},
				PHPRANK_CRED,
			),
		],
		[[TRIGGER, 'Audit']],
	);
	const id = await q.session.save(wf);
	await sleep(2000);
	const states = [describeState(await staticDataOf(q, id))];
	note(`after publishing (the activation poll on the main): ${states[0]}`);
	const runs: Array<{ report: unknown; by: string; history: number; state: string }> = [];
	const nextRun = async (label: string, count: number) => {
		const execs = await waitForExecutions(q.sb, id, count, 45_000);
		const exec = execs[count - 1];
		const state = describeState(await staticDataOf(q, id));
		const found = json(exec?.outputs[TRIGGER]).map((r) => r.id);
		const error = exec?.data.resultData?.error;
		if (exec?.status !== 'success')
			note(`run ${count}: ${exec?.status} ${error?.message ?? ''} ${error?.description ?? ''}`);
		const run = {
			report: found,
			by: exec ? q.ranBy(exec.id).join('+') : 'none',
			history: historyOf(json(exec?.outputs.Audit)[0] ?? {}).length,
			state,
		};
		runs.push(run);
		note(
			`${label}: run ${count}: reports ${JSON.stringify(found)} by ${run.by}, history ${run.history}; stored: ${state}`,
		);
		return run;
	};
	const a = api.addReport({ url: 'https://trigger.example.com/a' });
	const first = await nextRun(`report ${a.id} made`, 1);
	const b = api.addReport({ url: 'https://trigger.example.com/b' });
	const second = await nextRun(`report ${b.id} made`, 2);
	check(
		"queue mode, This Workflow beside a trigger: each report started one worker run that found only it (the main kept the trigger's state in memory)",
		same(first.report, [a.id]) && same(second.report, [b.id]),
		runs,
	);
	check(
		"after a worker's run the stored static data holds the Create node's history and no trigger state (the worker's save replaced the main's); the history is one run each time",
		[first, second].every((r) => r.state.startsWith('trigger: none') && r.history === 1),
		runs,
	);
	await triggerAfterRestart(q, id, runs);
	note(
		"finding: each worker run saved the workflow's static data as it saw it (the Create node's history of this run only) over the whole column, removing the trigger's state from the database; the trigger went on from the main's memory, so no report was missed or repeated while the main ran; a main started again finds no trigger state, takes a new baseline, and misses the reports made while it was down",
	);
}

/** The main started again reads the trigger's state from the database: what the worker left there. */
async function triggerAfterRestart(
	q: Queue,
	id: string,
	runs: Array<{ state: string }>,
): Promise<void> {
	let c = { id: 0 };
	await q.restartMain(() => {
		c = api.addReport({ url: 'https://trigger.example.com/c' });
	});
	await sleep(12_000);
	const state = describeState(await staticDataOf(q, id));
	const execs = await storedExecutions(q.sb, id);
	note(
		`report ${c.id} made while the main was down, the main started again: ${execs.length - 2} runs since; stored: ${state}`,
	);
	const d = api.addReport({ url: 'https://trigger.example.com/d' });
	const after = await waitForExecutions(q.sb, id, 3, 25_000);
	const found = after.slice(2).map((e) => json(e.outputs[TRIGGER]).map((r) => r.id));
	note(`report ${d.id} made: runs since the restart found ${JSON.stringify(found)}`);
	check(
		`after a restart of the main the trigger had no state (the worker's save had removed it): its first poll took a new baseline and report ${c.id}, made while the main was down, started no run; report ${d.id} did`,
		same(found, [[d.id]]),
		{ found, runs, state },
	);
}

async function queueMode(): Promise<void> {
	const q = await timedSection(
		'queue mode: main + 2 workers, Redis, PostgreSQL, public API on',
		startQueue,
	);
	await timedSection(
		'queue mode: six production runs over both workers; a manual run offloaded',
		() => queueRuns(q),
	);
	await timedSection('queue mode: History Store → This Workflow on the workers', () =>
		workflowStoreOnWorkers(q),
	);
	await timedSection(
		'queue mode: a phpRank Trigger beside Create or Re-Run with This Workflow',
		() => triggerBeside(q),
	);
}

async function main(): Promise<void> {
	const only = process.argv.includes('--only')
		? process.argv[process.argv.indexOf('--only') + 1]
		: '';
	await api.start();
	const one = only === 'queue' ? undefined : await oneMachine();
	await one?.stop();
	if (only !== 'one') await queueMode();
	section('wall time per section');
	for (const [name, s] of TIMES) note(`${s.toFixed(0).padStart(4)} s  ${name}`);
}

suite.run(main);
