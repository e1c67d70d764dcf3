/**
 * `npm run test:e2e:form`: examples/lead-audit-form.json inside a REAL n8n (2.41.1 on Node 24), as a
 * visitor meets it: the package installed as README says, a phpRank and an SMTP credential, the data table
 * its sticky note asks for, the example with only the table's ID and the report link's address set,
 * published; then the form loaded and submitted over HTTP as its page's script does (multipart):
 *   a public URL: the ending page shows the test server's score, class, three most important failed
 *   checks and report link; one mail to the visitor; one data table row; the execution ends in success;
 *   the same URL again within 24 hours: the same, and no analysis request (the list read only);
 *   each kind of refused URL, and one phpRank answers 422: the plain page, nothing sent (the 422: its
 *   create only), no mail, no row.
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure. Env: KEEP_SANDBOX=1.
 */
import { expectedTopFailed } from '../../../test/harness/expected';
import {
	apiRequests,
	checkExampleNodes,
	describeRequests,
	loadExample,
	testServerCredential,
	type WorkflowJson,
} from '../checks';
import {
	endingText,
	FORM_EXAMPLE,
	formWorkflow,
	leadRows,
	publishFormExample,
	submitForm,
	type LeadsTable,
	type Submission,
} from '../form';
import type { SmtpCatcher } from '../catchers';
import { startServer, type ExportedNodeType, type N8nSandbox } from '../n8n';
import { Fatal } from '../report';
import { setupOwner, type RestSession } from '../rest';
import { Suite } from '../suite';

const suite = new Suite('form');
const { check, section, note, timed, api } = suite;
/** What phpRank got since the last clearRequests: its methods (`GET POST`), and in full. */
const methods = () =>
	apiRequests(api)
		.map((r) => r.method)
		.join(' ');
const sentToPhpRank = () => describeRequests(apiRequests(api));

const VISITOR = 'visitor@example.org';
const PUBLIC_URL = 'https://shop.example.com/pricing';
const REFUSED: Array<[string, string]> = [
	['localhost', 'http://localhost:8080/admin'],
	['a loopback address', 'http://127.0.0.1/'],
	['a loopback address in decimal', 'http://2130706433/'],
	['a private address', 'http://10.0.0.7/'],
	['a private address (192.168)', 'http://192.168.1.1/'],
	['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
	['IPv6 loopback', 'http://[::1]/'],
	['not http(s)', 'ftp://example.com/file'],
	['over 2,000 characters', `https://example.com/${'a'.repeat(2000)}`],
];
// phpRank cannot fetch it (422); its markup must reach the page as text.
const UNREACHABLE = 'https://down.invalid/?q=<b>bold</b>';

/** The three most important failed checks in words: the node's `top_failed_checks`, which the example writes with spaces. */
const topProblems = (results: Parameters<typeof expectedTopFailed>[0]) =>
	expectedTopFailed(results).replaceAll('_', ' ');

function checkAudited(label: string, sent: Submission, reportId: number): void {
	const report = api.getReport(reportId);
	if (!report) throw new Fatal(`no report ${reportId} on the test server`);
	const cls = report.result > 79 ? 'good' : report.result >= 49 ? 'decent' : 'bad';
	const text = endingText(sent.endingHtml);
	check(
		`${label}: the ending page (HTTP ${sent.endingStatus}) shows the test server's score and class`,
		sent.endingStatus === 200 && text.includes(`Your SEO score: ${report.result}/100 (${cls})`),
		text,
	);
	check(
		`${label}: … its three most important failed checks and the report's link`,
		text.includes(`Fix these first: ${topProblems(report.results)}`) &&
			sent.endingHtml.includes(`href="${api.url}/reports/${reportId}"`),
		text,
	);
	check(
		`${label}: the execution ends in success`,
		sent.finalStatus === 'success',
		sent.finalStatus,
	);
}

/** What the visits share: the SMTP catcher, the owner's session, the published form and its data table. */
interface FormCtx {
	smtp: SmtpCatcher;
	session: RestSession;
	formUrl: string;
	table: LeadsTable;
}

async function main(): Promise<void> {
	const example = loadExample(FORM_EXAMPLE.file);
	const { sb, allNodes } = await suite.packageSandbox();
	const ctx = await publishTheForm(sb, example, allNodes);
	const first = await checkFirstVisit(ctx);
	await checkSameUrlAgain(ctx, first);
	await checkWithCompetitor(ctx);
	await checkRefusedUrls(ctx);
}

/** The test server, the SMTP catcher, the credentials, n8n, the data table; the example published, its form served. */
async function publishTheForm(
	sb: N8nSandbox,
	example: WorkflowJson,
	allNodes: ExportedNodeType[],
): Promise<FormCtx> {
	section('test server, SMTP catcher, credentials, n8n, the data table, the example published');
	await api.start();
	const { catcher: smtp, credential: smtpCredential } = await suite.smtp();
	const n8n = suite.n8n(await timed('n8n start', () => startServer(sb)));
	const session = await setupOwner(n8n);
	await session.addCredentials([testServerCredential(api), smtpCredential]);
	const form = await timed('data table, import, publish', async () =>
		publishFormExample(session, example),
	);
	const { formUrl, table } = form;
	checkExampleNodes(suite.report, {
		wf: formWorkflow(example, table),
		example,
		nodeTypes: allNodes,
		label: 'the e2e workflow',
	});
	check(
		"the example is published (the editor's Publish)",
		form.publishStatus === 200,
		form.publishStatus,
	);
	const page = await fetch(formUrl);
	const html = await page.text();
	check(
		`GET /form/${FORM_EXAMPLE.path}: the form with Website, Email and the consent box`,
		page.status === 200 &&
			['field-0', 'field-1', 'field-2', 'Website', 'Email', FORM_EXAMPLE.consent].every((s) =>
				html.includes(s),
			),
		page.status,
	);
	return { smtp, session, formUrl, table };
}

/** The first visit's submission, its report, and how many requests it made. */
type FirstVisit = { first: Submission; reportId: number; firstRequests: number };

/** A visitor audits a public URL: one analysis, the ending page, a mail, a row. */
async function checkFirstVisit(ctx: FormCtx): Promise<FirstVisit> {
	const { smtp, session, formUrl, table } = ctx;
	section('a visitor audits a public URL (multipart, as the form page posts it)');
	api.clearRequests();
	const first = await timed('submit, ending page', async () =>
		submitForm(formUrl, { website: PUBLIC_URL, email: VISITOR }),
	);
	const created = api.listReports();
	check(
		'one report created for the URL',
		created.length === 1,
		created.map((r) => r.url),
	);
	check(
		"requests: the site's list once, one analysis (create)",
		methods() === 'GET POST',
		sentToPhpRank(),
	);
	const firstRequests = apiRequests(api).length;
	checkAudited('first visit', first, created[0].id);
	const mails = await smtp.waitFor(1, 15_000);
	check(
		"one mail, to the visitor, with the score, the checks in words and the report's link on the instance",
		mails.length === 1 &&
			mails[0].to.includes(VISITOR) &&
			mails[0].subject.includes(`${created[0].result}/100`) &&
			mails[0].text.includes(`Fix these first: ${topProblems(created[0].results)}\n`) &&
			mails[0].text.includes(`The full report: ${api.url}/reports/${created[0].id}\n`),
		mails.map((m) => ({ to: m.to, subject: m.subject })),
	);
	const rows = await leadRows(session, table);
	check(
		'the data table holds one row: URL, e-mail, score, date',
		rows.length === 1 &&
			rows[0].url === PUBLIC_URL &&
			rows[0].email === VISITOR &&
			rows[0].score === created[0].result &&
			!Number.isNaN(Date.parse(String(rows[0].audited_at))),
		rows,
	);
	return { first, reportId: created[0].id, firstRequests };
}

/** The same URL again within 24 hours: no analysis, the same report. */
async function checkSameUrlAgain(
	{ smtp, session, formUrl, table }: FormCtx,
	{ first, reportId, firstRequests }: FirstVisit,
): Promise<void> {
	// Typed as visitors type it, without https://: the node adds it, and it is the same page.
	const typed = PUBLIC_URL.replace(/^https:\/\//, '');
	section(`the same URL again within 24 hours, typed "${typed}" (Reuse Recent Analysis)`);
	api.clearRequests();
	const again = await timed('submit again, ending page', async () =>
		submitForm(formUrl, { website: typed, email: VISITOR }),
	);
	check(
		"no analysis request: the site's list read, nothing else",
		methods() === 'GET',
		sentToPhpRank(),
	);
	checkAudited('second visit', again, reportId);
	const secondRequests = apiRequests(api).length;
	check(
		'two mails, two rows',
		(await smtp.waitFor(2, 15_000)).length === 2 && (await leadRows(session, table)).length === 2,
	);
	note(
		`figures: first submission ${firstRequests} requests to phpRank (1 analysis), ${first.ms} ms to the ending page; ` +
			`the same URL again ${secondRequests} request (0 analyses), ${again.ms} ms`,
	);
}

const RIVAL = 'https://www.rival.example.org/pricing';
const NEW_VISITOR = 'https://new-shop.example.com/pricing';

/**
 * What the comparison's first two lines must say, from the test server's reports: the rival passes
 * every check, so it leads on each check the visitor's page fails, the most important level first.
 */
function expectedComparison(mine: number, rivalId: number, yours: string): string[] {
	const you = api.getReport(mine)!;
	const rival = api.getReport(rivalId)!;
	const order = ['high', 'medium', 'low'];
	const failed = Object.entries(you.results).filter(([, c]) => !c.passed);
	const level = order.find((importance) => failed.some(([, c]) => c.importance === importance));
	const names = failed
		.filter(([, c]) => c.importance === level)
		.map(([name]) => name)
		.sort((a, b) => a.localeCompare(b));
	const gap = rival.result - you.result;
	const verdict =
		Math.abs(gap) <= 3
			? `tie (${gap > 0 ? '+' : gap < 0 ? '−' : '±'}${Math.abs(gap)})`
			: `${gap > 0 ? 'ahead' : 'behind'} by ${Math.abs(gap)}`;
	return [
		level === undefined
			? 'Your competitor passes no check your page fails.'
			: `Your competitor passes ${names.length} ${level} check${names.length === 1 ? '' : 's'} you fail: ${names.join(', ')}.`,
		`Scores: you ${you.result} (${yours}); ${RIVAL} ${rival.result}, ${verdict}.`,
	];
}

/** A new visitor with a new competitor: the comparison leads; an internal one: why, in plain words. */
async function checkWithCompetitor({ smtp, session, formUrl, table }: FormCtx): Promise<void> {
	section("a new visitor adds a new competitor's website (Compare With Competitors)");
	api.setNextAnalysis(RIVAL, { score: 97, failed: [], others: 'pass' });
	api.clearRequests();
	const sent = await timed('submit with a competitor, ending page', async () =>
		submitForm(formUrl, { website: NEW_VISITOR, email: VISITOR, competitor: RIVAL }),
	);
	const report = (url: string) => api.listReports().find((r) => r.url === url);
	const [rival, mine] = [
		report('rival.example.org/pricing'),
		report('new-shop.example.com/pricing'),
	];
	if (!rival || !mine) throw new Fatal("no report of the visitor's or the competitor's page");
	const lines = expectedComparison(mine.id, rival.id, NEW_VISITOR);
	const text = endingText(sent.endingHtml);
	note(`ending page: ${text.slice(0, 400)}`);
	check(
		"the ending page leads with the comparison (what the competitor passes and the visitor's page fails, both scores), then the audit",
		text.includes(`${lines[0]} ${lines[1]}`) &&
			text.indexOf(lines[0]) < text.indexOf('Fix these first:'),
		{ text: text.slice(0, 400), lines },
	);
	checkAudited('with a competitor', sent, mine.id);
	check(
		"5 requests: the visitor's site read by the audit and by the comparison (its new report reused), the competitor's read, two creates",
		methods().split(' ').sort().join(' ') === 'GET GET GET POST POST',
		sentToPhpRank(),
	);
	const mails = await smtp.waitFor(3, 15_000);
	check(
		'the mail leads with the comparison',
		mails.length === 3 && mails[2].text.includes(`Hello,\n\n${lines.join('\n')}\n\nthank you`),
		mails[2]?.text.slice(0, 400),
	);
	const rows = await leadRows(session, table);
	check(
		'the data table row holds the comparison',
		rows.length === 3 && rows[2].comparison === lines.join('\n'),
		rows[2],
	);
	api.clearRequests();
	const internal = await submitForm(formUrl, {
		website: PUBLIC_URL,
		email: VISITOR,
		competitor: 'http://192.168.1.10/admin',
	});
	const internalText = endingText(internal.endingHtml);
	const why = `We could not compare your website with http://192.168.1.10/admin: it is not the address of a public website that anyone can open, so we did not analyse it.`;
	check(
		"an internal competitor's address (Public URLs Only): nothing sent for it; the page says why in plain words, then the audit",
		internalText.startsWith('Your SEO score:') &&
			internalText.indexOf(why) >= 0 &&
			internalText.indexOf(why) < internalText.indexOf('Fix these first:') &&
			methods() === 'GET' &&
			internal.finalStatus === 'success',
		{ text: internalText.slice(0, 300), requests: sentToPhpRank() },
	);
	const mail = (await smtp.waitFor(4, 15_000))[3];
	check(
		'  its mail and row say the same',
		mail?.text.includes(`Hello,\n\n${why}\n\nthank you`) &&
			(await leadRows(session, table))[3]?.comparison === why,
		{ mail: mail?.text.slice(0, 300), row: (await leadRows(session, table))[3] },
	);
}

async function checkRefusedUrls({ smtp, session, formUrl, table }: FormCtx): Promise<void> {
	section('refused URLs and a URL phpRank cannot fetch end on the plain page');
	for (const [what, url] of [
		...REFUSED,
		['phpRank answers 422', UNREACHABLE] as [string, string],
	]) {
		api.clearRequests();
		const mailsBefore = smtp.messages.length;
		const sent = await submitForm(formUrl, { website: url, email: VISITOR });
		const text = endingText(sent.endingHtml);
		const requests = methods();
		const nothingSent = url === UNREACHABLE ? requests === 'GET POST' : requests === '';
		check(
			`${what}: the plain page (HTTP ${sent.endingStatus}), ${url === UNREACHABLE ? 'only the failed create sent' : 'nothing sent to phpRank'}, no mail`,
			sent.postStatus === 200 &&
				sent.endingStatus === 200 &&
				text.startsWith(FORM_EXAMPLE.refusedTitle) &&
				nothingSent &&
				smtp.messages.length === mailsBefore &&
				sent.finalStatus === 'success' &&
				!sent.endingHtml.includes('<b>bold</b>'),
			{ text: text.slice(0, 200), requests, status: sent.finalStatus },
		);
	}
	const finalRows = await leadRows(session, table);
	check('the data table still holds the four leads only', finalRows.length === 4, finalRows.length);
}

suite.run(main);
