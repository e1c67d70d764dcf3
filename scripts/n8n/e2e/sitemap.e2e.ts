/**
 * `npm run test:e2e:sitemap`: examples/site-audit-from-sitemap.json inside a REAL n8n (2.41.1 on Node 24), the
 * package installed as README says, n8n's public API on and the example's History Store credential pointing at
 * it; the example saved as the editor imports it with two values swapped (Site's
 * `sitemap_url`: a local sitemap index of two sitemaps, 7 pages; the Schedule Trigger: every minute), published:
 *     run 1: every page new; one page phpRank refuses (422), named in `failed_pages`; the summary's numbers the
 *            server's own; one email of `summary_html`, values escaped; the history table made by the node;
 *     run 2: scripted changes (a confirmed drop of 14, a drop of exactly 5, noise, a rise of 15, small moves):
 *            every page re-run (twice for a suspected drop), nothing created; worse / better as the server says;
 *     run 3: the same address answers a plain <urlset> of a single <url>, as application/octet-stream;
 *   each run one row in the table, equal to its site item. (The requests to n8n per run, the row's run_date and
 *   failing_checks, a manual run writing nothing: historyTable.test.ts, tableHistory.e2e.ts.)
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1 (keep the temp n8n folder for debugging).
 */

import {
	PhpRankServer,
	USER_IDS,
	cleanUrl,
	type AnalysisSpec,
	type RecordedRequest,
	type ReportRecord,
} from '../../../test/server';
import { figuresOf } from '../../../test/server/site';
import {
	sitemapIndexXml,
	startFileServer,
	subjects,
	urlsetXml,
	XML_TYPE,
	type CaughtMail,
	type SmtpCatcher,
} from '../catchers';
import {
	apiRequests,
	checkExampleNodes,
	EXAMPLE_MAIL,
	CREATE_FAULTS,
	describeRequests,
	json,
	loadExample,
	NODE_TYPE,
	SITEMAP_EXAMPLE,
	testServerCredential,
	withSitemapUrl,
	withSchedule,
} from '../checks';
import { startWithN8nApi } from '../apiKey';
import { nthExecution } from '../db';
import { publicTables } from '../dataTable';
import { branches, type StoredExecution, type ExportedNodeType, type N8nSandbox } from '../n8n';
import { saveAndPublish } from '../rest';
import type { WorkflowJson } from '../workflow';
import { Fatal, pick, same } from '../report';
import { SMTP_CRED, Suite } from '../suite';

const EXAMPLE_FILE = SITEMAP_EXAMPLE.file;
/** the example's node names */
const SITE = SITEMAP_EXAMPLE.site;
const INDEX_IF = 'Sitemap index?';
const PAGE_URL = 'Page URL';
const AUDIT = SITEMAP_EXAMPLE.audit;
const EMAIL = SITEMAP_EXAMPLE.email;
const SCHEDULE = 'Every Monday at 06:00';
const TABLE_NAME = SITEMAP_EXAMPLE.historyTable;
const { to: TO, from: FROM } = EXAMPLE_MAIL;
/** The site item's figures a history row keeps. */
const HISTORY_FIGURES = [
	'average_score',
	'health_score',
	'pages',
	'good_pages',
	'decent_pages',
	'bad_pages',
];
const PROJECT = 'shop.example.com';
/** The sitemap index and its two sitemaps, as the file server serves them (sorted). */
const SITEMAP_FILES = ['/sitemap-blog.xml', '/sitemap-pages.xml', '/sitemap.xml'];
const HOME = 'https://www.shop.example.com/';

const suite = new Suite('e2e-sitemap', { editor: false });
const { check, section, note, timed, api } = suite;

/**
 * The site's pages as its sitemaps list them (`loc`: the text in the XML, entities and all), run 1's score, and
 * what run 2's analysis does. `confirm`: the second analysis of a suspected drop (Confirm Drops: 5 points).
 */
interface Page {
	sitemap: 'pages' | 'blog';
	loc: string;
	what: string;
	score: number;
	/** run 1: a high-importance check fails too */
	titleFails?: boolean;
	refused?: boolean;
	next?: AnalysisSpec;
	confirm?: AnalysisSpec;
}
const PAGES: Page[] = [
	{
		sitemap: 'pages',
		loc: HOME,
		what: 'unchanged',
		score: 92,
		next: { score: 92, others: 'keep' },
	},
	{
		sitemap: 'pages',
		loc: 'https://www.shop.example.com/pricing',
		what: 'drops 84 → 70, and holds (confirmed)',
		score: 84,
		next: { score: 70, others: 'keep' },
		confirm: { score: 70, others: 'keep' },
	},
	{
		sitemap: 'pages',
		// a quote and an escaped & in the sitemap: the URL sent is the decoded one, the e-mail shows it escaped
		loc: "\n      https://www.shop.example.com/books/o'reilly?ed=2&amp;lang=en\n    ",
		what: 'decent, rises 61 → 76',
		score: 61,
		titleFails: true,
		next: { score: 76, others: 'keep' },
	},
	{
		sitemap: 'pages',
		loc: 'https://www.shop.example.com/members?next=/account&amp;ref=sitemap',
		what: 'phpRank cannot fetch it (422), in both runs',
		score: 0,
		refused: true,
	},
	{
		sitemap: 'blog',
		loc: 'https://www.shop.example.com/blog/',
		what: 'noise: 72 → 60, then 71 when analysed again',
		score: 72,
		next: { score: 60, others: 'keep' },
		confirm: { score: 71, others: 'keep' },
	},
	{
		sitemap: 'blog',
		loc: 'https://www.shop.example.com/blog/seo-basics',
		what: 'bad, drops by exactly 5 (confirmed)',
		score: 45,
		titleFails: true,
		next: { score: 40, others: 'keep' },
		confirm: { score: 40, others: 'keep' },
	},
	{
		sitemap: 'blog',
		loc: 'https://www.shop.example.com/contact',
		what: 'up 1 only',
		score: 80,
		next: { score: 81, others: 'keep' },
	},
];
/** The URL the XML node gives for a `loc`: entities decoded, whitespace trimmed. */
const urlOf = (page: Page) => page.loc.trim().replaceAll('&amp;', '&');
const audited = PAGES.filter((p) => !p.refused);
const REFUSED = PAGES.find((p) => p.refused)!;
/** `failed_pages` with Simplify on: "<url> (<reason>)" per page, joined by "; ": here the refused page alone, phpRank's 422 as the reason. */
const REFUSED_ENTRY = new RegExp(
	`^${urlOf(REFUSED).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([^;]*Could not fetch the url\\.[^;]*HTTP 422[^;]*\\)$`,
);

// ---------------------------------------------------------------------------------------------
// what the server holds: the oracle of the summary's numbers (phpRank's classes: good > 79, decent 49-79, bad < 49)
// ---------------------------------------------------------------------------------------------

const round1 = (n: number) => Math.round(n * 10) / 10;
const mean = (values: number[]) =>
	values.length ? round1(values.reduce((a, b) => a + b, 0) / values.length) : null;
const classOf = (score: number) => (score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad');

const idOf = (r: ReportRecord) => r.id;

function siteReports(api: PhpRankServer): ReportRecord[] {
	return api.listReports(USER_IDS.default).filter((r) => r.project === PROJECT);
}

/** What the site summary must say about `reports` (one per page), computed from the records alone. */
function expectedHealth(reports: ReportRecord[]): Record<string, unknown> {
	const { pages, average_score, health_score } = figuresOf(reports);
	const pagesOf = (cls: string) => reports.filter((r) => classOf(r.result) === cls).length;
	return {
		pages,
		average_score,
		result_class: classOf(average_score),
		good_pages: pagesOf('good'),
		decent_pages: pagesOf('decent'),
		bad_pages: pagesOf('bad'),
		health_score,
	};
}

/** Requests of the run by kind. */
function byKind(reqs: RecordedRequest[]) {
	const reports = (method: string) =>
		reqs.filter((r) => r.method === method && r.path === '/api/v1/reports');
	const [lists, posts, puts] = [
		reports('GET'),
		reports('POST'),
		reqs.filter((r) => r.method === 'PUT'),
	];
	const other = reqs.filter((r) => ![lists, posts, puts].some((kind) => kind.includes(r)));
	return { lists, posts, puts, other };
}

/** The run's one output item, the site (checked so). */
function siteItem(run: StoredExecution): Record<string, unknown> | undefined {
	const out = json(run.outputs[AUDIT]);
	check(
		'one output item: the site',
		out.length === 1 && out[0]?.project === PROJECT,
		out.map((i) => i.project),
	);
	return out[0];
}

/** The one email of a run: from, to, subject, and an HTML body that is the summary's `summary_html`. */
async function checkMail(
	smtp: SmtpCatcher,
	summary: Record<string, unknown>,
): Promise<CaughtMail | undefined> {
	const mails = await smtp.waitFor(1, 10_000);
	await new Promise((r) => setTimeout(r, 500)); // time for a wrong second one
	check('one email, no more', smtp.messages.length === 1, subjects(smtp.messages));
	const mail = mails[0];
	check(
		`from ${FROM} to ${TO}`,
		mail?.from === FROM && same(mail.to, [TO]),
		mail && [mail.from, mail.to],
	);
	const subject = `phpRank weekly audit of ${PROJECT}: score ${String(summary.average_score)} (${String(summary.result_class)}), ${String(summary.worse_pages)} worse, ${String(summary.better_pages)} better`;
	check(`subject: "${subject}"`, mail?.subject === subject, mail?.subject);
	check(
		"an HTML email (Content-Type text/html) whose body is the summary's summary_html, as it is",
		/^text\/html/i.test(mail?.headers['content-type'] ?? '') &&
			typeof summary.summary_html === 'string' &&
			mail?.html === summary.summary_html,
		{
			type: mail?.headers['content-type'],
			html: mail?.html.slice(0, 300),
			summary_html: String(summary.summary_html).slice(0, 300),
		},
	);
	return mail;
}

/** The e2e copy's Schedule Trigger: every minute at `second` (UTC), instead of Mondays at 06:00. */
const everyMinuteAt = (wf: WorkflowJson, second: number): WorkflowJson =>
	withSchedule(wf, EXAMPLE_FILE, `${second} * * * * *`, SCHEDULE);

/** The history table as n8n's public API shows it (with the key): its columns and rows. */
async function readHistoryTable(baseUrl: string, apiKey: string) {
	const tables = publicTables(baseUrl, apiKey);
	const found = await tables.named(TABLE_NAME);
	if (found.length > 1) throw new Fatal(`${found.length} tables named "${TABLE_NAME}"`);
	if (!found[0]) return { table: undefined, rows: [] };
	const table = await tables.table(found[0].id);
	const columns = table.columns ?? found[0].columns ?? [];
	return { table: { ...table, columns }, rows: await tables.rows(found[0].id) };
}

/** The services of the run: n8n with its public API, the owner's session and API key. */
type SitemapCtx = Awaited<ReturnType<typeof startServices>>['ctx'];
/** The published workflow: its production runs, one at a time. */
type ProductionCtx = Awaited<ReturnType<typeof publishEveryMinute>>;

async function main(): Promise<void> {
	const example = loadExample(EXAMPLE_FILE);
	const { sb, allNodes: nodeTypes } = await suite.packageSandbox();
	const { ctx, untouched, sitemapUrl } = await startServices(sb);
	checkExampleShape(example);
	const before = arrangeRun1();
	const p = await publishEveryMinute(ctx, example, sitemapUrl, nodeTypes);
	const run1 = await checkRun1(p, before);
	const site2 = await checkRun2(p, run1, untouched);
	await checkRun3(p, site2);
}

/** The test server, the sitemap server, the SMTP catcher, the credentials, n8n and its data tables' API. */
async function startServices(sb: N8nSandbox) {
	section(
		'test server, sitemap server, SMTP catcher, n8n start, the credentials, the data table and the example (REST)',
	);
	// Other sites' reports, and another user's report of a page of the site: none of them is touched.
	api.seedReports(150, { hosts: ['news.sample.net', 'docs.widgets.dev', 'blog.acme.io'] });
	const untouched = [
		api.addReport({
			url: 'https://www.shop.example.com/pricing',
			user_id: USER_IDS.other,
			result: 90,
		}),
		api.addReport({ url: 'https://shop.example.org/', result: 33 }),
	];
	await api.start();
	const { catcher: smtp, credential: smtpCred } = await suite.smtp();
	const files = await startFileServer();
	suite.defer(() => files.stop());
	files.set('/sitemap.xml', {
		body: sitemapIndexXml(['pages', 'blog'].map((name) => `${files.origin}/sitemap-${name}.xml`)),
		contentType: XML_TYPE,
	});
	for (const name of ['pages', 'blog'])
		files.set(`/sitemap-${name}.xml`, {
			body: urlsetXml(PAGES.filter((p) => p.sitemap === name).map((p) => p.loc)),
			contentType: XML_TYPE,
		});
	const sitemapUrl = `${files.origin}/sitemap.xml`;
	note(
		`phpRank test server ${api.url}, SMTP catcher 127.0.0.1:${smtp.port}, sitemap ${sitemapUrl} (an index of 2 sitemaps, ${PAGES.length} pages)`,
	);
	// n8n's public API on (the sandbox turns it off): the node reaches its data table through it.
	const {
		n8n,
		session,
		key: apiKey,
		cred,
	} = await timed('n8n start (public API on), its owner, an API key, the credentials', () =>
		startWithN8nApi(suite, sb, { label: 'phprank e2e sitemap' }),
	);
	await session.addCredentials([testServerCredential(api), smtpCred]);
	const credTest = await session.testCredential({ id: cred.id });
	check(
		"the n8n API credential's Test passes (its key reaches this n8n's data tables)",
		credTest.status === 'OK',
		credTest,
	);
	check(
		`no data table "${TABLE_NAME}" yet`,
		(await readHistoryTable(n8n.baseUrl, apiKey)).table === undefined,
	);
	return {
		ctx: { sb, n8n, session, apiKey, files, smtp },
		untouched,
		sitemapUrl,
	};
}

/** The example as shipped: the audit's settings, the history through the node, the email, the sticky notes. */
function checkExampleShape(example: WorkflowJson): void {
	const audit = example.nodes.find((n) => n.name === AUDIT);
	check(
		'the example runs phpRank → Create or Re-Run of {{ $json.url }}, Output: One Item per Site, Confirm Drops on',
		audit?.type === NODE_TYPE &&
			audit.parameters.operation === 'createOrRerun' &&
			audit.parameters.url === '={{ $json.url }}' &&
			audit.parameters.output === 'sites' &&
			(audit.parameters.options as { confirmDrops?: unknown } | undefined)?.confirmDrops === true,
		audit?.parameters,
	);
	check(
		`the example keeps the history through the node: History Store → Data Table, History Table By Name "${TABLE_NAME}", the phpRank History Store API credential "${SITEMAP_EXAMPLE.n8nApiCredential.name}"`,
		audit?.parameters.historyStore === 'dataTable' &&
			same(audit.parameters.historyTable, { __rl: true, mode: 'name', value: TABLE_NAME }) &&
			same(audit.credentials?.phpRankN8nApi, SITEMAP_EXAMPLE.n8nApiCredential),
		{ parameters: audit?.parameters, credentials: audit?.credentials },
	);
	check(
		'no Data Table node: the audit leads only to the email',
		!example.nodes.some((n) => n.type === 'n8n-nodes-base.dataTable') &&
			same(example.connections[AUDIT], {
				main: [[{ node: EMAIL, type: 'main', index: 0 }]],
			}),
		{ nodes: example.nodes.map((n) => n.type), audit: example.connections[AUDIT] },
	);
	const email = example.nodes.find((n) => n.name === EMAIL);
	check(
		'the example emails summary_html as HTML through an SMTP credential',
		email?.credentials?.smtp?.id === SMTP_CRED.id &&
			email.parameters.emailFormat === 'html' &&
			email.parameters.html === '={{ $json.summary_html }}',
		email?.parameters,
	);
	const notes = example.nodes
		.filter((n) => n.type === 'n8n-nodes-base.stickyNote')
		.map((n) => String(n.parameters.content));
	check(
		'a sticky note says to swap in Slack with summary_text',
		notes.some((c) => c.includes('Slack') && c.includes('{{ $json.summary_text }}')),
		notes,
	);
	check(
		'a sticky note says what to set for the history (the n8n API credential: n8n Address, API Key; the table made by name on the first scheduled run) and its requests to n8n per run',
		notes.some(
			(c) =>
				c.includes('phpRank History Store API') &&
				c.includes('n8n Address') &&
				c.includes('API Key') &&
				c.includes(TABLE_NAME) &&
				c.includes('first scheduled run') &&
				c.includes(
					'1 table lookup (+1 the first time, to create it), 1 read per 250 rows of the site, 1 upsert per site',
				),
		),
		notes,
	);
}

/** Run 1's script: one page refused (422), every other page's first analysis. The user's reports before it. */
function arrangeRun1(): ReportRecord[] {
	// phpRank cannot fetch one page of the site: every POST of it is answered 422, as phpRank does.
	const refusal = CREATE_FAULTS.find((f) => f.status === 422)!.fault;
	api.failNext(refusal, {
		times: 1000,
		match: (r) =>
			r.method === 'POST' && r.path === '/api/v1/reports' && r.form.url === urlOf(REFUSED),
	});
	// run 1's analyses, scripted before the schedule can fire
	const before = api.listReports(USER_IDS.default);
	for (const page of audited)
		api.setNextAnalysis(urlOf(page), {
			score: page.score,
			others: 'pass',
			failed: page.titleFails ? ['title'] : [],
		});
	return before;
}

/** The example published with its schedule at a fixed second of every minute (and the sitemap served here). */
async function publishEveryMinute(
	ctx: SitemapCtx,
	example: WorkflowJson,
	sitemapUrl: string,
	nodeTypes: ExportedNodeType[],
) {
	const { sb, session } = ctx;

	// Published with its schedule at a second 20 s ahead: production runs, a minute apart.
	const second = (new Date().getUTCSeconds() + 20) % 60;
	const wf = everyMinuteAt(withSitemapUrl(example, sitemapUrl), second);
	const inWf = (name: string) => wf.nodes.find((m) => m.name === name);
	const changed = example.nodes.filter((n) => !same(inWf(n.name), n)).map((n) => n.name);
	check(
		`the e2e workflow is the example with only the Site node's sitemap_url and the Schedule Trigger's rule swapped (every minute at second ${second}; same nodes, same connections, same credentials)`,
		same(changed.sort(), [SCHEDULE, SITE].sort()) &&
			wf.nodes.length === example.nodes.length &&
			same(wf.connections, example.connections),
		changed,
	);
	checkExampleNodes(suite.report, { wf, example, nodeTypes, label: 'the example' });
	const { id: workflowId, published } = await timed(
		'save the workflow (POST /rest/workflows) and publish it (POST /rest/workflows/<id>/activate)',
		async () => saveAndPublish(session, wf),
	);
	if (!check('the workflow is published', published.status === 200, published.body))
		throw new Fatal('not published');
	let armedAt = Date.now();
	/** Production run `n` once it ended; it must have started after its script was set, and succeeded. */
	const nextProductionRun = async (n: number): Promise<StoredExecution> => {
		const exec = await timed(`run ${n} in n8n`, () =>
			nthExecution(sb, workflowId, 'trigger', n, 150_000),
		);
		if (!exec) throw new Fatal(`production run ${n} did not start within 150 s`);
		if ((exec.startedAt?.getTime() ?? 0) < armedAt - 1000)
			throw new Fatal(
				`production run ${n} started before its script was set: this machine took over a minute between two runs`,
			);
		if (!check(`run ${n} succeeds`, exec.status === 'success', exec.data.resultData?.error))
			throw new Fatal(`run ${n} failed`);
		return exec;
	};
	const arm = () => {
		armedAt = Date.now();
		api.clearRequests();
		ctx.files.hits.length = 0;
		ctx.smtp.clear();
	};
	arm();
	/** arm(): before the next production run */
	return { ...ctx, workflowId, nextProductionRun, arm };
}

/**
 * The row the production run added: one row more, the site item's figures, the run's IDs. Its run_date,
 * failing_checks, history_saved, runs_recorded and the requests to n8n per run (1 lookup, +1 create, 1 read,
 * 1 upsert): test/historyTable.test.ts, through n8n-core's engine.
 */
async function checkHistoryRow(
	{ n8n, apiKey, workflowId }: ProductionCtx,
	exec: StoredExecution,
	site: Record<string, unknown>,
	runs: number,
): Promise<void> {
	const { table, rows } = await readHistoryTable(n8n.baseUrl, apiKey);
	const last = rows.at(-1) ?? {};
	check(
		`the table "${TABLE_NAME}" holds ${runs} row${runs === 1 ? '' : 's'}, one a production run; the new one: site ${PROJECT}, the site item's figures (${HISTORY_FIGURES.join(', ')}), this execution's and workflow's IDs`,
		table !== undefined &&
			rows.length === runs &&
			last.site === PROJECT &&
			same(pick(last, HISTORY_FIGURES), pick(site, HISTORY_FIGURES)) &&
			last.execution_id === exec.id &&
			last.workflow_id === workflowId,
		{ rows: rows.length, last, site: pick(site, HISTORY_FIGURES), execution: exec.id },
	);
}

// ------------------------------------------------------------------ run 1: every page new
async function checkRun1(
	p: ProductionCtx,
	before: ReportRecord[],
): Promise<{ site1: ReportRecord[]; after1: ReportRecord[] }> {
	const { files, smtp, nextProductionRun } = p;
	section(
		'run 1 (the schedule, published): the sitemap index, every page new, one page phpRank cannot analyse; the history table made',
	);
	const run1 = await nextProductionRun(1);
	check(
		'the sitemap index was read, then each of its two sitemaps, once',
		same([...files.hits].sort(), SITEMAP_FILES) && files.hits[0] === '/sitemap.xml',
		files.hits,
	);
	const [index1, plain1] = branches(run1, INDEX_IF);
	check(
		'Sitemap index?: the index took the index branch',
		index1.length === 1 && plain1.length === 0,
		{ true: index1.length, false: plain1.length },
	);
	const urls1 = json(run1.outputs[PAGE_URL]).map((i) => i.url);
	check(
		`Page URL: the ${PAGES.length} pages of both sitemaps, in order, entities decoded and whitespace trimmed`,
		same(urls1, PAGES.map(urlOf)),
		urls1,
	);
	const reqs1 = byKind(apiRequests(api));
	check(
		`${PAGES.length} POSTs, one per page, with the URL as the sitemap has it; no PUT; nothing else but the list`,
		same(reqs1.posts.map((r) => r.form.url).sort(), PAGES.map(urlOf).sort()) &&
			reqs1.puts.length === 0 &&
			reqs1.other.length === 0,
		describeRequests(apiRequests(api)),
	);
	check(
		`one list request, with the project filter ${PROJECT} (the site's reports, not the account's)`,
		reqs1.lists.length === 1 && reqs1.lists[0].query.project === PROJECT,
		describeRequests(reqs1.lists),
	);
	const refusedPosts = reqs1.posts.filter((r) => r.status === 422);
	check(
		`the test server answered 422 to ${urlOf(REFUSED)} alone, 201 to the others`,
		refusedPosts.length === 1 &&
			refusedPosts[0].form.url === urlOf(REFUSED) &&
			reqs1.posts.filter((r) => r.status === 201).length === audited.length,
		reqs1.posts.map((r) => [r.form.url, r.status]),
	);
	const after1 = api.listReports(USER_IDS.default);
	const site1 = siteReports(api);
	check(
		`the server holds exactly ${audited.length} more reports: the audited pages, private, scored as scripted`,
		after1.length === before.length + audited.length &&
			same(site1.map((r) => r.url).sort(), audited.map((p) => cleanUrl(urlOf(p))).sort()) &&
			site1.every(
				(r) =>
					r.privacy === 1 && r.result === audited.find((p) => cleanUrl(urlOf(p)) === r.url)?.score,
			),
		site1.map((r) => [r.url, r.privacy, r.result]),
	);
	const sum1 = siteItem(run1);
	const want1 = {
		...expectedHealth(site1),
		created: audited.length,
		rerun: 0,
		previous_average_score: null,
		average_change: null,
		worse_pages: 0,
		better_pages: 0,
	};
	check(
		`its numbers are the server's: ${JSON.stringify(want1)}`,
		same(pick(sum1, Object.keys(want1)), want1),
		pick(sum1, Object.keys(want1)),
	);
	check(
		`failed_pages names ${urlOf(REFUSED)} with phpRank's reason (HTTP 422), and no other page`,
		REFUSED_ENTRY.test(String(sum1?.failed_pages)),
		sum1?.failed_pages,
	);
	const html1 = String(sum1?.summary_html);
	check(
		'summary_html shows the URLs with a quote and an & escaped (o&#39;reilly?ed=2&#38;lang=en, members?next=/account&#38;ref=sitemap), never raw',
		html1.includes('shop.example.com/books/o&#39;reilly?ed=2&#38;lang=en') &&
			html1.includes('members?next=/account&#38;ref=sitemap') &&
			!html1.includes("o'reilly") &&
			!html1.includes('&lang=') &&
			!html1.includes('&ref='),
		html1,
	);
	await checkHistoryRow(p, run1, sum1 ?? {}, 1);
	const mail1 = await checkMail(smtp, sum1 ?? {});
	if (mail1)
		note(`the email as caught: Subject: ${mail1.subject}\n         ${mail1.html.slice(0, 400)}…`);
	return { site1, after1 };
}

// ------------------------------------------------------------------ run 2: scripted changes
/** Run 2's script: each page's next analysis (and a second one for each suspected drop); the counters reset. */
function arrangeRun2({ arm }: ProductionCtx): void {
	for (const page of audited) {
		api.setNextAnalysis(urlOf(page), page.next!);
		if (page.confirm) api.setNextAnalysis(urlOf(page), page.confirm);
		note(`${cleanUrl(urlOf(page))}: ${page.what}`);
	}
	arm();
}

async function checkRun2(
	p: ProductionCtx,
	{ site1, after1 }: { site1: ReportRecord[]; after1: ReportRecord[] },
	untouched: ReportRecord[],
): Promise<ReportRecord[]> {
	const { files, smtp, nextProductionRun } = p;
	section('run 2 (the schedule, a minute later): a week later, scripted changes');
	const byUrl1 = new Map(site1.map((r) => [r.url, r]));
	arrangeRun2(p);
	const run2 = await nextProductionRun(2);
	check(
		'the sitemaps were read again, once each',
		same([...files.hits].sort(), SITEMAP_FILES),
		files.hits,
	);
	const after2 = api.listReports(USER_IDS.default);
	check(
		'no report created: the user holds the same reports as after run 1',
		same(after2.map(idOf), after1.map(idOf)),
		{ after1: after1.length, after2: after2.length },
	);
	const reqs2 = byKind(apiRequests(api));
	const suspected = audited.filter((p) => p.confirm);
	const putOf = (page: Page) => `/api/v1/reports/${byUrl1.get(cleanUrl(urlOf(page)))?.id}`;
	const expectedPuts = audited
		.flatMap((p) => (p.confirm ? [putOf(p), putOf(p)] : [putOf(p)]))
		.sort();
	check(
		`one PUT results=1 per page with a report (${audited.length}), one more per suspected drop (${suspected.length}), no other`,
		same(reqs2.puts.map((r) => r.path).sort(), expectedPuts) &&
			reqs2.puts.every((r) => r.form.results === '1' && r.status === 200),
		describeRequests(reqs2.puts),
	);
	const posts2 = reqs2.posts.map((r) => [r.form.url, r.status]);
	check(
		`the only POST is the refused page's, answered 422 again; one list request (project ${PROJECT})`,
		same(posts2, [[urlOf(REFUSED), 422]]) &&
			reqs2.lists.length === 1 &&
			reqs2.lists[0].query.project === PROJECT &&
			reqs2.other.length === 0,
		describeRequests(apiRequests(api)),
	);
	check(
		'every scripted analysis was used, none left over',
		same(api.pendingAnalyses(), { next: {}, persistent: [] }),
		api.pendingAnalyses(),
	);
	check(
		"the other reports were left alone (another user's report of a page of the site, another site)",
		untouched.every((u) => same(api.getReport(u.id), u)),
		untouched.map((u) => [u.id, u.url, u.user_id]),
	);
	const site2 = siteReports(api);
	const deltas = site2.map((r) => r.result - byUrl1.get(r.url)!.result);
	// Confirm Drops: a drop counts as worse only when it held; Minimum Change 5 (the default)
	const worse = audited.filter(
		(p) => p.confirm && p.confirm.score! === p.next!.score! && p.next!.score! - p.score <= -5,
	);
	const better = audited.filter((p) => p.next!.score! - p.score >= 5);
	const sum2 = siteItem(run2);
	const want2 = {
		...expectedHealth(site2),
		created: 0,
		rerun: audited.length,
		previous_average_score: mean(site1.map((r) => r.result)),
		average_change: mean(deltas),
		worse_pages: worse.length,
		better_pages: better.length,
	};
	check(
		`its numbers are the server's and the script's: ${JSON.stringify(want2)}`,
		same(pick(sum2, Object.keys(want2)), want2),
		pick(sum2, Object.keys(want2)),
	);
	check(
		`worse: ${worse.map((p) => cleanUrl(urlOf(p))).join(', ')} (the noisy drop of the blog is not); better: ${better.map((p) => cleanUrl(urlOf(p))).join(', ')}`,
		worse.length === 2 && better.length === 1,
		{ worse: worse.map(urlOf), better: better.map(urlOf) },
	);
	const pricing = site2.find((r) => r.url === 'shop.example.com/pricing')!;
	check(
		'biggest_drops starts with shop.example.com/pricing 70 (−14)',
		String(sum2?.biggest_drops).startsWith(`shop.example.com/pricing ${pricing.result}`),
		sum2?.biggest_drops,
	);
	check(
		`failed_pages still names ${urlOf(REFUSED)}, alone`,
		REFUSED_ENTRY.test(String(sum2?.failed_pages)),
		sum2?.failed_pages,
	);
	check(
		'summary_text says "2 worse, 1 better"',
		String(sum2?.summary_text).includes('; 2 worse, 1 better'),
		sum2?.summary_text,
	);
	await checkHistoryRow(p, run2, sum2 ?? {}, 2);
	await checkMail(smtp, sum2 ?? {});
	return site2;
}

/** The site's contact page: run 3's one-page sitemap, and the manual run's page. */
const CONTACT = PAGES.find((p) => p.loc.endsWith('/contact'))!;

// ------------------------------------------------------------------ run 3: a plain sitemap of one page
async function checkRun3(p: ProductionCtx, site2: ReportRecord[]): Promise<void> {
	const { files, smtp, arm, nextProductionRun } = p;
	const contact = CONTACT;
	section(
		'run 3 (the schedule, a minute later): the same address answers a plain <urlset> with a single <url>, as application/octet-stream',
	);
	// served as a file download, as some static hosts do: the example reads the answer as text whatever its type
	files.set('/sitemap.xml', {
		body: urlsetXml([contact.loc]),
		contentType: 'application/octet-stream',
	});
	const contactReport = site2.find((r) => r.url === cleanUrl(urlOf(contact)))!;
	api.setNextAnalysis(urlOf(contact), { score: 81, others: 'keep' });
	arm();
	const run3 = await nextProductionRun(3);
	const [index3, plain3] = branches(run3, INDEX_IF);
	check(
		'Sitemap index?: the plain sitemap went straight on; only /sitemap.xml was read',
		index3.length === 0 && plain3.length === 1 && same(files.hits, ['/sitemap.xml']),
		{ true: index3.length, false: plain3.length, hits: files.hits },
	);
	const urls3 = json(run3.outputs[PAGE_URL]).map((i) => i.url);
	check(
		'Page URL: one item, the one page (a single <url> is a list of one, not its fields)',
		same(urls3, [urlOf(contact)]),
		json(run3.outputs[PAGE_URL]),
	);
	const reqs3 = byKind(apiRequests(api));
	const puts3 = reqs3.puts.map((r) => r.path);
	check(
		"one list request and one PUT results=1, of that page's report",
		reqs3.lists.length === 1 &&
			same(puts3, [`/api/v1/reports/${contactReport.id}`]) &&
			reqs3.posts.length === 0 &&
			reqs3.other.length === 0,
		describeRequests(apiRequests(api)),
	);
	const sum3 = json(run3.outputs[AUDIT]);
	const want3 = { project: PROJECT, pages: 1, created: 0, rerun: 1 };
	check(
		'one site item: 1 page, 0 created, 1 re-run',
		sum3.length === 1 && same(pick(sum3[0], Object.keys(want3)), want3),
		sum3.map((i) => pick(i, Object.keys(want3))),
	);
	await checkHistoryRow(p, run3, sum3[0] ?? {}, 3);
	await checkMail(smtp, sum3[0] ?? {});
}

suite.run(main);
