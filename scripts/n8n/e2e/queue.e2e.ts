/**
 * `npm run test:e2e:queue`: the package in n8n's queue mode (2.41.1 on Node 24), as a team that outgrew one
 * process runs it: Redis (Debian's redis-server), PostgreSQL 17, one main and two workers, each with its own
 * user folder and the package installed there as README's "Manually with npm" says. All on loopback, on free
 * ports, started and stopped by this script (also when it fails or is interrupted).
 *
 *   - install: one n8n-workflow on every process (n8n's own)
 *   - a webhook-started workflow: the main enqueues, a worker runs it (its log and the process marker say which)
 *   - the examples on their schedules (the main's cron, a worker's run), output and requests checked
 *   - the phpRank Trigger: polls run on the main only; each event starts exactly one execution, on a worker
 *   - a failed Create with a literal password, run on a worker: HTTP code kept, password stored nowhere
 *   - the rate limit across processes: two workers each run 100 Create items at once against one 60/min
 *     phpRank user: every report created once, no item failed; wall time, requests and 429s printed
 *
 * Non-interactive. Prints "<N> passed, <M> failed" last; exit 1 on any failure.
 * Env: N8N_CACHE_DIR, KEEP_SANDBOX=1 (keep the user folders), E2E_QUEUE_ITEMS (items per worker, default 100).
 */
import * as path from 'path';
import { spawnSync } from 'child_process';
import { randomUUID } from 'crypto';

import {
	OTHER_USER_KEY,
	PhpRankServer,
	TEST_API_KEY,
	USER_IDS,
	type RecordedRequest,
} from '../../../test/server';
import {
	apiRequests,
	callWebhook,
	checkFailedCreate,
	describeRequests,
	failedCreateWorkflow,
	json,
	loadExamples,
	seedServer,
	TRIGGER_TYPE,
	type WorkflowJson,
	withSchedule,
} from '../checks';
import { storedExecutions, waitForExecutions, type StoredExecution } from '../db';
import * as outcomes from '../exampleOutcomes';
import { sleep, waitFor } from '../proc';
import { clusterWithPackage, type QueueCluster } from '../queue';
import { Fatal, same } from '../report';
import { setupOwner } from '../rest';
import type { N8nServer } from '../server';
import { Suite } from '../suite';
import { node, phpRank, webhook, workflow } from '../workflow';

const suite = new Suite('e2e-queue', { editor: false });
const { check, section, note, timed, api, report } = suite;

const ITEMS_PER_WORKER = Number(process.env.E2E_QUEUE_ITEMS ?? 100);
const CRED = { id: 'phprank-e2e', name: 'phpRank (test server)' }; // the examples' credential
const OTHER_CRED = { id: 'phprank-q-other', name: 'phpRank (another user)' };
const THROTTLED_CRED = { id: 'phprank-q-60min', name: 'phpRank (60 a minute)' };
const WF = { create: 'phprankQCreate01', failed: 'phprankQFailCr01', throttle: 'phprankQThrottle' };
const HOOK = {
	create: 'phprank-queue-create',
	failed: 'phprank-queue-failed-create',
	throttle: 'phprank-queue-throttle',
};
/**
 * Seconds after publishing (REST, the cluster up) at which the examples' schedules fire once each: after the
 * webhook and failed-Create checks, as when the CLI's import, publish and start came first. The throttle's runs
 * overlap the wait.
 */
const SCHEDULE_AT_S = { digest: 60, creation: 75, housekeeping: 90 };

async function main(): Promise<void> {
	const started = Date.now();
	const throttled = new PhpRankServer(); // phpRank's default: 60 requests a minute per user
	suite.defer(() => throttled.stop());
	suite.defer(() => {
		if (figures) console.log(`\ncross-worker rate limit: ${figures}`);
		console.log(`queue-mode e2e wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});
	section(
		'Redis, PostgreSQL 17 and three n8n homes (main, worker-1, worker-2), the package on each as README says',
	);
	const cluster = await clusterWithPackage(suite, {
		workers: 2,
		mainEnv: { N8N_LOG_LEVEL: 'debug' },
	});
	const [pgVersion] = await cluster.postgres.query<{ server_version: string }>(
		'SHOW server_version',
	);
	note(
		`PostgreSQL ${pgVersion.server_version} on port ${cluster.postgres.port}; ${redisVersion()} on port ${cluster.redis.port}`,
	);
	check(
		'PostgreSQL is 16 or 17 (the versions n8n 2.41 supports)',
		/^1[67]\./.test(pgVersion.server_version),
		pgVersion,
	);

	const sb = cluster.mainSandbox;
	section('queue mode: n8n start (main), then two n8n workers side by side');
	await timed('main + 2 workers ready', () => cluster.start());
	const main = cluster.main!;
	for (const w of cluster.workers)
		check(
			`${w.name} is ready (n8n worker is now ready)`,
			w.logs().includes('n8n worker is now ready'),
			w.logs().slice(-500),
		);
	const loadErrors = [main.logs(), ...cluster.workers.map((w) => w.logs())].filter((l) =>
		/Failed to load package|Unrecognized node type/i.test(l),
	);
	check(
		'every process loaded the package without errors',
		loadErrors.length === 0,
		cluster.logTails(),
	);
	const { scheduled, trigger, pollSeconds } = await importAndPublish(main, throttled);
	suite.up(); // e2e/all.ts: the other suites start now; their n8n boots wait for this one's (the boot lock)
	const slack = (scheduled[0].at.getTime() - Date.now()) / 1000;
	if (
		!check(
			`the cluster was ready before the first schedule (${slack.toFixed(0)} s to spare)`,
			slack > 2,
		)
	)
		throw new Fatal(
			`this machine took too long to start n8n: raise SCHEDULE_AT_S in ${path.basename(__filename)}`,
		);

	// while the schedules are due
	await webhookChecks(cluster, api);
	section('a failed Create with a literal password, run on a worker');
	const failedRuns = await checkFailedCreate(report, {
		sb,
		api,
		webhookUrl: `${main.baseUrl}/webhook/${HOOK.failed}`,
		workflowId: WF.failed,
	});
	for (const e of failedRuns) checkRanOnAWorker(cluster, e, 'failed Create');

	await throttleChecks(cluster, throttled, async () => {
		await scheduleChecks(cluster, api, scheduled);
		await triggerChecks(cluster, api, trigger, pollSeconds);
	});
}

/**
 * The credentials and workflows saved and published by REST on the main (the CLI's import and publish: the ai
 * suite): the examples on schedules that fire once each, the trigger example polling at three fixed seconds a minute.
 */
async function importAndPublish(
	main: N8nServer,
	throttled: PhpRankServer,
): Promise<{ scheduled: Scheduled[]; trigger: WorkflowJson; pollSeconds: number[] }> {
	section('credentials and workflows: saved and published by REST on the main');
	seedServer(api, Date.now());
	await api.start();
	await throttled.start();
	const session = await setupOwner(main);
	await timed('credentials saved (REST)', () =>
		session.addCredentials([
			{ ...CRED, type: 'phpRankApi', data: { baseUrl: api.url, apiKey: TEST_API_KEY } },
			{ ...OTHER_CRED, type: 'phpRankApi', data: { baseUrl: api.url, apiKey: OTHER_USER_KEY } },
			{
				...THROTTLED_CRED,
				type: 'phpRankApi',
				data: { baseUrl: throttled.url, apiKey: TEST_API_KEY },
			},
		]),
	);
	const examples = loadExamples();
	const scheduled = scheduleOnce(examples, Date.now());
	const triggerWf = examples.get(outcomes.ALERT.file);
	if (!triggerWf) throw new Fatal(`examples/${outcomes.ALERT.file} is missing`);
	const pollSeconds = [30, 50, 70].map((s) => (new Date().getUTCSeconds() + s) % 60);
	const { wf: trigger } = outcomes.alertPollingAt(triggerWf, pollSeconds);
	const workflows = [
		createWorkflow(),
		failedCreateWorkflow({ id: WF.failed, webhookPath: HOOK.failed, credential: CRED }),
		throttleWorkflow(),
		...scheduled.map((s) => s.workflow),
		trigger,
	];
	await timed('workflows saved and published (REST)', () => session.publish(...workflows));
	note(
		`schedules fire once at ${scheduled.map((s) => `${s.file} ${s.at.toISOString().slice(11, 19)}`).join(', ')}; the trigger polls at seconds ${pollSeconds.join(', ')} of every minute`,
	);
	return { scheduled, trigger, pollSeconds };
}

function redisVersion(): string {
	const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
	return `Redis ${/v=([\d.]+)/.exec(r.stdout)?.[1] ?? '?'}`;
}

// ---------------------------------------------------------------------------------------------
// test workflows
// ---------------------------------------------------------------------------------------------

/** Webhook (answers with the last node) → phpRank Create of body.url → which process ran it. */
function createWorkflow(): WorkflowJson {
	const ranOn = {
		mode: 'manual',
		includeOtherFields: true,
		assignments: {
			assignments: [
				{
					id: randomUUID(),
					name: 'ran_on',
					value: '={{ $env.PHPRANK_E2E_PROCESS }}',
					type: 'string',
				},
			],
		},
		options: {},
	};
	return workflow(
		WF.create,
		'e2e queue: create from a webhook',
		[
			webhook(HOOK.create, 'lastNode'),
			phpRank('Create report', createParameters('={{ $json.body.url }}'), OTHER_CRED),
			node('Ran on', 'n8n-nodes-base.set', ranOn, { typeVersion: 3.4 }),
		],
		[
			['Webhook', 'Create report'],
			['Create report', 'Ran on'],
		],
	);
}

/** Webhook (answers at once) → one item per URL of body.urls → phpRank Create, all items at once. */
function throttleWorkflow(): WorkflowJson {
	const split = { fieldToSplitOut: 'body.urls', options: { destinationFieldName: 'url' } };
	return workflow(
		WF.throttle,
		'e2e queue: many creates',
		[
			webhook(HOOK.throttle, 'onReceived'),
			node('One item per URL', 'n8n-nodes-base.splitOut', split),
			phpRank('Create report', createParameters('={{ $json.url }}'), THROTTLED_CRED),
		],
		[
			['Webhook', 'One item per URL'],
			['One item per URL', 'Create report'],
		],
	);
}

function createParameters(url: string): Record<string, unknown> {
	return { resource: 'report', operation: 'create', url, privacy: 1, simplify: true };
}

interface Scheduled {
	file: string;
	at: Date;
	workflow: WorkflowJson;
}

/**
 * The three scheduled examples, each with its Schedule Trigger set to fire once, at a fixed UTC time shortly
 * after the cluster is up (a cron with second, minute, hour, day and month), one after the other so that
 * their outputs do not depend on each other's timing. Everything else is the example as shipped.
 */
function scheduleOnce(examples: Map<string, WorkflowJson>, from: number): Scheduled[] {
	const plan: Array<[string, number]> = [
		[outcomes.DIGEST.file, SCHEDULE_AT_S.digest],
		[outcomes.CREATION.file, SCHEDULE_AT_S.creation],
		[outcomes.HOUSEKEEPING.file, SCHEDULE_AT_S.housekeeping],
	];
	return plan.map(([file, afterS]) => {
		const example = examples.get(file);
		if (!example) throw new Fatal(`examples/${file} is missing`);
		const at = new Date(Math.ceil((from + afterS * 1000) / 1000) * 1000);
		const cron = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`;
		return { file, at, workflow: withSchedule(example, file, cron) };
	});
}

// ---------------------------------------------------------------------------------------------
// checks
// ---------------------------------------------------------------------------------------------

/** The worker that ran an execution, by its log; the main only enqueues ("Enqueued execution <id>"). */
function checkRanOnAWorker(
	cluster: QueueCluster,
	exec: StoredExecution,
	label: string,
): string | undefined {
	const ranBy = cluster.ranBy(exec.id);
	check(
		`${label}: execution ${exec.id} was enqueued by the main and run by exactly one worker (${ranBy.join(', ') || 'none'})`,
		ranBy.length === 1 &&
			new RegExp(`Enqueued execution ${exec.id} \\(job`).test(cluster.main?.logs() ?? ''),
		ranBy,
	);
	return ranBy[0];
}

async function webhookChecks(cluster: QueueCluster, api: PhpRankServer): Promise<void> {
	section('a webhook-started workflow: the main answers, a worker runs it');
	const main = cluster.main!;
	const urls = ['a', 'b', 'c', 'd'].map((page) => `https://queue.example.com/${page}`);
	const answers: Array<Record<string, unknown>> = [];
	for (const url of urls) {
		const res = await callWebhook(`${main.baseUrl}/webhook/${HOOK.create}`, { url });
		// not an object (an error page): reported below
		const body = JSON.parse(/^\s*\{/.test(res.body) ? res.body : '{}') as Record<string, unknown>;
		answers.push(body);
		check(
			`POST /webhook/${HOOK.create} {url: ${url}} → 200 with the created report`,
			res.status === 200 && body.url === url.replace('https://', '') && typeof body.id === 'number',
			res,
		);
	}
	const stored = await waitForExecutions(cluster.mainSandbox, WF.create, urls.length);
	check(
		`${urls.length} executions stored, mode webhook, status success`,
		stored.length === urls.length &&
			stored.every((e) => e.mode === 'webhook' && e.status === 'success'),
		stored.map((e) => [e.id, e.mode, e.status]),
	);
	for (const [i, exec] of stored.entries()) {
		const worker = checkRanOnAWorker(cluster, exec, `webhook call ${i + 1}`);
		const ranOn = json(exec.outputs['Ran on'])[0]?.ran_on;
		check(
			`webhook call ${i + 1}: the workflow itself saw $env of ${worker} (ran_on = ${String(ranOn)})`,
			worker !== undefined && ranOn === worker && answers[i]?.ran_on === worker,
			{ ranOn, answer: answers[i]?.ran_on },
		);
	}
	note(
		`executions per worker: ${cluster.workers.map((w) => `${w.name} ${stored.filter((e) => cluster.ranBy(e.id)[0] === w.name).length}`).join(', ')}`,
	);
	const key = `Bearer ${OTHER_USER_KEY}`;
	const posts = apiRequests(api).filter((r) => r.headers.authorization === key);
	const sent = posts.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.form)} ${key}`);
	const form = (url: string) => JSON.stringify({ url, privacy: '1' });
	check(
		`the server got exactly ${urls.length} POST /api/v1/reports with the other user's key, url=<each URL>&privacy=1`,
		same(sent.sort(), urls.map((url) => `POST /api/v1/reports ${form(url)} ${key}`).sort()),
		describeRequests(posts),
	);
	const theirs = api.listReports(USER_IDS.other).map((r) => r.url);
	check(
		"the reports were created for the other user, not the examples' user",
		same(
			theirs.filter((u) => u.startsWith('queue.')).sort(),
			urls.map((u) => u.replace('https://', '')).sort(),
		),
	);
}

async function scheduleChecks(
	cluster: QueueCluster,
	api: PhpRankServer,
	scheduled: Scheduled[],
): Promise<void> {
	section("the examples on their schedules: the main's cron, a worker's run");
	const sb = cluster.mainSandbox;
	const last = scheduled[scheduled.length - 1];
	const remaining = Math.max(0, last.at.getTime() - Date.now());
	note(`waiting ${(remaining / 1000).toFixed(0)} s for the last schedule (${last.file})`);
	const byFile = new Map<string, StoredExecution | undefined>();
	await timed('wait for the scheduled examples', async () => {
		for (const s of scheduled) {
			const [exec] = await waitForExecutions(
				sb,
				s.workflow.id,
				1,
				Math.max(0, s.at.getTime() - Date.now()) + 60_000,
			);
			byFile.set(s.file, exec);
		}
	});
	for (const s of scheduled) {
		const exec = byFile.get(s.file);
		if (
			!check(
				`${s.file}: ran once on its schedule (mode trigger, status success)`,
				exec?.mode === 'trigger' && exec.status === 'success',
				exec && {
					id: exec.id,
					mode: exec.mode,
					status: exec.status,
					error: exec.data.resultData?.error,
				},
			)
		)
			continue;
		checkRanOnAWorker(cluster, exec!, s.file);
		const runs = (await storedExecutions(sb, s.workflow.id)).map((e) => e.id);
		check(`${s.file}: no second run`, runs.length === 1, runs);
		outcomeChecks(api)[s.file](exec!);
	}
}

/**
 * What each example that ran on its schedule put out, and what the server received (exampleOutcomes.ts): the
 * digest's read of the bad reports, the creation's POSTs with the examples' key and no password (the failed
 * Create's have one); every DELETE, and every other request during the housekeeping's run.
 */
function outcomeChecks(api: PhpRankServer): Record<string, (exec: StoredExecution) => void> {
	const requests = apiRequests(api);
	const during = (e: StoredExecution) =>
		requests.filter(
			(r) =>
				r.method === 'DELETE' ||
				(r.receivedAt >= (e.startedAt?.getTime() ?? 0) &&
					r.receivedAt <= (e.stoppedAt?.getTime() ?? Date.now())),
		);
	// reports 1-4 deleted, 5-8 kept beside the ones created since (IDs above the seed's 10)
	const since = (user: number) =>
		api
			.listReports(user)
			.map((r) => r.id)
			.filter((id) => id > 10);
	const kept = () => ({
		mine: [5, 6, 7, 8, ...since(USER_IDS.default)],
		others: [9, 10, ...since(USER_IDS.other)],
	});
	return {
		[outcomes.DIGEST.file]: (e) =>
			outcomes.checkDigest(
				check,
				e.outputs,
				requests.filter((r) => r.method === 'GET' && r.query.result === 'bad'),
			),
		[outcomes.CREATION.file]: (e) =>
			outcomes.checkCreation(
				check,
				e.outputs,
				requests.filter(
					(r) =>
						r.method === 'POST' &&
						r.headers.authorization === `Bearer ${TEST_API_KEY}` &&
						r.form.password === undefined,
				),
			),
		[outcomes.HOUSEKEEPING.file]: (e) =>
			outcomes.checkHousekeeping(check, api, e.outputs, during(e), kept()),
	};
}

/** The trigger's scan of every report (Report Result Changed): newest first by ID, no filter (housekeeping reads oldest first). */
const isPoll = (r: RecordedRequest): boolean =>
	r.method === 'GET' &&
	r.path === '/api/v1/reports' &&
	r.query.sort_by === 'id' &&
	r.query.sort === 'desc' &&
	r.query.result === undefined;
const pollLine = (name: string): RegExp =>
	new RegExp(
		`Poll trigger initiated for workflow "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`,
		'g',
	);

async function triggerChecks(
	cluster: QueueCluster,
	api: PhpRankServer,
	wf: WorkflowJson,
	pollSeconds: number[],
): Promise<void> {
	section('phpRank Trigger: polls on the main only, each event runs once, on a worker');
	const sb = cluster.mainSandbox;
	const triggerName = wf.nodes.find((n) => n.type === TRIGGER_TYPE)!.name;
	const polls = () => api.requests.filter(isPoll).length;
	const waitPoll = async (after: number, label: string): Promise<boolean> =>
		await timed(label, async () => {
			const polled = await waitFor(() => polls() > after || undefined, 75_000, 200);
			await sleep(1500); // let the poll's execution be enqueued
			return Boolean(polled);
		});
	check(
		'the main polled at activation and on its schedule',
		polls() >= 1,
		describeRequests(apiRequests(api).filter(isPoll)),
	);
	await outcomes.changeReports(api, outcomes.ALERT.first);
	check(
		`a scheduled poll (seconds ${pollSeconds.join(', ')}) after the drop of report 6`,
		await waitPoll(polls(), 'wait for a scheduled poll'),
	);
	let runs = await waitForExecutions(sb, wf.id, 1, 30_000);
	await outcomes.changeReports(api, outcomes.ALERT.then);
	check(
		'another scheduled poll after the drop of report 7 and the rise of report 8',
		await waitPoll(polls(), 'wait for the next scheduled poll'),
	);
	runs = await waitForExecutions(sb, wf.id, 2, 30_000);
	await sleep(3000); // a late duplicate would show up here
	runs = await storedExecutions(sb, wf.id);
	const events = runs.map((e) => json(e.outputs[triggerName]).map((i) => i.id));
	check(
		'exactly two executions: [6] then [7] (each event once; no rise, no replay)',
		same(events, outcomes.ALERT.events),
		runs.map((e) => ({
			id: e.id,
			mode: e.mode,
			status: e.status,
			events: json(e.outputs[triggerName]).map((i) => i.id),
		})),
	);
	for (const e of runs) {
		check(
			`execution ${e.id}: mode trigger, success`,
			e.mode === 'trigger' && e.status === 'success',
			[e.mode, e.status],
		);
		checkRanOnAWorker(cluster, e, `trigger event ${events[runs.indexOf(e)]}`);
	}
	outcomes.checkSecondAlert(check, runs[1], triggerName);
	const onMain = (cluster.main?.logs().match(pollLine(wf.name)) ?? []).length;
	const onWorkers = cluster.workers.map((w) => (w.logs().match(pollLine(wf.name)) ?? []).length);
	check(
		`every poll ran on the main: ${onMain} polls in its log, ${polls()} scans on the wire`,
		onMain >= 1 && onMain === polls(),
		{ onMain, scans: polls() },
	);
	check('no worker ever polled', !onWorkers.some(Boolean), onWorkers);
}

/** `meanwhile` runs while the Creates pace themselves (their own phpRank server); then their checks. */
async function throttleChecks(
	cluster: QueueCluster,
	throttled: PhpRankServer,
	meanwhile: () => Promise<void>,
): Promise<void> {
	const total = ITEMS_PER_WORKER * 2;
	const batches = ['a', 'b'].map((b) =>
		Array.from(
			{ length: ITEMS_PER_WORKER },
			(_, i) => `https://load-${b}.example.com/page-${i + 1}`,
		),
	);
	throttled.clearRequests();
	const t0 = Date.now();
	const hook = `${cluster.main!.baseUrl}/webhook/${HOOK.throttle}`;
	const calls = await Promise.all(batches.map((urls) => callWebhook(hook, { urls })));
	await meanwhile();
	section(
		`the rate limit across processes: 2 workers × ${ITEMS_PER_WORKER} Create items at once, one phpRank user at 60/min`,
	);
	check(
		'both webhook calls accepted',
		calls.every((c) => c.status === 200),
		calls,
	);
	const runs = await timed('both runs finished', () =>
		waitForExecutions(cluster.mainSandbox, WF.throttle, 2, 15 * 60_000),
	);
	const wall = (Math.max(...runs.map((e) => e.stoppedAt?.getTime() ?? Date.now())) - t0) / 1000;
	const workers = runs.map((e) => cluster.ranBy(e.id)[0]);
	check(
		'the two runs ran on different workers',
		runs.length === 2 && new Set(workers).size === 2 && workers.every(Boolean),
		workers,
	);
	const [a, b] = runs.map((e) => [e.startedAt?.getTime() ?? NaN, e.stoppedAt?.getTime() ?? NaN]);
	check(
		'…at the same time (their start-stop intervals overlap)',
		a && b && a[0] < b[1] && b[0] < a[1],
		runs.map((e) => [e.startedAt, e.stoppedAt]),
	);
	for (const e of runs) {
		const items = e.outputs['Create report'] ?? [];
		check(
			`execution ${e.id} (${cluster.ranBy(e.id)[0]}): success, ${ITEMS_PER_WORKER} items, none failed`,
			e.status === 'success' &&
				items.length === ITEMS_PER_WORKER &&
				items.every((i) => !i.error && typeof i.json.id === 'number'),
			{
				status: e.status,
				items: items.length,
				error: e.data.resultData?.error?.message,
			},
		);
	}
	const reports = throttled.listReports(USER_IDS.default);
	const wanted = batches.flat().map((u) => u.replace('https://', ''));
	const counts = new Map<string, number>();
	for (const r of reports) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
	const missing = wanted.filter((u) => !counts.has(u));
	const twice = [...counts].filter(([, n]) => n > 1).map(([u]) => u);
	check(
		`every one of the ${total} reports created exactly once`,
		reports.length === total && missing.length === 0 && twice.length === 0,
		{ stored: reports.length, missing: missing.slice(0, 5), twice: twice.slice(0, 5) },
	);
	const posts = throttled.requests.filter((r) => r.method === 'POST').length;
	const floor = Math.max(0, Math.ceil(total / 60) - 1) * 60;
	figures = `${total} creates by ${workers.join(' + ')}: wall ${wall.toFixed(1)} s (from the webhook calls to the last stored run) vs a ${floor} s floor (60 a minute, the first 60 at once); ${posts} POSTs, ${posts - total} of them answered 429 (a 429 creates nothing)`;
	note(`figures: ${figures}`);
}

/** The cross-worker run's figures, printed again at the end. */
let figures: string | undefined;

suite.run(main);
