/**
 * `npm run test:e2e:monitor`: examples/weekly-seo-monitor.json inside a REAL n8n (2.41.1 on Node 24), the package
 * installed as README says, a phpRank and an SMTP credential (local catcher). The example runs as it is but for
 * its Google Sheets "URLs to watch", an HTTP Request node of the same name reading the same rows locally, and a
 * Webhook beside its triggers into it. One `n8n start`; credentials and workflows saved and published by REST.
 *   Two production runs (the webhook's, as the weekly schedule's: not manual): run 1 creates a report per URL,
 *   no e-mail; run 2 re-runs each (PAGES: some worse, some not, Confirm Drops) and mails exactly the pages made worse.
 *   A published phpRank Trigger (Score Changed, Minimum Change 5, Only When Worse), polling three times a minute,
 *   into the example's e-mail: n8n's scheduler polls, saves the scores, and mails the one drop once.
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1 (keep the temp n8n folder for debugging).
 */
import { randomUUID } from 'crypto';

import {
	CHECK_NAMES,
	USER_IDS,
	cleanUrl,
	type AnalysisSpec,
	type ReportRecord,
} from '../../../test/server';
import { startFileServer, subjects, type SmtpCatcher } from '../catchers';
import {
	apiRequests,
	checkExampleNodes,
	EXAMPLE_MAIL,
	PHPRANK_CRED,
	callWebhook,
	describeRequests,
	json,
	loadExample,
	reportRequest,
	NODE_TYPE,
	testServerCredential,
	TRIGGER_TYPE,
	type WorkflowJson,
} from '../checks';
import { nthExecution, waitForExecutions, type StoredExecution } from '../db';
import {
	branches,
	setupOwner,
	startServer,
	type ExportedNodeType,
	type N8nSandbox,
	type RestSession,
} from '../n8n';
import { sleep, waitFor } from '../proc';
import { Fatal, same } from '../report';
import { SMTP_CRED, Suite } from '../suite';
import { connect, node, phpRankTrigger, pollAt, webhook, workflow } from '../workflow';
import { searchConsoleChecks } from './searchConsole';

const EXAMPLE_FILE = 'weekly-seo-monitor.json';
/** the example's node names */
const SHEET = 'URLs to watch';
const RERUN = 'Create or re-run report';
const IF = 'Got worse?';
const EMAIL = 'Email the SEO team';
/** The e2e workflow's one addition: a Webhook into the URL list, for production runs without a schedule's wait. */
const WEBHOOK = 'Webhook';
const HOOK = 'phprank-monitor-run';
const { to: TO, from: FROM } = EXAMPLE_MAIL;

const suite = new Suite('e2e-monitor', { editor: false });
const { check, section, note, timed, api } = suite;

/**
 * The pages watched, and what run 2's analysis does to each (scores relative to run 1's, 80 unless
 * `base`). The example turns Confirm Drops on (5 points): a suspected drop (5 points or more, or a
 * high-importance check newly failed) is analysed once more, by `confirm` (default: `next` again,
 * the drop holds); `delta` is the change the item reports, against run 1's analysis.
 */
interface Page {
	url: string;
	what: string;
	base?: number;
	/** run 2's analysis, given the checks picked by importance */
	next: (c: { high: string; medium: string; low: string }) => AnalysisSpec;
	/** a suspected drop: the second analysis of run 2 */
	confirm?: (c: { high: string; medium: string; low: string }) => AnalysisSpec;
	suspected?: boolean;
	delta: number;
	/** a page made worse: the example mails about it */
	email?: boolean;
}
const BASE_SCORE = 80;
/** The one check failing after run 1 (every other passes). */
const BASE_FAILED = 'favicon';
const PAGES: Page[] = [
	{
		url: 'https://example.com/',
		what: 'unchanged',
		next: () => ({ score: 80, others: 'keep' }),
		delta: 0,
	},
	{
		url: 'https://example.com/pricing',
		what: 'dropped by 20, a medium check newly failed (confirmed)',
		next: (c) => ({ score: 60, failed: [c.medium], others: 'keep' }),
		suspected: true,
		delta: -20,
		email: true,
	},
	{
		url: 'https://www.example.com/blog/',
		what: 'better by 15, a check fixed',
		next: () => ({ score: 95, passed: [BASE_FAILED], others: 'keep' }),
		delta: 15,
	},
	{
		url: 'https://example.com/contact',
		what: 'down 1 only, but a high-importance check newly failed (confirmed)',
		next: (c) => ({ score: 79, failed: [c.high], others: 'keep' }),
		suspected: true,
		delta: -1,
		email: true,
	},
	{
		url: 'https://example.com/about',
		what: 'dropped by 4, a low check newly failed',
		next: (c) => ({ score: 76, failed: [c.low], others: 'keep' }),
		delta: -4,
	},
	{
		url: 'https://shop.example.org/',
		what: 'unchanged',
		next: () => ({ score: 80, others: 'keep' }),
		delta: 0,
	},
	{
		url: 'https://shop.example.org/cart',
		what: 'dropped by exactly 5 (confirmed)',
		next: () => ({ score: 75, others: 'keep' }),
		suspected: true,
		delta: -5,
		email: true,
	},
	{
		url: 'https://example.com/noisy',
		what: 'noise: 72 → 60, then 71 when analysed again',
		base: 72,
		next: () => ({ score: 60, others: 'keep' }),
		confirm: () => ({ score: 71, others: 'keep' }),
		suspected: true,
		delta: -1,
	},
	{
		url: 'https://example.com/dropped',
		what: 'a real drop: 72 → 60, then 61 when analysed again',
		base: 72,
		next: () => ({ score: 60, others: 'keep' }),
		confirm: () => ({ score: 61, others: 'keep' }),
		suspected: true,
		delta: -11,
		email: true,
	},
];
const baseOf = (page: Page) => page.base ?? BASE_SCORE;

/**
 * The example as the e2e runs it: its Google Sheets node replaced by an HTTP Request node of the same name
 * and position, reading `[{ url }, …]` (one item per row, like the sheet's rows) from `listUrl`; a Webhook
 * (answering at once) into it.
 */
function monitorWorkflow(example: WorkflowJson, listUrl: string): WorkflowJson {
	const wf = structuredClone(example);
	const at = wf.nodes.findIndex((n) => n.name === SHEET);
	if (at < 0 || wf.nodes[at].type !== 'n8n-nodes-base.googleSheets')
		throw new Fatal(`examples/${EXAMPLE_FILE}: no Google Sheets node "${SHEET}"`);
	wf.nodes[at] = node(
		SHEET,
		'n8n-nodes-base.httpRequest',
		{ url: listUrl, options: {} },
		{ typeVersion: 4.2, position: wf.nodes[at].position },
	);
	wf.nodes.push(webhook(HOOK, 'onReceived', { position: [0, -200] }));
	wf.connections = { ...wf.connections, ...connect([[WEBHOOK, SHEET]]) };
	wf.name = `e2e: ${example.name}`;
	return wf;
}

const reportsOf = () => api.listReports(USER_IDS.default);
const idOf = (r: ReportRecord) => r.id;
const urlOf = (item: Record<string, unknown>) => item.url;

/** Run 2's checks, picked by importance from a report of run 1. */
type Picked = { high: string; medium: string; low: string };

/** What the example's runs share: the sandbox, the REST session, the workflow's id and webhook, the SMTP catcher, the URL list and the reports left alone. */
interface MonitorCtx {
	sb: N8nSandbox;
	session: RestSession;
	wfId: string;
	hook: string;
	smtp: SmtpCatcher;
	list: { url: string; hits: () => number };
	untouched: ReportRecord[];
}

async function main(): Promise<void> {
	const example = loadExample(EXAMPLE_FILE);
	const { sb, allNodes: nodeTypes } = await suite.packageSandbox();
	const ctx = await publishTheExample(sb, example, nodeTypes);
	const run1 = await checkRun1(ctx);
	const picked = await checkRun2(ctx, run1);
	await triggerChecks(ctx, nodeTypes, example, picked.high);
	// The trigger polls three times a minute: unpublished (and a poll under way let end), so the Search Console
	// runs' phpRank requests are theirs alone (CI, loaded: a poll's list read fell into one of them).
	await ctx.session.request('POST', `/rest/workflows/${TRIGGER_WF_ID}/deactivate`, {});
	await sleep(3_000);
	await searchConsoleChecks(suite, ctx);
}

/** The test server and its reports, the SMTP catcher, the URL list; n8n started; the example (Sheets node swapped) published. */
async function publishTheExample(
	sb: N8nSandbox,
	example: WorkflowJson,
	nodeTypes: ExportedNodeType[],
): Promise<MonitorCtx> {
	section('test server, SMTP catcher, n8n started once, credentials and the example saved by REST');
	// 200 reports of other sites, two more pages of the watched site, another user's report of a watched URL
	api.seedReports(200, { hosts: ['news.sample.net', 'docs.widgets.dev', 'blog.acme.io'] });
	const untouched = [
		api.addReport({ url: 'https://example.com/archive/2019', result: 40 }),
		api.addReport({ url: 'https://example.com/archive/2020', result: 50 }),
		api.addReport({ url: 'https://example.com/pricing', user_id: USER_IDS.other, result: 90 }),
	];
	await api.start();
	const { catcher: smtp, credential: smtpCred } = await suite.smtp();
	const rows = await startFileServer();
	suite.defer(() => rows.stop());
	rows.set('/urls-to-watch', {
		body: JSON.stringify(PAGES.map((p, i) => ({ row_number: i + 2, url: p.url }))),
		contentType: 'application/json',
	});
	const list = { url: `${rows.origin}/urls-to-watch`, hits: () => rows.hits.length };
	note(`phpRank test server ${api.url}, SMTP catcher 127.0.0.1:${smtp.port}, URL list ${list.url}`);
	const n8n = await timed('n8n start', async () =>
		suite.n8n(await startServer(sb, { readyTimeoutMs: 180_000 })),
	);
	const session = await setupOwner(n8n);
	await session.addCredentials([testServerCredential(api), smtpCred]);
	const wf = monitorWorkflow(example, list.url);
	const kept = example.nodes.filter((n) => n.name !== SHEET);
	const inWf = (name: string) => wf.nodes.find((m) => m.name === name);
	check(
		'the e2e workflow is the example with only the Google Sheets node swapped (same name, same connections) and a Webhook into it',
		kept.every((n) => same(inWf(n.name), n)) &&
			wf.nodes.length === example.nodes.length + 1 &&
			inWf(WEBHOOK)?.type === 'n8n-nodes-base.webhook' &&
			same(wf.connections, { ...example.connections, ...connect([[WEBHOOK, SHEET]]) }),
		wf.nodes.map((n) => n.name),
	);
	checkExampleNodes(suite.report, { wf, example, nodeTypes, label: 'the e2e workflow' });
	const phpRankNode = example.nodes.find((n) => n.name === RERUN);
	check(
		'the example runs phpRank → Create or Re-Run of {{ $json.url }}, private',
		phpRankNode?.type === NODE_TYPE &&
			phpRankNode.parameters.operation === 'createOrRerun' &&
			phpRankNode.parameters.url === '={{ $json.url }}' &&
			phpRankNode.parameters.privacy === 1,
		phpRankNode,
	);
	check(
		'the example emails through an SMTP credential',
		example.nodes.find((n) => n.name === EMAIL)?.credentials?.smtp?.id === SMTP_CRED.id,
	);
	const wfId = await timed('the e2e workflow saved and published by REST', () => session.save(wf));
	const hook = `${n8n.baseUrl}/webhook/${HOOK}`;
	return { sb, session, wfId, hook, smtp, list, untouched };
}

/** Run `n`: the webhook called (a production execution, as the schedule's), read once ended; it must succeed. */
async function productionRun({ sb, wfId, hook }: MonitorCtx, n: number): Promise<StoredExecution> {
	const exec = await timed(`run ${n}: the webhook called, until its execution ended`, async () => {
		const res = await callWebhook(hook, {});
		if (res.status !== 200) note(`the webhook answered ${res.status}: ${res.body.slice(0, 400)}`);
		return await nthExecution(sb, wfId, 'webhook', n, 180_000);
	});
	const ok = check(`run ${n} succeeds`, exec?.status === 'success', exec?.data.resultData?.error);
	if (!ok || !exec) throw new Fatal(`run ${n} failed`);
	return exec;
}

// ------------------------------------------------------------------ run 1: every URL new
async function checkRun1(
	ctx: MonitorCtx,
): Promise<{ created: Map<string, ReportRecord>; after1: ReportRecord[] }> {
	const { smtp, list } = ctx;
	section('run 1 (production): every watched URL is new');
	const before = reportsOf();
	for (const page of PAGES)
		api.setNextAnalysis(page.url, { score: baseOf(page), failed: [BASE_FAILED], others: 'pass' });
	api.clearRequests();
	const run1 = await productionRun(ctx, 1);
	const created = new Map<string, ReportRecord>();
	const out1 = json(run1.outputs[RERUN]);
	check(`one output item per URL (${PAGES.length})`, out1.length === PAGES.length, out1.length);
	check(
		'every item says action "created", no previous score or change, other_reports 0',
		out1.every(
			(r) =>
				r.action === 'created' &&
				r.previous_score === null &&
				r.score_change === null &&
				!('changes' in r) &&
				r.other_reports === 0,
		),
		out1.map((r) => [r.url, r.action, r.previous_score, r.score_change]),
	);
	check(
		'the items are the watched URLs, in order, private',
		same(
			out1.map(urlOf),
			PAGES.map((p) => cleanUrl(p.url)),
		) && out1.every((r) => r.privacy === 'private'),
		out1.map((r) => [r.url, r.privacy]),
	);
	const after1 = reportsOf();
	const newOnes = after1.filter((r) => !before.some((b) => b.id === r.id));
	check(
		`the server holds exactly ${PAGES.length} more reports of the user`,
		after1.length === before.length + PAGES.length,
		{ before: before.length, after: after1.length },
	);
	check(
		'the new reports are the watched URLs, private, scored as scripted',
		same(newOnes.map((r) => r.url).sort(), PAGES.map((p) => cleanUrl(p.url)).sort()) &&
			newOnes.every(
				(r) =>
					r.privacy === 1 && r.result === baseOf(PAGES.find((p) => cleanUrl(p.url) === r.url)!),
			),
		newOnes.map((r) => [r.url, r.privacy, r.result]),
	);
	for (const r of newOnes) created.set(r.url, r);
	const reqs1 = apiRequests(api);
	const lists1 = reqs1.filter((r) => r.method === 'GET');
	check(
		`${PAGES.length} POSTs, no PUT`,
		reqs1.filter((r) => r.method === 'POST').length === PAGES.length &&
			!reqs1.some((r) => r.method === 'PUT'),
		describeRequests(reqs1),
	);
	check(
		'one list read per site (project filter), not one per URL',
		same(lists1.map((r) => r.query.project).sort(), ['example.com', 'shop.example.org']),
		describeRequests(lists1),
	);
	const [worse1, rest1] = branches(run1, IF);
	check(
		'IF: no item is "worse" (nothing to compare with yet)',
		worse1.length === 0 && rest1.length === PAGES.length,
		{ true: worse1.length, false: rest1.length },
	);
	check('the email node did not run', !(EMAIL in run1.outputs), Object.keys(run1.outputs));
	check('no email was sent', smtp.messages.length === 0, subjects(smtp.messages));
	check('the URL list was read once', list.hits() === 1, list.hits());
	return { created, after1 };
}

// ------------------------------------------------------------------ run 2: some pages worse
async function checkRun2(
	ctx: MonitorCtx,
	{ created, after1 }: { created: Map<string, ReportRecord>; after1: ReportRecord[] },
): Promise<Picked> {
	const { smtp } = ctx;
	section('run 2 (production): some pages worse, some not');
	const sample = [...created.values()][0];
	const byImportance = (importance: string) =>
		CHECK_NAMES.filter((c) => c !== BASE_FAILED && sample?.results[c]?.importance === importance);
	const picked = {
		high: byImportance('high')[0],
		medium: byImportance('medium')[0],
		low: byImportance('low')[0],
	};
	if (!picked.high || !picked.medium || !picked.low)
		throw new Fatal(`no check of every importance: ${JSON.stringify(picked)}`);
	for (const page of PAGES) {
		api.setNextAnalysis(page.url, page.next(picked));
		if (page.suspected) api.setNextAnalysis(page.url, (page.confirm ?? page.next)(picked));
		note(`${cleanUrl(page.url)}: ${page.what}`);
	}
	api.clearRequests();
	smtp.clear();
	const run2 = await productionRun(ctx, 2);
	checkRun2Reruns(ctx, run2, created, after1);
	await checkRun2Emails(smtp, run2, created, picked);
	return picked;
}

/** Run 2's items and requests: every URL re-run (no report created), a suspected drop twice (Confirm Drops). */
function checkRun2Reruns(
	{ untouched }: MonitorCtx,
	run2: StoredExecution,
	created: Map<string, ReportRecord>,
	after1: ReportRecord[],
): void {
	const out2 = json(run2.outputs[RERUN]);
	const after2 = reportsOf();
	check(
		'no report created: the user has as many reports as after run 1',
		after2.length === after1.length && same(after2.map(idOf), after1.map(idOf)),
		{ after1: after1.length, after2: after2.length },
	);
	check(
		'every item says action "rerun" of the report run 1 created',
		out2.length === PAGES.length &&
			out2.every((r) => r.action === 'rerun' && r.id === created.get(String(r.url))?.id),
		out2.map((r) => [r.url, r.action, r.id]),
	);
	const reqs2 = apiRequests(api);
	const puts = reqs2.filter((r) => r.method === 'PUT');
	const putOf = (page: Page) => `/api/v1/reports/${created.get(cleanUrl(page.url))?.id}`;
	const expectedPuts = PAGES.flatMap((p) =>
		p.suspected ? [putOf(p), putOf(p)] : [putOf(p)],
	).sort();
	check(
		'no POST; one PUT results=1 per URL, to its report, and one more for each suspected drop (Confirm Drops), no other',
		!reqs2.some((r) => r.method === 'POST') &&
			same(puts.map((r) => r.path).sort(), expectedPuts) &&
			puts.every((r) => r.form.results === '1'),
		describeRequests(reqs2),
	);
	check(
		'the other reports were left alone (same site, another user of a watched URL)',
		untouched.every((u) => same(api.getReport(u.id), u)),
		untouched.map((u) => [u.id, u.url, u.user_id]),
	);
}

/** Run 2's emails: exactly the pages made worse, each named with its scores and checks. */
async function checkRun2Emails(
	smtp: SmtpCatcher,
	run2: StoredExecution,
	created: Map<string, ReportRecord>,
	picked: Picked,
): Promise<void> {
	const [worse2, rest2] = branches(run2, IF);
	const expected = PAGES.filter((p) => p.email).map((p) => cleanUrl(p.url));
	check(
		`IF: exactly the pages made worse go to the email (${expected.join(', ')})`,
		same(json(worse2).map(urlOf), expected) && rest2.length === PAGES.length - expected.length,
		{ true: json(worse2).map((r) => r.url), false: json(rest2).map((r) => r.url) },
	);
	const mails = await smtp.waitFor(expected.length, 10_000);
	check(
		`${expected.length} emails, no more`,
		mails.length === expected.length && json(run2.outputs[EMAIL]).length === expected.length,
		subjects(mails),
	);
	check(
		`each from ${FROM} to ${TO}`,
		mails.every((m) => m.from === FROM && same(m.to, [TO]) && m.headers.from.includes(FROM)),
		mails.map((m) => [m.from, m.to, m.headers.from]),
	);
	if (mails[0])
		note(
			`an email as caught:\n         Subject: ${mails[0].subject}\n         ${mails[0].text.split('\n').join('\n         ')}`,
		);
	for (const page of PAGES) {
		const url = cleanUrl(page.url);
		const got = mails.filter((m) => m.subject.includes(`${url} `));
		if (!page.email) {
			check(`no email for ${url} (${page.what})`, got.length === 0, subjects(got));
			continue;
		}
		const base = baseOf(page);
		const now = base + page.delta;
		const mail = got[0];
		check(
			`one email for ${url}, subject names the URL and "${base} → ${now}"`,
			got.length === 1 && mail.subject === `phpRank: ${url} got worse, score ${base} → ${now}`,
			subjects(got),
		);
		const spec = page.next(picked);
		const importance = (c: string) =>
			(Object.keys(picked) as Array<keyof Picked>).find((k) => picked[k] === c);
		const failedText = spec.failed?.map((c) => `${c} (${importance(c)})`).join(', ') || 'none';
		check(
			`its text: the URL, "Score: ${base} → ${now}", ${page.delta} points, the first analysis's score, newly failed: ${failedText}`,
			mail?.text.startsWith(`${url} was analysed again by phpRank.`) &&
				mail.text.includes(`Score: ${base} → ${now} (`) &&
				mail.text.includes(
					` points. It held when analysed once more (the first analysis said ${spec.score ?? ''}).`,
				) &&
				mail.text.includes(`, ${page.delta} points.`) &&
				mail.text.includes(`Newly failed checks: ${failedText}\n`) &&
				mail.text.includes(`phpRank report ID: ${created.get(url)?.id}`),
			mail?.text,
		);
	}
}

// ---------------------------------------------------------------------------------------------
// the trigger half: phpRank Trigger, Score Changed, firing on a scripted drop in a running n8n
// ---------------------------------------------------------------------------------------------

const TRIGGER_WF_ID = 'phprankE2eScoreCh';
const TRIGGER = 'phpRank Trigger';

/** The published trigger while n8n runs: the reports it watches, its polls counted. */
type TriggerRun = ReturnType<typeof triggerRun>;

async function triggerChecks(
	ctx: MonitorCtx,
	nodeTypes: ExportedNodeType[],
	example: WorkflowJson,
	highCheck: string,
): Promise<void> {
	const { sb, smtp } = ctx;
	section('the trigger half (the same n8n): phpRank Trigger, Score Changed, on a scripted drop');
	api.clearRequests();
	smtp.clear();
	if (!(await publishTrigger(ctx.session, nodeTypes, example))) return;
	const t = triggerRun(sb, smtp, highCheck);
	const seen = await checkFirstPoll(t);
	if (seen === undefined) return;
	await scriptTheChanges(t);
	await checkScoreChangedEmail(t, seen);
}

/**
 * The trigger published by REST (Score Changed → the example's email), polling three times a minute. False if
 * the installed trigger has no Score Changed event.
 */
async function publishTrigger(
	session: RestSession,
	nodeTypes: ExportedNodeType[],
	example: WorkflowJson,
): Promise<boolean> {
	const trigger = nodeTypes.find((n) => n.name === TRIGGER_TYPE);
	const events =
		(
			trigger?.properties.find((p) => p.name === 'event')?.options as
				| Array<{ value: string }>
				| undefined
		)?.map((o) => o.value) ?? [];
	if (
		!check(
			'the installed phpRank Trigger has the Score Changed event',
			events.includes('scoreChanged'),
			events,
		)
	)
		return false;
	const email = example.nodes.find((n) => n.name === EMAIL);
	if (!email) throw new Fatal(`examples/${EXAMPLE_FILE}: no node "${EMAIL}"`);
	// Three fixed seconds of every minute, 20 s apart, the first a little ahead: n8n refuses a cron with a wildcard
	// or a list of seconds (shorter than a minute), not three crons of one second each.
	const first = new Date().getUTCSeconds() + 8;
	const seconds = [0, 20, 40].map((d) => (first + d) % 60);
	const parameters = {
		pollTimes: pollAt(seconds),
		event: 'scoreChanged',
		simplify: true,
		minChange: 5,
		onlyWorse: true,
		filters: { project: { __rl: true, mode: 'name', value: 'example.com' } },
	};
	const wf = workflow(
		TRIGGER_WF_ID,
		"e2e: phpRank Trigger (Score Changed) → the example's email",
		[
			phpRankTrigger(TRIGGER, parameters, PHPRANK_CRED),
			{ ...structuredClone(email), id: randomUUID(), position: undefined },
		],
		[[TRIGGER, email.name]],
	);
	await session.publish(wf);
	return true;
}

/** The reports the trigger watches, and how its polls are counted. */
function triggerRun(sb: N8nSandbox, smtp: SmtpCatcher, highCheck: string) {
	const byUrl = (url: string) => api.listReports(USER_IDS.default).find((r) => r.url === url);
	const home = byUrl('example.com');
	const contact = byUrl('example.com/contact');
	const about = byUrl('example.com/about');
	if (!home || !contact || !about)
		throw new Fatal('the monitored reports of example.com are missing');
	const polls = () =>
		apiRequests(api).filter(
			(r) =>
				r.method === 'GET' && r.path === '/api/v1/reports' && r.query.project === 'example.com',
		).length;
	const waitPoll = async (n: number, label: string, timeoutMs: number) =>
		Boolean(await timed(label, () => waitFor(() => polls() >= n || undefined, timeoutMs)));
	return { sb, smtp, highCheck, home, contact, about, polls, waitPoll };
}

/** The trigger's first poll notes the scores and fires nothing. The polls counted so far, or undefined. */
async function checkFirstPoll(t: TriggerRun): Promise<number | undefined> {
	const { smtp, waitPoll, polls } = t;
	if (
		!check(
			'n8n polled phpRank (the first poll notes every score of example.com)',
			await waitPoll(1, 'wait for the first poll', 130_000),
			describeRequests(apiRequests(api)),
		)
	)
		return undefined;
	await sleep(3000); // the poll's state is saved after its request
	const seen = polls();
	check(
		'the first poll fired nothing (no email)',
		smtp.messages.length === 0,
		subjects(smtp.messages),
	);
	return seen;
}

async function scriptTheChanges({ home, contact, about, highCheck }: TriggerRun): Promise<void> {
	// the scripted changes: the home page drops 80 → 70 with a high check newly failed; contact 79 → 77
	// (under Minimum Change); about 76 → 90 (a rise, Only When Worse)
	api.setNextAnalysis(home.url, { score: 70, failed: [highCheck], others: 'keep' });
	api.setNextAnalysis(contact.url, { score: 77, others: 'keep' });
	api.setNextAnalysis(about.url, { score: 90, others: 'keep' });
	// PUT results=1 on the test server, as a re-run from elsewhere (phpRank's own UI, another workflow)
	for (const r of [home, contact, about]) await reportRequest(api, 'PUT', r.id, 'results=1');
	note(
		`re-run on the test server: ${home.url} 80 → 70 (${highCheck} newly failed), ${contact.url} 79 → 77, ${about.url} 76 → 90`,
	);
}

/** The next poll: one email, for the drop of 10 alone; one trigger execution. */
async function checkScoreChangedEmail(t: TriggerRun, seen: number): Promise<void> {
	const { sb, smtp, home, highCheck, waitPoll } = t;
	check(
		'n8n polled again',
		await waitPoll(seen + 1, 'wait for the next poll', 130_000),
		describeRequests(apiRequests(api)),
	);
	const mails = await smtp.waitFor(1, 30_000);
	await sleep(3000); // time for a wrong second email
	check('exactly one email', mails.length === 1, subjects(mails));
	const mail = mails[0];
	check(
		`it is about ${home.url}: subject "phpRank: ${home.url} got worse, score 80 → 70"`,
		mail?.subject === `phpRank: ${home.url} got worse, score 80 → 70`,
		mail?.subject,
	);
	check(
		`its text: "Score: 80 → 70 (decent), -10 points." (nothing about a second analysis), newly failed ${highCheck} (high)`,
		mail?.text.includes('Score: 80 → 70 (decent), -10 points.\n') &&
			mail.text.includes(`Newly failed checks: ${highCheck} (high)\n`) &&
			mail.text.includes(`phpRank report ID: ${home.id}`),
		mail?.text,
	);
	const ended = await waitForExecutions(sb, TRIGGER_WF_ID, 1, 10_000);
	const execs = ended.filter((e) => e.mode === 'trigger');
	const items = execs.flatMap((e) => json(e.outputs[TRIGGER]));
	check(
		'one trigger execution, success, its one item the drop of the home page (reason moved, scoreDelta -10)',
		execs.length === 1 &&
			execs[0].status === 'success' &&
			items.length === 1 &&
			items[0].id === home.id &&
			items[0].event === 'scoreChanged' &&
			items[0].reason === 'moved' &&
			(items[0].changes as { scoreDelta?: number } | undefined)?.scoreDelta === -10,
		execs.map((e) => ({
			id: e.id,
			status: e.status,
			items: json(e.outputs[TRIGGER]).map((i) => [i.url, i.reason, i.changes]),
		})),
	);
}

suite.run(main);
