/**
 * `npm run test:e2e:sitemap`: examples/site-audit-from-sitemap.json inside a REAL n8n (2.41.1 on Node 24).
 *
 *   build -> npm pack -> `npm install <tarball>` in a fresh sandbox's ~/.n8n/nodes (README's "Manually with
 *   npm") -> n8n CLI import of a phpRank credential (the in-process test server) and an SMTP credential (a
 *   local SMTP catcher) -> `n8n start`, its data table made (REST) -> the example saved as the editor
 *   imports it, with two values swapped: the Site node's `sitemap_url` points at a local sitemap server (a
 *   sitemap index listing two sitemaps, 7 pages of one site), the Data Table step's table ID is the table's
 *   -> run three times as the editor's "Execute workflow" (`n8n execute` cannot run a Data Table step), each
 *   run one row in the table with the site's figures:
 *     run 1: every page is new: each created, but one page the test server refuses to analyse (422), which the
 *            site summary names in `failed_pages`; the summary's numbers are the server's own (pages, created,
 *            average, classes, health); one email whose HTML body is the summary's `summary_html`, values escaped;
 *     run 2: scripted changes (a confirmed drop of 14, a drop of exactly 5, noise, a rise of 15, small moves):
 *            no report created, every page with a report re-run (and once more for each suspected drop), the
 *            refused page refused again; worse / better / averages as the server's reports say; one email;
 *     run 3: the same address now answers a plain <urlset> with a single <url> (the XML node's one-element quirk),
 *            as application/octet-stream (HTTP Request's Autodetect would make it a file): one page re-run, one
 *            summary, one email.
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
import {
	sitemapIndexXml,
	startFileServer,
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
	loadExamples,
	NODE_TYPE,
	SITEMAP_EXAMPLE,
	testServerCredential,
	withHistoryTable,
	withSitemapUrl,
} from '../checks';
import {
	branches,
	type ExecuteResult,
	failureDetail,
	importCredentials,
	setupOwner,
	startServer,
	waitForExecution,
	type N8nSandbox,
} from '../n8n';
import { createDataTable, type DataTable, dataTableRows } from '../dataTable';
import type { RestSession } from '../rest';
import type { WorkflowJson } from '../workflow';
import { Fatal, same } from '../report';
import { SMTP_CRED, Suite } from '../suite';

const EXAMPLE_FILE = SITEMAP_EXAMPLE.file;
/** the example's node names */
const SITE = SITEMAP_EXAMPLE.site;
const INDEX_IF = 'Sitemap index?';
const PAGE_URL = 'Page URL';
const AUDIT = SITEMAP_EXAMPLE.audit;
const EMAIL = SITEMAP_EXAMPLE.email;
const TABLE = SITEMAP_EXAMPLE.table;
const { to: TO, from: FROM } = EXAMPLE_MAIL;

const PROJECT = 'shop.example.com';
const HOME = 'https://www.shop.example.com/';

const suite = new Suite('e2e-sitemap');
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

function siteReports(api: PhpRankServer): ReportRecord[] {
	return api.listReports(USER_IDS.default).filter((r) => r.project === PROJECT);
}

/** What the site summary must say about `reports` (one per page), computed from the records alone. */
function expectedHealth(reports: ReportRecord[]): Record<string, unknown> {
	const scores = reports.map((r) => r.result);
	const average = mean(scores);
	const highFailing = (r: ReportRecord) =>
		Object.values(r.results).some((c) => c.importance === 'high' && !c.passed);
	return {
		pages: reports.length,
		average_score: average,
		result_class: average === null ? null : classOf(average),
		good_pages: scores.filter((s) => classOf(s) === 'good').length,
		decent_pages: scores.filter((s) => classOf(s) === 'decent').length,
		bad_pages: scores.filter((s) => classOf(s) === 'bad').length,
		health_score: Math.round(
			(100 * reports.filter((r) => !highFailing(r)).length) / reports.length,
		),
	};
}

const pick = (item: Record<string, unknown> | undefined, keys: string[]) =>
	Object.fromEntries(keys.map((k) => [k, item?.[k]]));

/** Requests of the run by kind. */
function byKind(reqs: RecordedRequest[]) {
	return {
		lists: reqs.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports'),
		posts: reqs.filter((r) => r.method === 'POST' && r.path === '/api/v1/reports'),
		puts: reqs.filter((r) => r.method === 'PUT'),
		other: reqs.filter(
			(r) =>
				!(r.method === 'GET' && r.path === '/api/v1/reports') &&
				!(r.method === 'POST' && r.path === '/api/v1/reports') &&
				r.method !== 'PUT',
		),
	};
}

/** The one email of a run: from, to, subject, and an HTML body that is the summary's `summary_html`. */
async function checkMail(
	smtp: SmtpCatcher,
	summary: Record<string, unknown>,
): Promise<CaughtMail | undefined> {
	const mails = await smtp.waitFor(1, 10_000);
	await new Promise((r) => setTimeout(r, 500)); // time for a wrong second one
	check(
		'one email, no more',
		smtp.messages.length === 1,
		smtp.messages.map((m) => m.subject),
	);
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

/** The workflow saved as the editor's Import from File does; its id. */
async function saveWorkflow(session: RestSession, wf: WorkflowJson): Promise<string> {
	const body: Record<string, unknown> = { ...wf };
	delete body.id; // n8n gives a new workflow its id
	const created = await session.request<{ data: { id: string } }>('POST', '/rest/workflows', body);
	if (created.status !== 200)
		throw new Fatal(`workflow not saved: ${created.status} ${JSON.stringify(created.body)}`);
	return created.body.data.id;
}

/** The editor's "Execute workflow" from the Manual trigger, read from n8n's database as `n8n execute` answers. */
async function runInN8n(
	session: RestSession,
	sb: N8nSandbox,
	workflowId: string,
	trigger: string,
): Promise<ExecuteResult> {
	const started = Date.now();
	const res = await session.request<{ data: { executionId?: string } }>(
		'POST',
		`/rest/workflows/${workflowId}/run`,
		{ triggerToStartFrom: { name: trigger } },
	);
	const id = res.body?.data?.executionId;
	const exec = id ? await waitForExecution(sb, workflowId, id, 180_000) : undefined;
	return {
		ok: exec?.status === 'success',
		code: exec ? 0 : null,
		run: exec && ({ status: exec.status, data: exec.data } as unknown as ExecuteResult['run']),
		outputs: exec?.outputs ?? {},
		errorMessage: exec?.data.resultData?.error?.message,
		stdout: exec ? '' : `POST /run answered ${res.status} ${JSON.stringify(res.body)}`,
		stderr: '',
		durationMs: Date.now() - started,
	};
}

/** The row this run added to the data table: one row more, its figures the site item's. */
async function checkTableRow(
	session: RestSession,
	table: DataTable,
	runs: number,
	site: Record<string, unknown>,
): Promise<void> {
	const rows = await dataTableRows(session, table);
	const last = rows.at(-1) ?? {};
	const figures = SITEMAP_EXAMPLE.tableColumns
		.map((c) => c.name)
		.filter((name) => name !== 'run_at');
	const at = Date.parse(String(last.run_at));
	check(
		`the data table holds ${runs} row${runs === 1 ? '' : 's'}, one a run; the new one has the site's figures (${figures.join(', ')}) and the run's date`,
		rows.length === runs &&
			same(pick(last, figures), pick(site, figures)) &&
			Number.isFinite(at) &&
			Math.abs(Date.now() - at) < 10 * 60_000,
		{ rows: rows.length, last, site: pick(site, figures) },
	);
}

async function main(): Promise<void> {
	const example = loadExamples().get(EXAMPLE_FILE);
	if (!example) throw new Fatal(`examples/${EXAMPLE_FILE} is missing`);
	const { sb, allNodes: nodeTypes } = await suite.packageSandbox();

	section(
		'test server, sitemap server, SMTP catcher, credentials (n8n CLI), n8n start, the data table and the example (REST)',
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
	files.set('/sitemap-pages.xml', {
		body: urlsetXml(PAGES.filter((p) => p.sitemap === 'pages').map((p) => p.loc)),
		contentType: XML_TYPE,
	});
	files.set('/sitemap-blog.xml', {
		body: urlsetXml(PAGES.filter((p) => p.sitemap === 'blog').map((p) => p.loc)),
		contentType: XML_TYPE,
	});
	const sitemapUrl = `${files.origin}/sitemap.xml`;
	note(
		`phpRank test server ${api.url}, SMTP catcher 127.0.0.1:${smtp.port}, sitemap ${sitemapUrl} (an index of 2 sitemaps, ${PAGES.length} pages)`,
	);
	await timed(
		'n8n import:credentials',
		async () => await importCredentials(sb, [testServerCredential(api), smtpCred]),
	);
	const n8n = suite.n8n(await timed('n8n start', async () => await startServer(sb)));
	const session = await setupOwner(n8n);
	const table = await createDataTable(session, SITEMAP_EXAMPLE.tableName, [
		...SITEMAP_EXAMPLE.tableColumns,
	]);
	const wf = withHistoryTable(withSitemapUrl(example, sitemapUrl), table.id);
	const changed = example.nodes
		.filter(
			(n) =>
				!same(
					wf.nodes.find((m) => m.name === n.name),
					n,
				),
		)
		.map((n) => n.name);
	check(
		"the e2e workflow is the example with only the Site node's sitemap_url and the Data Table step's table ID swapped (same nodes, same connections)",
		same(changed.sort(), [TABLE, SITE].sort()) &&
			wf.nodes.length === example.nodes.length &&
			same(wf.connections, example.connections),
		changed,
	);
	checkExampleNodes(suite.report, { wf, example, nodeTypes, label: 'the example' });
	const audit = example.nodes.find((n) => n.name === AUDIT);
	check(
		'the example runs phpRank → Create or Re-Run of {{ $json.url }}, Output: One Item per Site, Confirm Drops on',
		audit?.type === NODE_TYPE &&
			audit.parameters.operation === 'createOrRerun' &&
			audit.parameters.url === '={{ $json.url }}' &&
			audit.parameters.output === 'sites' &&
			audit.parameters.confirmDrops === true,
		audit?.parameters,
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
	const tableNode = example.nodes.find((n) => n.name === TABLE);
	check(
		'the example adds each run to a data table: Data Table 1, Row → Insert, the table by ID, from the audit',
		tableNode?.type === 'n8n-nodes-base.dataTable' &&
			tableNode.typeVersion === 1 &&
			tableNode.parameters.resource === 'row' &&
			tableNode.parameters.operation === 'insert' &&
			(tableNode.parameters.dataTableId as { mode?: string } | undefined)?.mode === 'id' &&
			JSON.stringify(example.connections[AUDIT]).includes(TABLE),
		tableNode?.parameters,
	);
	const workflowId = await timed('save the workflow (POST /rest/workflows)', async () =>
		saveWorkflow(session, wf),
	);
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger')?.name ?? '';
	const runExample = async () => await runInN8n(session, sb, workflowId, trigger);
	// phpRank cannot fetch one page of the site: every POST of it is answered 422, as phpRank does.
	const refusal = CREATE_FAULTS.find((f) => f.status === 422)!.fault;
	api.failNext(refusal, {
		times: 1000,
		match: (r) =>
			r.method === 'POST' && r.path === '/api/v1/reports' && r.form.url === urlOf(REFUSED),
	});

	// ------------------------------------------------------------------ run 1: every page new
	section(
		'run 1 (Execute workflow in n8n): the sitemap index, every page new, one page phpRank cannot analyse',
	);
	const before = api.listReports(USER_IDS.default);
	for (const page of audited)
		api.setNextAnalysis(urlOf(page), {
			score: page.score,
			others: 'pass',
			failed: page.titleFails ? ['title'] : [],
		});
	api.clearRequests();
	const run1 = await timed('run 1 in n8n', runExample);
	if (!check('run 1 succeeds', run1.ok, failureDetail(run1))) throw new Fatal('run 1 failed');
	check(
		'the sitemap index was read, then each of its two sitemaps, once',
		same([...files.hits].sort(), ['/sitemap-blog.xml', '/sitemap-pages.xml', '/sitemap.xml']) &&
			files.hits[0] === '/sitemap.xml',
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
	const out1 = json(run1.outputs[AUDIT]);
	const sum1 = out1[0];
	check(
		'one output item: the site',
		out1.length === 1 && sum1?.project === PROJECT,
		out1.map((i) => i.project),
	);
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
	await checkTableRow(session, table, 1, sum1 ?? {});
	const mail1 = await checkMail(smtp, sum1 ?? {});
	if (mail1)
		note(`the email as caught: Subject: ${mail1.subject}\n         ${mail1.html.slice(0, 400)}…`);

	// ------------------------------------------------------------------ run 2: scripted changes
	section('run 2 (Execute workflow in n8n): a week later, scripted changes');
	const byUrl1 = new Map(site1.map((r) => [r.url, r]));
	for (const page of audited) {
		api.setNextAnalysis(urlOf(page), page.next!);
		if (page.confirm) api.setNextAnalysis(urlOf(page), page.confirm);
		note(`${cleanUrl(urlOf(page))}: ${page.what}`);
	}
	api.clearRequests();
	files.hits.length = 0;
	smtp.clear();
	const run2 = await timed('run 2 in n8n', runExample);
	if (!check('run 2 succeeds', run2.ok, failureDetail(run2))) throw new Fatal('run 2 failed');
	check(
		'the sitemaps were read again, once each',
		same([...files.hits].sort(), ['/sitemap-blog.xml', '/sitemap-pages.xml', '/sitemap.xml']),
		files.hits,
	);
	const after2 = api.listReports(USER_IDS.default);
	check(
		'no report created: the user holds the same reports as after run 1',
		same(
			after2.map((r) => r.id),
			after1.map((r) => r.id),
		),
		{ after1: after1.length, after2: after2.length },
	);
	const reqs2 = byKind(apiRequests(api));
	const suspected = audited.filter((p) => p.confirm);
	const expectedPuts = audited
		.flatMap((p) =>
			Array<string>(p.confirm ? 2 : 1).fill(
				`/api/v1/reports/${byUrl1.get(cleanUrl(urlOf(p)))?.id}`,
			),
		)
		.sort();
	check(
		`one PUT results=1 per page with a report (${audited.length}), one more per suspected drop (${suspected.length}), no other`,
		same(reqs2.puts.map((r) => r.path).sort(), expectedPuts) &&
			reqs2.puts.every((r) => r.form.results === '1' && r.status === 200),
		describeRequests(reqs2.puts),
	);
	check(
		`the only POST is the refused page's, answered 422 again; one list request (project ${PROJECT})`,
		same(
			reqs2.posts.map((r) => [r.form.url, r.status]),
			[[urlOf(REFUSED), 422]],
		) &&
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
	const out2 = json(run2.outputs[AUDIT]);
	const sum2 = out2[0];
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
		'one output item: the site',
		out2.length === 1 && sum2?.project === PROJECT,
		out2.map((i) => i.project),
	);
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
	await checkTableRow(session, table, 2, sum2 ?? {});
	await checkMail(smtp, sum2 ?? {});

	// ------------------------------------------------------------------ run 3: a plain sitemap of one page
	section(
		'run 3 (Execute workflow in n8n): the same address answers a plain <urlset> with a single <url>, as application/octet-stream',
	);
	const contact = PAGES.find((p) => p.loc.endsWith('/contact'))!;
	// served as a file download, as some static hosts do: the example reads the answer as text whatever its type
	files.set('/sitemap.xml', {
		body: urlsetXml([contact.loc]),
		contentType: 'application/octet-stream',
	});
	const contactReport = site2.find((r) => r.url === cleanUrl(urlOf(contact)))!;
	api.setNextAnalysis(urlOf(contact), { score: 81, others: 'keep' });
	api.clearRequests();
	files.hits.length = 0;
	smtp.clear();
	const run3 = await timed('run 3 in n8n', runExample);
	if (!check('run 3 succeeds', run3.ok, failureDetail(run3))) throw new Fatal('run 3 failed');
	const [index3, plain3] = branches(run3, INDEX_IF);
	check(
		'Sitemap index?: the plain sitemap went straight on; only /sitemap.xml was read',
		index3.length === 0 && plain3.length === 1 && same(files.hits, ['/sitemap.xml']),
		{ true: index3.length, false: plain3.length, hits: files.hits },
	);
	check(
		'Page URL: one item, the one page (a single <url> is a list of one, not its fields)',
		same(
			json(run3.outputs[PAGE_URL]).map((i) => i.url),
			[urlOf(contact)],
		),
		json(run3.outputs[PAGE_URL]),
	);
	const reqs3 = byKind(apiRequests(api));
	check(
		"one list request and one PUT results=1, of that page's report",
		reqs3.lists.length === 1 &&
			same(
				reqs3.puts.map((r) => r.path),
				[`/api/v1/reports/${contactReport.id}`],
			) &&
			reqs3.posts.length === 0 &&
			reqs3.other.length === 0,
		describeRequests(apiRequests(api)),
	);
	const sum3 = json(run3.outputs[AUDIT]);
	check(
		'one site item: 1 page, 0 created, 1 re-run',
		sum3.length === 1 &&
			same(pick(sum3[0], ['project', 'pages', 'created', 'rerun']), {
				project: PROJECT,
				pages: 1,
				created: 0,
				rerun: 1,
			}),
		sum3.map((i) => pick(i, ['project', 'pages', 'created', 'rerun'])),
	);
	await checkTableRow(session, table, 3, sum3[0] ?? {});
	await checkMail(smtp, sum3[0] ?? {});
}

suite.run(main);
