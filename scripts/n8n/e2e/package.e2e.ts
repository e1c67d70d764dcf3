/**
 * `npm run test:e2e`: the package proven inside a REAL n8n (2.41.1 on Node 24, or N8N_VERSION=<x.y.z>: CI also
 * runs it on 2.0.0, the oldest 2.x), the way users run it.
 *
 *   build (npm run build) -> npm pack -> `npm install <tarball>` in a fresh sandbox's ~/.n8n/nodes, as README's
 *      "Manually with npm" says (one n8n-workflow: n8n's own) -> n8n's own loader (export:nodes) -> n8n CLI import of a credential + every examples/*.json
 *   -> `n8n execute` of the examples against the bundled phpRank test server (in-process), checking
 *      both what came out and what the server received
 *   -> `n8n execute` of ten Return All runs over 1,000 reports while the newest is deleted before each page
 *      request after the first: every survivor once (issue 38, pagingUnderDeletes.ts)
 *   -> `n8n start`: owner setup, node/credential types + icons as the editor loads them, the credential
 *      test through the app's own endpoint, History Store → Data Table through this n8n's own public API
 *      (turned on for this start; on 2.0.0, which has no data-table API, the node's plain error before any phpRank
 *      request: historyTableApi.ts), a webhook-started Create with a literal password that phpRank
 *      fails (stored error: HTTP code kept, password nowhere), the trigger example run like the editor's
 *      "Execute workflow";
 *   -> the trigger example published with the CLI and n8n restarted: its polls as in production;
 *   -> a published trigger whose poll meets a rate limit that outlasts the poll's time budget: the poll ends
 *      within half its budget with a rate-limit error, and a poll after the limit is lifted works.
 * Queue mode (main + workers, Redis, Postgres) is queue.e2e.ts.
 *
 * Non-interactive (CI=true, no stdin). Cold machine: installs n8n into the cache first (~3.5 min, see
 * scripts/n8n/install.sh). Prints a summary and a last line "<N> passed, <M> failed"; exit 1 on any failure.
 *
 * Env: N8N_VERSION (the n8n to test, default 2.41.1; each version in its own cache folder, see install.sh),
 *      N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1 (keep the temp n8n folder for debugging),
 *      E2E_SKIP_ACTIVATION=1 (skip the ~2-3 min of published triggers' scheduled polls),
 *      E2E_DURABLE_CURSORS=1 (n8n with its durable scheduler and poll cursors, which commit no state
 *      of the activation poll: the trigger checks then prove it still fires from the first poll on).
 */
import * as fs from 'fs';
import * as path from 'path';

import {
	NO_API_PLAN_KEY,
	OTHER_USER_KEY,
	PhpRankServer,
	TEST_API_KEY,
	USER_IDS,
	type RecordedRequest,
} from '../../../test/server';
import { PhpRank } from '../../../nodes/PhpRank/PhpRank.node';
import { PhpRankTrigger } from '../../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import {
	apiRequests,
	checkFailedCreate,
	CRED_ID,
	CRED_NAME,
	describeRequests,
	failedCreateWorkflow,
	json,
	loadExamples,
	NODE_TYPE,
	PACKAGE,
	seedServer,
	testServerCredential,
	TRIGGER_TYPE,
	type SandboxWithPackage,
	type WorkflowJson,
} from '../checks';
import {
	DEFAULT_N8N_VERSION,
	executeWorkflow,
	exitNote,
	failureDetail,
	getFreePort,
	importCredentials,
	importWorkflows,
	listWorkflowIds,
	n8nOlderThan,
	publishWorkflows,
	runFromTrigger,
	setupOwner,
	startServer,
	storedExecutions,
	unpublishWorkflow,
	waitForExecutions,
	wantedN8nVersion,
	type N8nSandbox,
	type ExecuteResult,
	type N8nServer,
	type RestSession,
	type StoredExecution,
} from '../n8n';
import * as outcomes from '../exampleOutcomes';
import { PUBLIC_API_ON } from '../apiKey';
import { historyTableOnThisN8n } from '../historyTableApi';
import { shrinkingLists } from '../pagingUnderDeletes';
import { sleep, waitFor } from '../proc';
import { Fatal, same } from '../report';
import { Suite } from '../suite';
import { phpRankTrigger, pollAt, workflow } from '../workflow';

const WRONG_CRED_ID = 'phprank-e2e-wrong';
const WRONG_KEY = 'x'.repeat(64);
/** n8n 2.41's durable scheduler running the polls (PollJobProvider: all three, else polls stay in memory). */
const DURABLE_POLLS_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
/** What n8n 2.41 needs for durable poll cursors (PollCursorService warns when one is missing). */
const DURABLE_CURSORS_ENV = { ...DURABLE_POLLS_ENV, N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true' };
const FAILED_CREATE_ID = 'phprankE2eFailCr';
const FAILED_CREATE_PATH = 'phprank-e2e-failed-create';
const ACTIVATED_TRIGGER_ID = 'phprankE2eAlertP';
const RATE_LIMITED_ID = 'phprankE2eRateLm';
/** The other test user's key: its own rate-limit budget in the node and in the test server. */
const OTHER_CRED = { id: 'phprank-e2e-other', name: 'phpRank (other user)' };
/**
 * What phpRank's 429s ask for while the limit holds. The node keeps a Retry-After (at most 120 s) for every
 * later request of the key, so the poll after the one that met the 429 (30 s later) starts with 35 s of it
 * left: more than a poll may wait on either n8n (half its budget: 30 s on 2.0, 18 s on 2.41 below). That
 * poll must end at once; before the fix, n8n 2.0's waited it out. The poll after it (5 s left) waits and
 * works. 600 s would make the node hold the key for its 120 s cap: a minute more before a poll can work.
 */
const RATE_LIMIT_RETRY_AFTER_S = 65;
/** The trigger polls twice a minute: every poll (at most half its budget, 30 s) ends before the next begins. */
const POLL_EVERY_S = 30;
/** n8n 2.41's poll time budget is set only where its durable scheduler runs the poll; these are its defaults, pinned. */
const POLL_TIMEOUT_S = 45;
const SCHEDULER_LEASE_S = 60;
/** The node's rate-limit error, as a poll that gave up reports it. */
const RATE_LIMIT_ERROR =
	/^phpRank is rate limiting requests .*\(HTTP 429 from 127\.0\.0\.1:\d+\): it asks to wait \d+ s$/;
/** The n8n the e2e checks fully (install.sh's default, the newest that installs); older ones skip what they lack. */
const [DEFAULT_MAJOR, DEFAULT_MINOR] = DEFAULT_N8N_VERSION.split('.').map(Number);
/**
 * Examples that need a newer n8n than the oldest the e2e runs on: on an older n8n that lacks exactly these node
 * versions the check is skipped, with the reason printed (the newest n8n checks them, and the AI e2e runs them).
 */
const NEEDS_NEWER_N8N: Record<string, { types: string[]; why: string }> = {
	'seo-assistant-mcp.json': {
		types: ['@n8n/n8n-nodes-langchain.mcpTrigger@2.1'],
		why: 'the MCP example uses MCP Server Trigger 2.1, which this n8n does not have (n8n 2.0.0 has 1, 1.1 and 2)',
	},
};

/**
 * What the app shows for the credential test, written out here: the harness checks the built package against
 * its own copy of the texts README promises, not against the product's source.
 */
const EXAMPLE_URL = 'Use the address you open phpRank with, e.g. https://seo.example.com.';
const MSG_CRED_401 =
	'The API key was rejected (HTTP 401). Copy it again from the API page of your phpRank account.';
const MSG_CRED_403 =
	'The API key is valid, but your phpRank plan has no API access (HTTP 403). Enable the API feature for your plan in phpRank.';
const MSG_CRED_404 = `No phpRank API at this Base URL (HTTP 404). ${EXAMPLE_URL}`;
const MSG_CRED_NO_SCHEME =
	'The Base URL must start with https:// (or http://), e.g. https://seo.example.com. Enter the address you open phpRank with in the browser.';
/** A poll's time budget where n8n gives none (2.0): one minute (NOTES.md, "A poll's time budget"). */
const FALLBACK_POLL_BUDGET_MS = 60_000;
/** What a workflow run shows for a wrong key. */
const MSG_NODE_401 = 'The phpRank API key was rejected (HTTP 401)';

const suite = new Suite('e2e');
const { check, section, note, timed, api } = suite;

// ------------------------------------------------------------------ the test

/** What the sections share: the sandbox with the package installed, and the examples by file name. */
interface PackageCtx {
	sb: N8nSandbox;
	example: (file: string) => WorkflowJson;
	/** every node type this n8n loads */
	allNodes: SandboxWithPackage['allNodes'];
}

/** The n8n started for the app's checks, and how it was started (the production checks start it again so). */
interface AppStart {
	n8n: N8nServer;
	session: RestSession;
	serverEnv: Record<string, string>;
	firstStartS: number;
}

async function main(): Promise<void> {
	const examples = loadExamples();
	const example = (file: string): WorkflowJson => {
		const wf = examples.get(file);
		if (!wf) throw new Fatal(`examples/${file} is missing`);
		return wf;
	};
	const installed = await suite.packageSandbox();
	checkInstalledPackage(installed);
	const ctx: PackageCtx = { sb: installed.sb, example, allNodes: installed.allNodes };
	const imported = await importCredentialAndExamples(ctx, examples);
	await checkExamples(ctx, imported.wrongKeyDigest);
	await imported.shrinking.check(ctx.sb);
	const app = await startAppAndCheckTypes(ctx);
	await checkCredentialTest(app.session);
	const { sb } = ctx;
	const { n8n, session } = app;
	await historyTableOnThisN8n(suite, { sb, n8n, session, api, phpRank: OTHER_CRED });

	section('a failed Create with a literal password, started by a webhook (production execution)');
	await checkFailedCreate(suite.report, {
		sb,
		api,
		webhookUrl: `${n8n.baseUrl}/webhook/${FAILED_CREATE_PATH}`,
		workflowId: FAILED_CREATE_ID,
	});

	// ------------------------------------------------------------------ trigger
	const alertWf = example(outcomes.ALERT.file);
	const triggerName = alertWf.nodes.find((n) => n.type === TRIGGER_TYPE)?.name ?? 'phpRank Trigger';
	await triggerManualChecks(session, sb, api, alertWf, triggerName);
	await publishedTriggerChecks(ctx, app, alertWf, triggerName);
}

// ------------------------------------------------------------------ n8n runtime + install
/** The package as n8n's own loader sees it: both node types, their credentials and icons. */
function checkInstalledPackage({ runtime, installedDir, allNodes }: SandboxWithPackage): void {
	check(
		`the n8n under test is ${wantedN8nVersion()} (N8N_VERSION, default ${DEFAULT_N8N_VERSION})`,
		runtime.n8nVersion === wantedN8nVersion(),
		runtime,
	);
	const nodes = allNodes.filter((n) => n.name.startsWith(`${PACKAGE}.`));
	const names = nodes.map((n) => n.name);
	note(`loaded node types: ${names.join(', ')}`);
	const action = nodes.find((n) => n.name === NODE_TYPE);
	const trigger = nodes.find((n) => n.name === TRIGGER_TYPE);
	check('export:nodes lists phpRank', action);
	check('export:nodes lists phpRankTrigger', trigger);
	// the lists test/unit/description.test.ts and test/trigger/description.test.ts hold to the package's credentials
	for (const [node, own] of [
		[action, new PhpRank().description],
		[trigger, new PhpRankTrigger().description],
	] as const)
		check(
			`${own.name} loads with its own credential list, each field with its label in the editor: ${own.credentials?.map((c) => c.name).join(', ')}`,
			same(node?.credentials, own.credentials),
			node?.credentials,
		);
	check(
		'phpRankTrigger is a polling trigger',
		trigger && trigger.polling === true && (trigger.group as string[]).includes('trigger'),
		{
			polling: trigger?.polling,
			group: trigger?.group,
		},
	);
	for (const n of nodes.filter((x) => x.name === NODE_TYPE || x.name === TRIGGER_TYPE)) {
		const icons = iconFiles(n);
		check(`${n.name} has light and dark icons`, icons.length === 2, {
			icon: n.icon,
			iconUrl: n.iconUrl,
		});
		for (const rel of icons)
			check(
				`${n.name} icon ${rel} is in the installed package`,
				fs.existsSync(path.join(installedDir, rel)),
			);
	}
}

// ------------------------------------------------------------------ test server + imports
/** The test server seeded and started; the credentials, every example and the suite's own workflows imported. */
async function importCredentialAndExamples(
	{ sb, example, allNodes }: PackageCtx,
	examples: Map<string, WorkflowJson>,
): Promise<{
	shrinking: Awaited<ReturnType<typeof shrinkingLists>>;
	wrongKeyDigest: WorkflowJson;
}> {
	section('import credential and examples with the n8n CLI');
	const { runtime } = sb;
	const now = Date.now();
	seedServer(api, now);
	await api.start();
	note(`phpRank test server: ${api.url}`);
	const shrinking = await shrinkingLists(suite);
	await timed('n8n import:credentials', () =>
		importCredentials(sb, [
			testServerCredential(api),
			{
				id: WRONG_CRED_ID,
				name: 'phpRank (wrong key)',
				type: 'phpRankApi',
				data: { baseUrl: api.url, apiKey: WRONG_KEY },
			},
			{ ...OTHER_CRED, type: 'phpRankApi', data: { baseUrl: api.url, apiKey: OTHER_USER_KEY } },
			...shrinking.credentials,
		]),
	);
	check(`${examples.size} example workflows found in examples/`, examples.size >= 4, [
		...examples.keys(),
	]);
	for (const [file, wf] of examples) {
		const creds = wf.nodes
			.filter((n) => n.type.startsWith(`${PACKAGE}.`))
			.map((n) => n.credentials?.phpRankApi?.id);
		check(
			`${file}: every phpRank node uses credential "${CRED_ID}"`,
			creds.length > 0 && creds.every((id) => id === CRED_ID),
			creds,
		);
		const unknown = wf.nodes
			.filter(
				(n) =>
					!allNodes.some((t) => t.name === n.type && [t.version].flat().includes(n.typeVersion)),
			)
			.map((n) => `${n.type}@${n.typeVersion}`);
		const newer = NEEDS_NEWER_N8N[file];
		if (
			unknown.length &&
			newer &&
			n8nOlderThan(runtime, DEFAULT_MAJOR, DEFAULT_MINOR) &&
			same([...unknown].sort(), [...newer.types].sort())
		) {
			note(
				`SKIPPED on n8n ${runtime.n8nVersion}: "${file}: only node types and versions that this n8n has": ${newer.why}`,
			);
			continue;
		}
		check(`${file}: only node types and versions that this n8n has`, unknown.length === 0, unknown);
	}
	// The digest once more, with the wrong key: what a user sees when the key is wrong.
	const wrongKeyDigest: WorkflowJson = JSON.parse(
		JSON.stringify(example(outcomes.DIGEST.file)).replaceAll(`"${CRED_ID}"`, `"${WRONG_CRED_ID}"`),
	) as WorkflowJson;
	wrongKeyDigest.id = 'phprankE2eWrongK';
	wrongKeyDigest.name = 'e2e: digest with a wrong key';
	const failedCreate = failedCreateWorkflow({
		id: FAILED_CREATE_ID,
		webhookPath: FAILED_CREATE_PATH,
		credential: { id: CRED_ID, name: CRED_NAME },
	});
	await timed('n8n import:workflow', () =>
		importWorkflows(sb, [...examples.values(), wrongKeyDigest, failedCreate, shrinking.workflow]),
	);
	check('import:workflow accepted every example', true);
	await timed('n8n publish:workflow', () => publishWorkflows(sb, [FAILED_CREATE_ID]));
	return { shrinking, wrongKeyDigest };
}

// ------------------------------------------------------------------ the examples, n8n execute
/** `n8n execute` of a workflow, the server's requests cleared first: its outputs if it succeeded as it should, its requests. */
async function execute(
	sb: N8nSandbox,
	wf: WorkflowJson,
	label: string,
	shouldSucceed = true,
): Promise<{ res: ExecuteResult; out?: ExecuteResult['outputs']; reqs: RecordedRequest[] }> {
	api.clearRequests();
	const res = await timed(`n8n execute ${label}`, () => executeWorkflow(sb, wf.id));
	const died = exitNote(res);
	if (died) note(died);
	const ok = shouldSucceed && check('execution succeeds', res.ok, failureDetail(res));
	return { res, out: ok ? res.outputs : undefined, reqs: apiRequests(api) };
}

/** The digest, the digest with a wrong key, the creation and the housekeeping examples (exampleOutcomes.ts). */
async function checkExamples(
	{ sb, example }: PackageCtx,
	wrongKeyDigest: WorkflowJson,
): Promise<void> {
	section('example: weekly digest of bad reports (n8n execute)');
	const digest = await execute(sb, example(outcomes.DIGEST.file), 'digest');
	outcomes.checkDigest(check, digest.out, digest.reqs);

	section('a wrong API key in a workflow (n8n execute)');
	const { res: bad, reqs: badReqs } = await execute(sb, wrongKeyDigest, 'with wrong key', false);
	check(
		'execution fails (exit code 1, status error)',
		!bad.ok && bad.code === 1 && bad.run?.status === 'error',
		{ code: bad.code, status: bad.run?.status },
	);
	check(`error shown: "${MSG_NODE_401}"`, bad.errorMessage === MSG_NODE_401, bad.errorMessage);
	check(
		'only GET /api/v1/reports was sent (no writes)',
		badReqs.length >= 1 && badReqs.every((r) => r.method === 'GET' && r.path === '/api/v1/reports'),
		describeRequests(badReqs),
	);
	note(
		`requests sent for the 401: ${badReqs.length} (n8n-core retries a 401 once after preAuthentication)`,
	);

	section('example: scheduled report creation (n8n execute)');
	const ids = (user: number) => api.listReports(user).map((r) => r.id);
	const before = ids(USER_IDS.default);
	const creation = await execute(sb, example(outcomes.CREATION.file), 'creation');
	const created = api.listReports(USER_IDS.default).filter((r) => !before.includes(r.id));
	outcomes.checkCreation(check, creation.out, creation.reqs, created);

	section('example: delete reports older than 90 days (n8n execute)');
	const kept = { mine: ids(USER_IDS.default).filter((id) => id > 4), others: [9, 10] };
	const cleanup = await execute(sb, example(outcomes.HOUSEKEEPING.file), 'housekeeping');
	outcomes.checkHousekeeping(check, api, cleanup.out, cleanup.reqs, kept);
}
// ------------------------------------------------------------------ the app
/** `n8n start`, the owner, and the node and credential types (and icons) as the editor loads them. */
async function startAppAndCheckTypes({ sb }: PackageCtx): Promise<AppStart> {
	section('n8n start: owner, node and credential types, icons');
	const serverEnv = process.env.E2E_DURABLE_CURSORS ? DURABLE_CURSORS_ENV : {};
	const firstStart = Date.now();
	const n8n = await timed('n8n start until ready', async () =>
		suite.n8n(await startServer(sb, { env: { ...serverEnv, ...PUBLIC_API_ON } })),
	);
	const firstStartS = (Date.now() - firstStart) / 1000;
	const session = await setupOwner(n8n);
	check('owner set up through POST /rest/owner/setup', session.cookie.startsWith('n8n-auth='));
	/** The editor's list of node or credential types, and the status it was answered with. */
	const types = async (file: string) => {
		const res = await session.request<Array<Record<string, unknown>>>('GET', `/types/${file}`);
		return { status: res.status, list: Array.isArray(res.body) ? res.body : [] };
	};
	const ours = (await types('nodes.json')).list.filter((n) =>
		String(n.name).startsWith(`${PACKAGE}.`),
	);
	check(
		"the editor's node list (/types/nodes.json) has phpRank and phpRankTrigger",
		[NODE_TYPE, TRIGGER_TYPE].every((t) => ours.some((n) => n.name === t)),
		ours.map((n) => n.name),
	);
	const credTypes = await types('credentials.json');
	const credType = credTypes.list.find((c) => c.name === 'phpRankApi');
	check(
		'credential type phpRankApi is loaded (/types/credentials.json)',
		credType,
		credTypes.status,
	);
	const iconUrls = new Set<string>();
	for (const n of ours.filter((x) => x.name === NODE_TYPE || x.name === TRIGGER_TYPE))
		for (const u of iconUrlsOf(n)) iconUrls.add(u);
	const credIcons = credType ? iconUrlsOf(credType) : [];
	check('credential type has light and dark icons', credIcons.length === 2, {
		icon: credType?.icon,
		iconUrl: credType?.iconUrl,
	});
	for (const u of credIcons) iconUrls.add(u);
	for (const u of [...iconUrls].map((url) => url.replace(/^\//, ''))) {
		const res = await fetch(`${n8n.baseUrl}/${u}`);
		const body = await res.text();
		check(
			`icon served: /${u}`,
			res.status === 200 &&
				/svg/.test(res.headers.get('content-type') ?? '') &&
				body.includes('<svg'),
			`${res.status} ${res.headers.get('content-type')}`,
		);
	}
	return { n8n, session, serverEnv, firstStartS };
}

/** The credential test through the app's own endpoint: every answer a sentence README promises. */
async function checkCredentialTest(session: RestSession): Promise<void> {
	section('credential test through the app (POST /rest/credentials/test)');
	api.clearRequests();
	const ok = await session.testCredential({ id: CRED_ID });
	check(
		'right key -> OK "Connection successful!"',
		same(ok, { status: 'OK', message: 'Connection successful!' }),
		ok,
	);
	const okReqs = apiRequests(api);
	check(
		'the test sent one GET /api/v1/projects?per_page=10 with Bearer key and Accept: application/json',
		describeRequests(okReqs) === 'GET /api/v1/projects?per_page=10' &&
			okReqs[0].headers.authorization === `Bearer ${TEST_API_KEY}` &&
			okReqs[0].headers.accept === 'application/json',
		describeRequests(okReqs) + ' ' + JSON.stringify(okReqs[0]?.headers),
	);
	note(`headers of the app's test request: ${JSON.stringify(okReqs[0]?.headers)}`);
	const errors: Array<[string, string | Record<string, unknown>, string]> = [
		[`wrong key -> Error "${MSG_CRED_401}"`, { apiKey: WRONG_KEY }, MSG_CRED_401],
		['stored credential with a wrong key -> the same Error', WRONG_CRED_ID, MSG_CRED_401],
		['key of a plan without API access -> 403 message', { apiKey: NO_API_PLAN_KEY }, MSG_CRED_403],
		[
			'Base URL without a phpRank API -> 404 message',
			{ baseUrl: `${api.url}/not-phprank` },
			MSG_CRED_404,
		],
	];
	for (const [label, cred, message] of errors) {
		const r = await session.testCredential(
			typeof cred === 'string' ? { id: cred } : { id: CRED_ID, dataOverride: cred },
		);
		check(label, same(r, { status: 'Error', message }), r);
	}
	for (const shape of [`${api.url}/`, `${api.url}/api/v1`, `${api.url}/api/v1/`]) {
		const r = await session.testCredential({ id: CRED_ID, dataOverride: { baseUrl: shape } });
		check(`Base URL "${shape.replace(api.url, '<server>')}" -> OK`, r.status === 'OK', r);
	}
	// Where n8n's declarative test showed a bare code (ECONNREFUSED, ENOTFOUND, ERR_INVALID_URL).
	const closedPort = await getFreePort();
	for (const [baseUrl, expected] of [
		[
			`http://127.0.0.1:${closedPort}`,
			`Could not reach phpRank at 127.0.0.1:${closedPort}: the connection was refused`,
		],
		[
			'https://seo.phprank-e2e.invalid',
			'Could not reach phpRank at seo.phprank-e2e.invalid: the host name could not be resolved',
		],
		[api.url.replace(/^https?:\/\//, ''), MSG_CRED_NO_SCHEME],
	]) {
		const r = await session.testCredential({ id: CRED_ID, dataOverride: { baseUrl } });
		check(
			`Base URL "${baseUrl}" -> a sentence, not a code: "${expected}…"`,
			r.status === 'Error' && r.message.startsWith(expected),
			r,
		);
	}
}

// ------------------------------------------------------------------ production: published, restarted
/** The trigger example published and n8n restarted (its scheduled polls), then a poll that meets a long rate limit. */
async function publishedTriggerChecks(
	{ sb }: PackageCtx,
	app: AppStart,
	alertWf: WorkflowJson,
	triggerName: string,
): Promise<void> {
	const { serverEnv, firstStartS } = app;
	let n8n: N8nServer | undefined = app.n8n;
	const start = async (env: Record<string, string>): Promise<N8nServer> =>
		(n8n = suite.n8n(await startServer(sb, { env })));
	const stop = async (): Promise<void> => {
		await timed('n8n stop', () => n8n?.stop());
		n8n = undefined;
	};
	await stop();
	await triggerActivatedChecks(sb, api, alertWf, triggerName, () => start(serverEnv), firstStartS);
	if (!process.env.E2E_SKIP_ACTIVATION) {
		await stop();
		await timed('n8n unpublish:workflow', () => unpublishWorkflow(sb, ACTIVATED_TRIGGER_ID));
		const active = await listWorkflowIds(sb, { active: true });
		check(
			'unpublished: n8n list:workflow --active=true no longer lists the copy',
			!active.includes(ACTIVATED_TRIGGER_ID) && active.includes(FAILED_CREATE_ID),
			active,
		);
	}
	await rateLimitedPollChecks(sb, api, serverEnv, firstStartS, start);
	await stop();
}

// ------------------------------------------------------------------ trigger example

/**
 * (a) The trigger example run like the editor's "Execute workflow": n8n's WorkflowExecute calls poll() in
 * "manual" mode. Internal REST on purpose: nothing stable starts a run at a polling trigger (`n8n execute`'s
 * "cli" mode only starts at a Manual Trigger and passes poll nodes through). The execution is then read
 * from n8n's database (db.ts), like every other stored execution here.
 */
async function triggerManualChecks(
	session: RestSession,
	sb: N8nSandbox,
	api: PhpRankServer,
	wf: WorkflowJson,
	triggerName: string,
): Promise<void> {
	section(
		'example: alert on a result drop (phpRank Trigger), run like the editor\'s "Execute workflow"',
	);
	// The trigger then shows the most recent matching report as a sample, and keeps no state.
	api.clearRequests();
	const latest = api.listReports(USER_IDS.default).at(-1);
	// n8n 2.41 runs the stored workflow; n8n 2.0 only runs the one the editor sends along (body.workflowData, else
	// 500 "Cannot read properties of undefined (reading 'id')"): older versions get it, as their editor sends it.
	const sendsWorkflow = n8nOlderThan(sb.runtime, DEFAULT_MAJOR, DEFAULT_MINOR);
	if (sendsWorkflow)
		note(
			`n8n ${sb.runtime.n8nVersion}: the run request carries the workflow (workflowData), as this version's editor sends it`,
		);
	const { started, executionId, exec } = await timed('manual trigger execution', () =>
		runFromTrigger(session, sb, wf.id, triggerName, {
			workflowData: sendsWorkflow ? wf : undefined,
		}),
	);
	check(
		'POST /rest/workflows/:id/run starts an execution',
		started.status === 200 && executionId,
		started,
	);
	if (executionId) {
		check(
			'execution succeeds (mode manual)',
			exec?.status === 'success' && exec.mode === 'manual',
			{ status: exec?.status, mode: exec?.mode, error: exec?.data.resultData?.error },
		);
		const out = exec?.outputs ?? {};
		const items = json(out[triggerName]);
		check(
			`the trigger outputs the latest report (id ${latest?.id}) as a sample event`,
			// A sample says so, and fills the change fields so the next node can map them.
			items.length === 1 &&
				items[0].id === latest?.id &&
				items[0].event === 'resultChanged' &&
				items[0].sample === true &&
				typeof items[0].previous_score === 'number' &&
				typeof items[0].previous_result_class === 'string',
			items,
		);
		const alert = json(out['Format alert'])[0] ?? {};
		check(
			'Format alert builds the message from the event',
			alert.title === `phpRank: ${latest?.url} dropped to ${items[0]?.result_class}` &&
				String(alert.text).startsWith(
					`${latest?.url} went from ${String(items[0]?.previous_result_class)} (${String(items[0]?.previous_score)}) to ${items[0]?.result_class} (${latest?.result}). Failed checks: `,
				) &&
				alert.report_id === latest?.id,
			alert,
		);
		check('the notification step ran', json(out['Notify (replace with Slack)']).length === 1);
	}
	const manualReqs = describeRequests(apiRequests(api));
	const newest = 'GET /api/v1/reports?sort_by=id&sort=desc&per_page=10&page=1';
	check(`server got one ${newest}`, manualReqs === newest, manualReqs);
}

/**
 * (b) A copy of the trigger example published like in production, through n8n's CLI: import:workflow and
 * publish:workflow, then `n8n start` (a publish takes effect at the next start). n8n polls once on activation
 * and then on the copy's schedule: a fixed second of every minute, far enough after the start that the test
 * changes a report between the activation poll and the first scheduled one. Executions are read from the
 * database; the copy is unpublished with the CLI at the end.
 */
async function triggerActivatedChecks(
	sb: N8nSandbox,
	api: PhpRankServer,
	wf: WorkflowJson,
	triggerName: string,
	start: () => Promise<N8nServer>,
	firstStartS: number,
): Promise<void> {
	section('example: alert on a result drop, published (scheduled polls by n8n)');
	if (process.env.E2E_SKIP_ACTIVATION) {
		note('skipped (E2E_SKIP_ACTIVATION)');
		return;
	}
	// The second of the minute at which n8n polls: after the import, the publish, this start (as long as the
	// first one, at most) and the activation poll, with room to change a report in between.
	const leadS = Math.min(55, Math.max(30, Math.ceil(firstStartS * 1.5) + 25));
	const second = (new Date().getUTCSeconds() + leadS) % 60;
	const { wf: copy } = outcomes.alertPollingAt(wf, second, {
		id: ACTIVATED_TRIGGER_ID,
		name: 'e2e: alert on a result drop (published)',
	});
	await timed('n8n import:workflow (the copy)', () => importWorkflows(sb, [copy]));
	await timed('n8n publish:workflow (the copy)', () => publishWorkflows(sb, [copy.id]));
	note(`the copy polls at second ${second} of every minute (${leadS} s after the import began)`);
	const polls = () =>
		apiRequests(api).filter(
			(r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.per_page === '100',
		).length;
	api.clearRequests();
	const waitPoll = async (n: number, label: string, timeoutMs = 100_000): Promise<boolean> =>
		Boolean(await timed(label, () => waitFor(() => polls() >= n || undefined, timeoutMs)));
	await timed('n8n start until ready (with the published copy)', start);
	// n8n polls once while it activates the published workflow, just after it answers readiness.
	check(
		'n8n polled once on activation (reads all reports, per_page=100)',
		await waitPoll(1, 'wait for the activation poll', 30_000),
		describeRequests(apiRequests(api)),
	);
	await sleep(500);
	if (
		!check(
			'no scheduled poll yet (the change below must come before the first one)',
			polls() === 1,
			describeRequests(apiRequests(api)),
		)
	) {
		note(`n8n took too long to start here: raise leadS in ${path.basename(__filename)}`);
	}

	// A drop after the activation poll, before the first scheduled poll.
	await outcomes.changeReports(api, outcomes.ALERT.first);
	check('n8n ran the first scheduled poll', await waitPoll(2, 'wait for scheduled poll 1'));
	const settled = async (count: number) => await waitForExecutions(sb, copy.id, count, 20_000);
	const ids = (e: StoredExecution) => json(e.outputs[triggerName]).map((i) => i.id);
	const afterFirst = await settled(1);
	check(
		'the first scheduled poll started one execution: the drop good -> bad of report 6 (state kept from the activation poll)',
		same(afterFirst.map(ids), [[6]]) &&
			afterFirst[0].mode === 'trigger' &&
			afterFirst[0].status === 'success' &&
			json(afterFirst[0].outputs[triggerName])[0]?.previous_result_class === 'good',
		afterFirst.map((e) => ({ id: e.id, mode: e.mode, status: e.status, ids: ids(e) })),
	);

	await outcomes.changeReports(api, outcomes.ALERT.then);
	check('n8n ran the second scheduled poll', await waitPoll(3, 'wait for scheduled poll 2'));
	const all = await settled(afterFirst.length + 1);
	const fresh = all.slice(afterFirst.length);
	check(
		'the second scheduled poll started exactly one execution (mode trigger, success)',
		fresh.length === 1 && fresh[0].mode === 'trigger' && fresh[0].status === 'success',
		fresh.map((e) => [e.id, e.mode, e.status]),
	);
	outcomes.checkSecondAlert(check, fresh[0], triggerName);
	check(
		'no execution ever reported the rise of report 8',
		!all.some((e) => ids(e).includes(8)),
		all.map(ids),
	);
}

// ------------------------------------------------------------------ a poll that meets a rate limit

/**
 * A poll's time budget where n8n 2.41's durable scheduler runs it (n8n's trigger-execution-context.factory.js,
 * getExecutePollFunctions): the shorter of the poll timeout and the scheduler's lease, less a margin of a
 * fifth (5 s at least, half at most). Polls n8n runs in memory (its default) get PollContext's fixed 5 minutes.
 */
function durablePollBudgetMs(pollTimeoutS: number, leaseS: number): number {
	const ceilingMs = Math.min(pollTimeoutS, leaseS) * 1000;
	return ceilingMs - Math.min(Math.max(0.2 * ceilingMs, 5_000), ceilingMs / 2);
}

/** A trigger alone (New Report, the other user's key), polling at these seconds of every minute. */
function rateLimitedTriggerWorkflow(seconds: number[]): WorkflowJson {
	const parameters = {
		pollTimes: pollAt(seconds),
		event: 'newReport',
		filters: {},
		simplify: true,
	};
	return workflow(RATE_LIMITED_ID, 'e2e: a poll meets a long rate limit (published)', [
		phpRankTrigger('phpRank Trigger', parameters, OTHER_CRED),
	]);
}

/**
 * (c) Every wait of a poll is bounded by half its time budget, on every n8n. A published trigger (the other
 * user's key: its rate limit is its own in the node and in the test server) polls every POLL_EVERY_S at fixed
 * seconds. After its activation poll the test server holds that user at a rate limit (every request 429,
 * Retry-After RATE_LIMIT_RETRY_AFTER_S, until lifted) and a report is created:
 * - the poll that meets the 429 ends at once with the node's rate-limit error, which n8n stores as a failed
 *   execution (2.0 and 2.41 alike: ExecutionService.createErrorExecution, stoppedAt = the poll's end); the
 *   test then lifts the limit;
 * - the next poll starts while the node still holds phpRank's wait for longer than the poll may wait: it must
 *   end at once with the same error, sending nothing (n8n 2.0 before the fix waited it out, 35 s);
 * - the poll after that waits the rest (5 s) and reports the report created under the limit (a failed poll
 *   keeps the state); no request goes out before phpRank's wait has passed.
 * A poll starts at its tick (the seconds it is scheduled at; n8n 2.41's scheduler may start it a few seconds
 * late) and ends when n8n stores its failure or starts the execution it emits. On n8n 2.41
 * the poll runs under the durable scheduler, the one place n8n sets a poll's budget (36 s here); n8n 2.0 has
 * none and the node takes one minute. With E2E_DURABLE_CURSORS n8n itself backs the trigger off for the
 * error's Retry-After: no poll runs during the wait.
 */
async function rateLimitedPollChecks(
	sb: N8nSandbox,
	api: PhpRankServer,
	baseEnv: Record<string, string>,
	firstStartS: number,
	start: (env: Record<string, string>) => Promise<N8nServer>,
): Promise<void> {
	section(
		`a published trigger's polls meet a rate limit that outlasts them (429, Retry-After ${RATE_LIMIT_RETRY_AFTER_S} s, until lifted)`,
	);
	if (process.env.E2E_SKIP_ACTIVATION) {
		note('skipped (E2E_SKIP_ACTIVATION)');
		return;
	}
	const phaseStart = Date.now();
	const plan = rateLimitPlan(sb, baseEnv, firstStartS);
	await timed('n8n import:workflow (rate-limited trigger)', () =>
		importWorkflows(sb, [rateLimitedTriggerWorkflow(plan.seconds)]),
	);
	await timed('n8n publish:workflow (rate-limited trigger)', () =>
		publishWorkflows(sb, [RATE_LIMITED_ID]),
	);
	note(`the trigger polls at seconds ${plan.seconds.join(' and ')} of every minute`);

	const other = `Bearer ${OTHER_USER_KEY}`;
	const polls = (): RecordedRequest[] =>
		api.requests.filter(
			(r) =>
				r.headers.authorization === other && r.method === 'GET' && r.path === '/api/v1/reports',
		);
	/** The first poll from the `from`th on answered `status` (any status when none is given). */
	const answered = (from: number, status?: number) => () =>
		polls()
			.slice(from)
			.find((r) => r.status !== undefined && (status === undefined || r.status === status));
	const seenBefore = polls().length;
	await timed('n8n start until ready (rate-limited trigger)', () => start(plan.env));
	const activation = await timed('wait for the activation poll', () =>
		waitFor(answered(seenBefore), 30_000),
	);
	check(
		'n8n polled once on activation, answered 200 (before the limit)',
		activation?.status === 200,
		activation && describeRequests([activation]),
	);

	// The limit, and a report created while it holds: a poll after it must still report that one.
	api.holdRateLimit(USER_IDS.other, RATE_LIMIT_RETRY_AFTER_S);
	const created = api.addReport({
		url: 'https://competitor.example.net/pricing',
		user_id: USER_IDS.other,
		result: 52,
		privacy: 0,
	});
	const heldFrom = polls().length;
	const met = await timed('wait for a poll to meet the 429', () =>
		waitFor(answered(heldFrom, 429), (POLL_EVERY_S + 15) * 1000),
	);
	check('a scheduled poll met the rate limit (429)', met, describeRequests(polls()));
	if (!met) return;
	const stored = async (): Promise<StoredExecution[]> =>
		await storedExecutions(sb, RATE_LIMITED_ID);
	const run: RateLimitRun = { ...plan, api, polls, stored, met, heldFrom };
	await checkPollsUnderTheLimit(run);
	await checkPollAfterTheWait(run, created.id);
	note(`this check took ${((Date.now() - phaseStart) / 1000).toFixed(1)} s in all`);
}

/** How long a poll may wait on this n8n, how n8n is started for it, and the seconds the trigger polls at. */
interface RateLimitPlan {
	budgetMs: number;
	boundMs: number;
	boundS: number;
	/** n8n itself backs the trigger off for the error's Retry-After (durable cursors) */
	backsOff: boolean;
	env: Record<string, string>;
	seconds: number[];
	/** The tick a poll that ended at `ms` started at: the last scheduled second before it. */
	tickOf: (ms: number) => number;
}

/** The state of a rate-limit run once a poll met the 429. */
interface RateLimitRun extends RateLimitPlan {
	api: PhpRankServer;
	/** the other user's report list requests: the trigger's polls */
	polls: () => RecordedRequest[];
	stored: () => Promise<StoredExecution[]>;
	/** the request that met the 429 */
	met: RecordedRequest;
	/** how many polls there were before the limit */
	heldFrom: number;
}

function rateLimitPlan(
	sb: N8nSandbox,
	baseEnv: Record<string, string>,
	firstStartS: number,
): RateLimitPlan {
	const givesBudget = !n8nOlderThan(sb.runtime, DEFAULT_MAJOR, DEFAULT_MINOR);
	const budgetMs = givesBudget
		? durablePollBudgetMs(POLL_TIMEOUT_S, SCHEDULER_LEASE_S)
		: FALLBACK_POLL_BUDGET_MS;
	const boundMs = budgetMs / 2;
	const boundS = boundMs / 1000;
	const backsOff = givesBudget && Boolean(process.env.E2E_DURABLE_CURSORS);
	const env = givesBudget
		? {
				...DURABLE_POLLS_ENV,
				N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S),
				N8N_SCHEDULER_LEASE_DURATION: String(SCHEDULER_LEASE_S),
				...baseEnv,
			}
		: baseEnv;
	note(
		givesBudget
			? `n8n ${sb.runtime.n8nVersion}: polls run by its durable scheduler (N8N_SCHEDULER_POLL_TIMEOUT=${POLL_TIMEOUT_S}, N8N_SCHEDULER_LEASE_DURATION=${SCHEDULER_LEASE_S}): getPollBudgetMs() = ${budgetMs / 1000} s, a poll waits at most ${boundS} s`
			: `n8n ${sb.runtime.n8nVersion}: no getPollBudgetMs(); the node's fallback budget is ${budgetMs / 1000} s, a poll waits at most ${boundS} s`,
	);
	// The first tick after this import, publish and start (a poll before the limit finds nothing new).
	const first =
		(new Date().getUTCSeconds() +
			Math.min(POLL_EVERY_S - 1, Math.max(12, Math.ceil(firstStartS) + 10))) %
		60;
	const seconds = Array.from(
		{ length: 60 / POLL_EVERY_S },
		(_, i) => (first + i * POLL_EVERY_S) % 60,
	).sort((a, b) => a - b);
	const tickOf = (ms: number): number => {
		let tick = Math.floor(ms / 1000) * 1000;
		while (!seconds.includes(new Date(tick).getUTCSeconds())) tick -= 1000;
		return tick;
	};
	return { budgetMs, boundMs, boundS, backsOff, env, seconds, tickOf };
}

// n8n stores a failed poll's error through its toJSON (message, name, description...: no httpCode), on both versions.
function errorOf(e: StoredExecution | undefined): { message?: string; name?: string } | undefined {
	return e?.data.resultData?.error as { message?: string; name?: string } | undefined;
}

function isRateLimitError(e: StoredExecution | undefined): boolean {
	return errorOf(e)?.name === 'NodeApiError' && RATE_LIMIT_ERROR.test(errorOf(e)?.message ?? '');
}

/** The tick of the poll that met the 429, and the tick after it. */
function ticksOfTheLimit(run: RateLimitRun): { tick: number; nextTick: number } {
	const tick = run.tickOf(run.met.receivedAt);
	return { tick, nextTick: tick + POLL_EVERY_S * 1000 };
}

/** The poll that met the 429, and the one after it (phpRank's wait not over), each end within its bound. */
async function checkPollsUnderTheLimit(run: RateLimitRun): Promise<void> {
	const { api, met, stored, boundMs, boundS, budgetMs, backsOff } = run;
	const retryAfterMs = RATE_LIMIT_RETRY_AFTER_S * 1000;
	const failures = async (): Promise<StoredExecution[]> =>
		(await stored()).filter((e) => e.status === 'error');
	// Long enough to see a poll that waits past its bound (it would end one Retry-After later, or never).
	const failed = await timed('wait for the poll to end', () =>
		waitFor(async () => (await failures())[0], boundMs + retryAfterMs, 250),
	);
	const lifted = api.liftRateLimit(USER_IDS.other);

	const firstTook = failed?.stoppedAt && failed.stoppedAt.getTime() - met.receivedAt;
	check(
		`the poll that met it ended within ${boundS} s (half its ${budgetMs / 1000} s budget) with the node's rate-limit error, stored as a failed execution (mode trigger)`,
		failed?.mode === 'trigger' &&
			firstTook !== undefined &&
			firstTook >= 0 &&
			firstTook <= boundMs &&
			isRateLimitError(failed),
		failed
			? { id: failed.id, mode: failed.mode, tookMs: firstTook, error: errorOf(failed) }
			: 'no failed execution',
	);
	note(
		`it ended ${firstTook === undefined ? '?' : (firstTook / 1000).toFixed(2)} s after its request; error: ${errorOf(failed)?.message}`,
	);
	check('the limit was lifted', lifted === 1);

	const { nextTick } = ticksOfTheLimit(run);
	const waitLeftS = (met.receivedAt + retryAfterMs - nextTick) / 1000;
	if (backsOff) {
		note(
			`n8n backs the trigger off for the error's Retry-After (durable cursors): no poll at the next tick, ${POLL_EVERY_S} s later`,
		);
		return;
	}
	const next = await timed('wait for the next poll to end', () =>
		waitFor(
			async () =>
				(await failures()).find(
					(e) => e.stoppedAt && run.tickOf(e.stoppedAt.getTime()) === nextTick,
				),
			nextTick - Date.now() + boundMs + 5_000,
			250,
		),
	);
	const nextTook = next?.stoppedAt && next.stoppedAt.getTime() - nextTick;
	check(
		`the next poll, ${POLL_EVERY_S} s later with ${waitLeftS.toFixed(0)} s of phpRank's wait left, ended within ${boundS} s with the same error, instead of waiting it out`,
		next?.mode === 'trigger' &&
			nextTook !== undefined &&
			nextTook <= boundMs &&
			isRateLimitError(next),
		next
			? { id: next.id, tookMs: nextTook, error: errorOf(next) }
			: 'no failed execution of that poll',
	);
	note(`it ended ${nextTook === undefined ? '?' : (nextTook / 1000).toFixed(2)} s after its tick`);
}

/** A later poll waits out the rest of phpRank's wait and reports the report created under the limit. */
async function checkPollAfterTheWait(run: RateLimitRun, createdId: number): Promise<void> {
	const { met, stored, polls, tickOf, boundMs, boundS, backsOff } = run;
	const retryAfterMs = RATE_LIMIT_RETRY_AFTER_S * 1000;
	const { tick, nextTick } = ticksOfTheLimit(run);
	const worked = await timed('wait for a poll to work after the wait', () =>
		waitFor(
			async () => (await stored()).find((e) => e.status === 'success'),
			met.receivedAt + retryAfterMs + 2 * POLL_EVERY_S * 1000 - Date.now(),
			500,
		),
	);
	const items = json(worked?.outputs['phpRank Trigger']);
	// A poll ends when the execution it emits starts. Every tick before this one has a poll that ended (checked
	// above), and a trigger polls one at a time, so the tick before its end is its own.
	const workedEnd = worked?.startedAt?.getTime();
	const workedTook = workedEnd === undefined ? undefined : workedEnd - tickOf(workedEnd);
	check(
		`a later poll waited out the rest and worked within ${boundS} s of its tick: an execution (mode trigger, success) with the report created under the limit (id ${createdId})`,
		worked?.mode === 'trigger' &&
			items.length === 1 &&
			items[0].id === createdId &&
			items[0].event === 'newReport' &&
			workedEnd !== undefined &&
			tickOf(workedEnd) > (backsOff ? tick : nextTick) &&
			workedTook !== undefined &&
			workedTook <= boundMs,
		worked
			? { id: worked.id, mode: worked.mode, startedAt: worked.startedAt, tookMs: workedTook, items }
			: 'no successful execution',
	);
	const after = polls().filter((r) => r.receivedAt > met.receivedAt);
	check(
		`no request reached phpRank before its ${RATE_LIMIT_RETRY_AFTER_S} s had passed`,
		after.length > 0 && after.every((r) => r.receivedAt - met.receivedAt >= retryAfterMs),
		after.map((r) => [r.receivedAt - met.receivedAt, r.status]),
	);
	const all = await stored();
	check(
		'every failed poll failed with the rate-limit error',
		all.filter((e) => e.status === 'error').every(isRateLimitError),
		all.filter((e) => e.status === 'error').map((e) => errorOf(e)?.message),
	);
	const at = (ms: number): string => `${((ms - tick) / 1000).toFixed(1)} s`;
	note(
		`requests (s after the tick of the poll that met the 429): ${polls()
			.slice(run.heldFrom)
			.map((r) => `${at(r.receivedAt)} ${r.status ?? '-'}`)
			.join(', ')}`,
	);
	const endOf = (e: StoredExecution): number | undefined =>
		(e.status === 'error' ? e.stoppedAt : e.startedAt)?.getTime();
	note(
		`polls that ended: ${all
			.map((e) => [e.status, endOf(e)] as const)
			.map(([status, end]) =>
				end === undefined
					? `${status} at ?`
					: `${status} at ${at(end)} (${((end - tickOf(end)) / 1000).toFixed(2)} s after its tick)`,
			)
			.join(', ')}`,
	);
}

// ---------------------------------------------------------------------------------------------

/** The light and dark values of a node or credential type's `iconUrl` or `icon`. */
const iconValues = (v: unknown): string[] =>
	(typeof v === 'string' ? [v] : [(v as IconPair)?.light, (v as IconPair)?.dark]).filter(
		(s): s is string => typeof s === 'string',
	);
type IconPair = { light?: unknown; dark?: unknown } | undefined;

/** Relative icon paths (inside the package) of an exported node type description: its iconUrl's, else its icon's. */
function iconFiles(n: Record<string, unknown>): string[] {
	const prefix = `icons/${PACKAGE}/`;
	for (const v of [n.iconUrl, n.icon]) {
		const files = iconValues(v).filter((s) => s.startsWith(prefix));
		if (files.length) return files.map((s) => s.slice(prefix.length));
	}
	return [];
}

const iconUrlsOf = (n: Record<string, unknown>): string[] => iconValues(n.iconUrl);

suite.run(main);
