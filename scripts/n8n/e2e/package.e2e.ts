/**
 * `npm run test:e2e`: the package proven inside a REAL n8n (2.41.1 on Node 24, or N8N_VERSION=<x.y.z>: CI also
 * runs it on 2.0.0, the oldest 2.x), the way users run it.
 *
 *   build (npm run build) -> npm pack -> `npm install <tarball>` in a fresh sandbox's ~/.n8n/nodes, as README's
 *      "Manually with npm" says (one n8n-workflow: n8n's own) -> n8n's own loader (export:nodes)
 *   -> ONE `n8n start` for the suite (public API on; on 2.41 its durable poll scheduler): owner setup, node/credential
 *      types + icons as the editor loads them, the credentials and every examples/*.json saved by REST as the
 *      editor saves them
 *   -> the examples run as the editor's "Execute workflow" runs them (mode manual) against the bundled phpRank
 *      test server (in-process), checking both what came out (the stored execution) and what the server received
 *   -> the credential test through the app's own endpoint, History Store → Data Table through this n8n's own
 *      public API (on 2.0.0, which has no data-table API, the node's plain error before any phpRank request:
 *      historyTableApi.ts), a webhook-started Create with a literal password that phpRank fails (stored error:
 *      HTTP code kept, password nowhere), the trigger example run like the editor's "Execute workflow";
 *   -> a copy of the trigger example published as the editor's Publish does (at once): its polls as in production;
 *   -> a published trigger whose poll meets a rate limit that outlasts the poll's time budget: the poll ends
 *      within half its budget with a rate-limit error, and a poll after the limit is lifted works;
 *   -> n8n stopped, and the one CLI run: `n8n execute` of ten Return All runs over 1,000 reports while the newest
 *      is deleted before each page request after the first: every survivor once (issue 38, pagingUnderDeletes.ts).
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
	TRIGGER_TYPE,
	type SandboxWithPackage,
	type WorkflowJson,
} from '../checks';
import {
	DEFAULT_N8N_VERSION,
	getFreePort,
	n8nOlderThan,
	runFromTrigger,
	setupOwner,
	startServer,
	storedExecutions,
	waitForExecutions,
	wantedN8nVersion,
	type N8nSandbox,
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
import { saveAndPublish, saveWorkflow } from '../rest';
import { Suite } from '../suite';
import { phpRankTrigger, pollAt, workflow, type CredentialRef } from '../workflow';

const WRONG_KEY = 'x'.repeat(64);
/** n8n 2.41's durable scheduler running the polls (PollJobProvider: all three, else polls stay in memory). */
const DURABLE_POLLS_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
/** What n8n 2.41 needs for durable poll cursors (PollCursorService warns when one is missing). */
const DURABLE_CURSORS_ENV = { ...DURABLE_POLLS_ENV, N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true' };
const FAILED_CREATE_PATH = 'phprank-e2e-failed-create';
/** The examples' Manual Trigger: where the editor's "Execute workflow" starts them. */
const MANUAL = 'When clicking ‘Execute workflow’';
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

/** The suite's one n8n, its owner, the credentials and workflows as n8n saved them. */
interface App {
	sb: N8nSandbox;
	n8n: N8nServer;
	session: RestSession;
	/** the examples' (the test server's), a wrong key's, and the other test user's (its own rate-limit budget) */
	cred: { main: CredentialRef; wrong: CredentialRef; other: CredentialRef };
	/** an example (or WRONG_KEY_DIGEST) as saved: its credentials n8n's, its id the one n8n gave it */
	saved: (file: string) => WorkflowJson;
	failedCreateId: string;
}

/** The digest example saved once more with the wrong key: what a user sees when the key is wrong. */
const WRONG_KEY_DIGEST = 'e2e: digest with a wrong key';

async function main(): Promise<void> {
	const installed = await suite.packageSandbox();
	checkInstalledPackage(installed);
	const app = await startApp(installed);
	// Kept on the CLI, the one `n8n execute` of the suite: the proof that n8n's CLI runs the package. This run,
	// on its own test servers, depends on nothing the other sections change, so it can come once n8n is stopped.
	const pagingUnderDeletes = await shrinkingLists(suite, app.session);
	await checkExamples(app);
	await checkCredentialTest(app);
	const { sb, n8n, session } = app;
	await historyTableOnThisN8n(suite, { sb, n8n, session, api, phpRank: app.cred.other });

	section('a failed Create with a literal password, started by a webhook (production execution)');
	await checkFailedCreate(suite.report, {
		sb,
		api,
		webhookUrl: `${n8n.baseUrl}/webhook/${FAILED_CREATE_PATH}`,
		workflowId: app.failedCreateId,
	});

	// ------------------------------------------------------------------ trigger
	const alertWf = app.saved(outcomes.ALERT.file);
	const triggerName = alertWf.nodes.find((n) => n.type === TRIGGER_TYPE)?.name ?? 'phpRank Trigger';
	await triggerManualChecks(app, alertWf, triggerName);
	await triggerActivatedChecks(app, alertWf, triggerName);
	await rateLimitedPollChecks(app);
	await timed('n8n stop', () => n8n.stop());
	await pagingUnderDeletes(sb);
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

// ------------------------------------------------------------------ n8n, credentials, examples
/**
 * The env of the suite's one `n8n start`: its public API on (History Store → Data Table); on 2.41 its durable
 * scheduler runs the polls, with the poll timeout and lease pinned (the one place n8n sets a poll's budget: the
 * rate-limit check); E2E_DURABLE_CURSORS adds its durable cursors.
 */
function startEnv(sb: N8nSandbox): Record<string, string> {
	const cursors = process.env.E2E_DURABLE_CURSORS ? DURABLE_CURSORS_ENV : {};
	if (n8nOlderThan(sb.runtime, DEFAULT_MAJOR, DEFAULT_MINOR))
		return { ...cursors, ...PUBLIC_API_ON };
	return {
		...DURABLE_POLLS_ENV,
		N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S),
		N8N_SCHEDULER_LEASE_DURATION: String(SCHEDULER_LEASE_S),
		...cursors,
		...PUBLIC_API_ON,
	};
}

/** The test server seeded, n8n started once, its owner, the editor's types; the credentials and examples saved. */
async function startApp(installed: SandboxWithPackage): Promise<App> {
	const { sb } = installed;
	section('n8n start (once for the suite): owner, node and credential types, icons');
	seedServer(api, Date.now());
	await api.start();
	note(`phpRank test server: ${api.url}`);
	const n8n = await timed('n8n start until ready', async () =>
		suite.n8n(await startServer(sb, { env: startEnv(sb) })),
	);
	const session = await setupOwner(n8n);
	check('owner set up through POST /rest/owner/setup', session.cookie.startsWith('n8n-auth='));
	await checkTypes(n8n, session);

	section('credentials and examples saved by REST, as the editor saves them');
	const made = async (name: string, apiKey: string): Promise<CredentialRef> => {
		const c = await session.createCredential({
			name,
			type: 'phpRankApi',
			data: { baseUrl: api.url, apiKey },
		});
		return { id: c.id, name: c.name };
	};
	const cred = {
		main: await made(CRED_NAME, TEST_API_KEY),
		wrong: await made('phpRank (wrong key)', WRONG_KEY),
		other: await made('phpRank (other user)', OTHER_USER_KEY),
	};
	const saved = await saveExamples(installed, session, cred);
	const failedCreateId = await published(
		session,
		failedCreateWorkflow({ id: '', webhookPath: FAILED_CREATE_PATH, credential: cred.main }),
		'the webhook-started Create',
	);
	return { sb, n8n, session, cred, saved, failedCreateId };
}

/** Every example checked against this n8n's node types, then saved with n8n's credential, the digest also with the wrong one. */
async function saveExamples(
	{ sb, allNodes }: SandboxWithPackage,
	session: RestSession,
	cred: App['cred'],
): Promise<App['saved']> {
	const { runtime } = sb;
	const examples = loadExamples();
	check(`${examples.size} example workflows found in examples/`, examples.size >= 4, [
		...examples.keys(),
	]);
	const saved = new Map<string, WorkflowJson>();
	const refused: string[] = [];
	const save = async (key: string, wf: WorkflowJson, ref: CredentialRef): Promise<void> => {
		const ours = JSON.parse(
			JSON.stringify(wf).replaceAll(`"${CRED_ID}"`, JSON.stringify(ref.id)),
		) as WorkflowJson;
		await saveWorkflow(session, ours).then(
			({ id }) => saved.set(key, { ...ours, id }),
			(e: Error) => refused.push(`${key}: ${e.message}`),
		);
	};
	for (const [file, wf] of examples) {
		await save(file, wf, cred.main);
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
	const digest = examples.get(outcomes.DIGEST.file);
	if (digest) await save(WRONG_KEY_DIGEST, { ...digest, name: WRONG_KEY_DIGEST }, cred.wrong);
	check(
		'POST /rest/workflows saved every example (as the editor imports a file), each with the credential n8n made',
		refused.length === 0 && saved.size === examples.size + 1,
		refused,
	);
	return (file) => {
		const wf = saved.get(file);
		if (!wf) throw new Fatal(`examples/${file} is missing or was not saved`);
		return wf;
	};
}

/** `wf` saved and published as the editor does, timed; checked that `what` is published. Its id. */
async function published(session: RestSession, wf: WorkflowJson, what: string, timing = what) {
	const saved = await timed(`save and publish ${timing}`, () => saveAndPublish(session, wf));
	const { status, body } = saved.published;
	check(`${what} is published (POST /rest/workflows/<id>/activate)`, status === 200, body);
	return saved.id;
}

// ------------------------------------------------------------------ the examples, run as the editor runs them
/**
 * The editor's "Execute workflow" of a saved workflow from `trigger` (mode manual), the server's requests cleared
 * first: the stored execution, its outputs if it succeeded as it should, the server's requests.
 */
async function runManual(
	{ session, sb }: App,
	wf: WorkflowJson,
	label: string,
	{ trigger = MANUAL, shouldSucceed = true } = {},
): Promise<{ exec?: StoredExecution; out?: StoredExecution['outputs']; reqs: RecordedRequest[] }> {
	api.clearRequests();
	const { started, exec } = await timed(`run ${label} (POST /rest/workflows/:id/run)`, () =>
		runFromTrigger(session, sb, wf.id, trigger, { workflowData: wf }),
	);
	const ok =
		shouldSucceed &&
		check(
			'execution succeeds (mode manual)',
			exec?.status === 'success' && exec.mode === 'manual',
			exec
				? { status: exec.status, mode: exec.mode, error: exec.data.resultData?.error }
				: { started },
		);
	return { exec, out: ok ? exec?.outputs : undefined, reqs: apiRequests(api) };
}

/** The digest, the digest with a wrong key, the creation and the housekeeping examples (exampleOutcomes.ts). */
async function checkExamples(app: App): Promise<void> {
	const { saved } = app;
	section('example: weekly digest of bad reports (run as the editor runs it)');
	const digest = await runManual(app, saved(outcomes.DIGEST.file), 'the digest');
	outcomes.checkDigest(check, digest.out, digest.reqs);

	section('a wrong API key in a workflow (run as the editor runs it)');
	const bad = await runManual(app, saved(WRONG_KEY_DIGEST), 'with a wrong key', {
		shouldSucceed: false,
	});
	const error = bad.exec?.data.resultData?.error;
	check(
		'execution fails (stored with status error, mode manual)',
		bad.exec?.status === 'error' && bad.exec.mode === 'manual',
		{ status: bad.exec?.status, mode: bad.exec?.mode },
	);
	check(`error shown: "${MSG_NODE_401}"`, error?.message === MSG_NODE_401, error?.message);
	check(
		'only GET /api/v1/reports was sent (no writes)',
		bad.reqs.length >= 1 &&
			bad.reqs.every((r) => r.method === 'GET' && r.path === '/api/v1/reports'),
		describeRequests(bad.reqs),
	);
	note(
		`requests sent for the 401: ${bad.reqs.length} (n8n-core retries a 401 once after preAuthentication)`,
	);

	section('example: scheduled report creation (run as the editor runs it)');
	const ids = (user: number) => api.listReports(user).map((r) => r.id);
	const before = ids(USER_IDS.default);
	const creation = await runManual(app, saved(outcomes.CREATION.file), 'the creation');
	const created = api.listReports(USER_IDS.default).filter((r) => !before.includes(r.id));
	outcomes.checkCreation(check, creation.out, creation.reqs, created);

	section('example: delete reports older than 90 days (run as the editor runs it)');
	const kept = { mine: ids(USER_IDS.default).filter((id) => id > 4), others: [9, 10] };
	const cleanup = await runManual(app, saved(outcomes.HOUSEKEEPING.file), 'the housekeeping');
	outcomes.checkHousekeeping(check, api, cleanup.out, cleanup.reqs, kept);
}
// ------------------------------------------------------------------ the app
/** The node and credential types (and icons) as the editor loads them. */
async function checkTypes(n8n: N8nServer, session: RestSession): Promise<void> {
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
}

/** The credential test through the app's own endpoint: every answer a sentence README promises. */
async function checkCredentialTest({ session, cred }: App): Promise<void> {
	section('credential test through the app (POST /rest/credentials/test)');
	const id = cred.main.id;
	api.clearRequests();
	const ok = await session.testCredential({ id });
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
		['stored credential with a wrong key -> the same Error', cred.wrong.id, MSG_CRED_401],
		['key of a plan without API access -> 403 message', { apiKey: NO_API_PLAN_KEY }, MSG_CRED_403],
		[
			'Base URL without a phpRank API -> 404 message',
			{ baseUrl: `${api.url}/not-phprank` },
			MSG_CRED_404,
		],
	];
	for (const [label, data, message] of errors) {
		const r = await session.testCredential(
			typeof data === 'string' ? { id: data } : { id, dataOverride: data },
		);
		check(label, same(r, { status: 'Error', message }), r);
	}
	for (const shape of [`${api.url}/`, `${api.url}/api/v1`, `${api.url}/api/v1/`]) {
		const r = await session.testCredential({ id, dataOverride: { baseUrl: shape } });
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
		const r = await session.testCredential({ id, dataOverride: { baseUrl } });
		check(
			`Base URL "${baseUrl}" -> a sentence, not a code: "${expected}…"`,
			r.status === 'Error' && r.message.startsWith(expected),
			r,
		);
	}
}

// ------------------------------------------------------------------ trigger example

/**
 * (a) The trigger example run like the editor's "Execute workflow": n8n's WorkflowExecute calls poll() in
 * "manual" mode. Internal REST on purpose: nothing stable starts a run at a polling trigger (`n8n execute`'s
 * "cli" mode only starts at a Manual Trigger and passes poll nodes through). The execution is then read
 * from n8n's database (db.ts), like every other stored execution here.
 */
async function triggerManualChecks(app: App, wf: WorkflowJson, triggerName: string): Promise<void> {
	section(
		'example: alert on a result drop (phpRank Trigger), run like the editor\'s "Execute workflow"',
	);
	// The trigger then shows the most recent matching report as a sample, and keeps no state.
	const latest = api.listReports(USER_IDS.default).at(-1);
	const { out, reqs } = await runManual(app, wf, 'the trigger example', { trigger: triggerName });
	if (out) {
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
	const manualReqs = describeRequests(reqs);
	const newest = 'GET /api/v1/reports?sort_by=id&sort=desc&per_page=10&page=1';
	check(`server got one ${newest}`, manualReqs === newest, manualReqs);
}

/**
 * (b) A copy of the trigger example published like in production, as the editor's Publish does (POST
 * /rest/workflows/<id>/activate: at once, no restart). n8n polls once on activation and then on the copy's
 * schedule: two fixed seconds a minute, 30 s apart, the first far enough ahead that the test changes a report
 * between the activation poll and the first scheduled one. Executions are read from the database; the copy is unpublished
 * at the end (POST /rest/workflows/<id>/deactivate).
 */
async function triggerActivatedChecks(
	{ sb, session, failedCreateId }: App,
	wf: WorkflowJson,
	triggerName: string,
): Promise<void> {
	section('example: alert on a result drop, published (scheduled polls by n8n)');
	if (process.env.E2E_SKIP_ACTIVATION) {
		note('skipped (E2E_SKIP_ACTIVATION)');
		return;
	}
	// The seconds of the minute at which n8n polls, 30 s apart: the first after the save, the publish and the
	// activation poll, with room to change a report in between.
	const leadS = 20;
	const second = (new Date().getUTCSeconds() + leadS) % 60;
	const { wf: copy } = outcomes.alertPollingAt(wf, [second, (second + 30) % 60], {
		name: 'e2e: alert on a result drop (published)',
	});
	const polls = () =>
		apiRequests(api).filter(
			(r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.per_page === '100',
		).length;
	api.clearRequests();
	const waitPoll = async (n: number, label: string, timeoutMs = 100_000): Promise<boolean> =>
		Boolean(await timed(label, () => waitFor(() => polls() >= n || undefined, timeoutMs)));
	const id = await published(session, copy, 'the copy');
	note(
		`the copy polls at seconds ${second} and ${(second + 30) % 60} of every minute (the first ${leadS} s after its save began)`,
	);
	// n8n polls once while it activates the published workflow, just after it answers the publish.
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
		note(`n8n took too long to publish here: raise leadS in ${path.basename(__filename)}`);
	}

	// A drop after the activation poll, before the first scheduled poll.
	await outcomes.changeReports(api, outcomes.ALERT.first);
	check('n8n ran the first scheduled poll', await waitPoll(2, 'wait for scheduled poll 1'));
	const settled = async (count: number) => await waitForExecutions(sb, id, count, 20_000);
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
	const off = await session.request('POST', `/rest/workflows/${id}/deactivate`, {});
	const active = async (wid: string) =>
		(await session.request<{ data?: { active?: boolean } }>('GET', `/rest/workflows/${wid}`)).body
			?.data?.active;
	const now = { copy: await active(id), failedCreate: await active(failedCreateId) };
	check(
		'unpublished (POST /rest/workflows/<id>/deactivate): n8n shows the copy inactive, the webhook-started Create still active',
		off.status === 200 && now.copy === false && now.failedCreate === true,
		{ deactivate: off.status, ...now },
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
function rateLimitedTriggerWorkflow(seconds: number[], other: CredentialRef): WorkflowJson {
	const parameters = {
		pollTimes: pollAt(seconds),
		event: 'newReport',
		filters: {},
		simplify: true,
	};
	return workflow('', 'e2e: a poll meets a long rate limit (published)', [
		phpRankTrigger('phpRank Trigger', parameters, other),
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
async function rateLimitedPollChecks({ sb, session, cred }: App): Promise<void> {
	section(
		`a published trigger's polls meet a rate limit that outlasts them (429, Retry-After ${RATE_LIMIT_RETRY_AFTER_S} s, until lifted)`,
	);
	if (process.env.E2E_SKIP_ACTIVATION) {
		note('skipped (E2E_SKIP_ACTIVATION)');
		return;
	}
	const phaseStart = Date.now();
	const plan = rateLimitPlan(sb);

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
	const id = await published(
		session,
		rateLimitedTriggerWorkflow(plan.seconds, cred.other),
		'the trigger',
		'the rate-limited trigger',
	);
	note(`the trigger polls at seconds ${plan.seconds.join(' and ')} of every minute`);
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
	const stored = async (): Promise<StoredExecution[]> => await storedExecutions(sb, id);
	const run: RateLimitRun = { ...plan, api, polls, stored, met, heldFrom };
	await checkPollsUnderTheLimit(run);
	await checkPollAfterTheWait(run, created.id);
	note(`this check took ${((Date.now() - phaseStart) / 1000).toFixed(1)} s in all`);
}

/** The state of a rate-limit run once a poll met the 429. */
interface RateLimitRun extends ReturnType<typeof rateLimitPlan> {
	api: PhpRankServer;
	/** the other user's report list requests: the trigger's polls */
	polls: () => RecordedRequest[];
	stored: () => Promise<StoredExecution[]>;
	/** the request that met the 429 */
	met: RecordedRequest;
	/** how many polls there were before the limit */
	heldFrom: number;
}

/**
 * How long a poll may wait on this n8n (what startEnv set for the polls), whether n8n itself backs the trigger off
 * for the error's Retry-After (durable cursors), the seconds the trigger polls at, and `tickOf`: the tick a poll
 * that ended at `ms` started at (the last scheduled second before it).
 */
function rateLimitPlan(sb: N8nSandbox) {
	const givesBudget = !n8nOlderThan(sb.runtime, DEFAULT_MAJOR, DEFAULT_MINOR);
	const budgetMs = givesBudget
		? durablePollBudgetMs(POLL_TIMEOUT_S, SCHEDULER_LEASE_S)
		: FALLBACK_POLL_BUDGET_MS;
	const boundMs = budgetMs / 2;
	const boundS = boundMs / 1000;
	const backsOff = givesBudget && Boolean(process.env.E2E_DURABLE_CURSORS);
	note(
		givesBudget
			? `n8n ${sb.runtime.n8nVersion}: polls run by its durable scheduler (N8N_SCHEDULER_POLL_TIMEOUT=${POLL_TIMEOUT_S}, N8N_SCHEDULER_LEASE_DURATION=${SCHEDULER_LEASE_S}): getPollBudgetMs() = ${budgetMs / 1000} s, a poll waits at most ${boundS} s`
			: `n8n ${sb.runtime.n8nVersion}: no getPollBudgetMs(); the node's fallback budget is ${budgetMs / 1000} s, a poll waits at most ${boundS} s`,
	);
	// The first tick after the save, the publish and its activation poll (a poll before the limit finds nothing new).
	const first = (new Date().getUTCSeconds() + 15) % 60;
	const seconds = Array.from(
		{ length: 60 / POLL_EVERY_S },
		(_, i) => (first + i * POLL_EVERY_S) % 60,
	).sort((a, b) => a - b);
	const tickOf = (ms: number): number => {
		let tick = Math.floor(ms / 1000) * 1000;
		while (!seconds.includes(new Date(tick).getUTCSeconds())) tick -= 1000;
		return tick;
	};
	return { budgetMs, boundMs, boundS, backsOff, seconds, tickOf };
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
