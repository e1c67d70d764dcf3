/**
 * `npm run test:e2e:digest`: Get Health → All Projects → Output: One Digest, and
 * examples/weekly-agency-digest.json, inside a REAL n8n (2.41.1 on Node 24) installed as README says.
 *
 *   the test server holds 12 projects (one named `<script>alert(1)</script>`, 3 not analysed for 10 days) ->
 *   `n8n start` with its public API on, an API key made as Settings → n8n API makes it, a real data table
 *   "phpRank site history" with the columns Create or Re-Run writes, filled with four weeks of runs for 9 of
 *   the sites (test/server/digestAccount.ts) -> the example saved as the editor imports it, its Schedule
 *   Trigger swapped for every minute at a fixed second, published: its production run's digest equals the
 *   server's and the table's own figures, worst first; one list request to phpRank (the floor); its e-mail
 *   (a local SMTP catcher) is the digest's summary_html; that HTML rendered in Chromium (a screenshot) shows
 *   the `<script>` project name as text and one row per site.
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1, E2E_TARBALL, CHROMIUM_PATH (default /usr/bin/chromium).
 */

import { HISTORY_COLUMNS } from '../../../nodes/PhpRank/history/model';
import {
	accountFixture,
	expectedDigest,
	SCRIPT_PROJECT,
	type Row,
} from '../../../test/server/digestAccount';
import { startWithN8nApi } from '../apiKey';
import { nthExecution } from '../db';
import {
	apiRequests,
	checkExampleNodes,
	json,
	loadExample,
	testServerCredential,
	withSchedule,
} from '../checks';
import { createDataTable, publicTables } from '../dataTable';
import { Fatal, same } from '../report';
import { saveAndPublish } from '../rest';
import { Suite } from '../suite';
import type { WorkflowJson } from '../workflow';

const suite = new Suite('digest', { editor: false });
const { check, section, note, timed, api } = suite;

const EXAMPLE_FILE = 'weekly-agency-digest.json';
const SCHEDULE = 'Every Monday at 08:00';
const DIGEST = 'Digest of every site';
const EMAIL = 'Email the digest';
const TABLE = 'phpRank site history';

function checkExample(example: WorkflowJson) {
	const digest = example.nodes.find((n) => n.name === DIGEST);
	check(
		'the example runs phpRank → Get Health, All Projects, Output: One Digest, E-Mail HTML, History Store → Data Table by name',
		digest?.parameters.operation === 'getHealth' &&
			digest.parameters.allProjects === true &&
			digest.parameters.output === 'digest' &&
			same(digest.parameters.siteOptions, { emailHtml: true, staleAfter: 8 }) &&
			digest.parameters.historyStore === 'dataTable' &&
			same(digest.parameters.historyTable, { __rl: true, mode: 'name', value: TABLE }),
		digest?.parameters,
	);
	const email = example.nodes.find((n) => n.name === EMAIL);
	check(
		'it e-mails summary_html as HTML',
		email?.parameters.emailFormat === 'html' &&
			email.parameters.html === '={{ $json.summary_html }}',
		email?.parameters,
	);
	const notes = example.nodes
		.filter((n) => n.type === 'n8n-nodes-base.stickyNote')
		.map((n) => String(n.parameters.content));
	check(
		'a sticky note says what to set and what it costs in requests',
		notes.some(
			(c) =>
				c.includes('phpRank History Store API') &&
				c.includes('Cost: one request to phpRank per 100 reports'),
		),
		notes,
	);
}

function checkDigest(
	digest: Record<string, unknown>,
	rows: Row[],
	reports: ReturnType<typeof api.listReports>,
) {
	const expected = expectedDigest(reports, rows, api.url, Date.now());
	check(
		'the digest has the 12 sites, worst first, each equal to the server’s figures and the table’s changes and issue ages',
		same(digest.sites, expected.sites),
		{ got: (digest.sites as unknown[])?.slice(0, 2), expected: expected.sites.slice(0, 2) },
	);
	const totals = Object.fromEntries(Object.keys(expected.totals).map((k) => [k, digest[k]]));
	check(
		`the totals are the server’s and the table’s: ${JSON.stringify(expected.totals)}`,
		same(totals, expected.totals),
		totals,
	);
	check(
		'9 sites with changes, 3 stale',
		(digest.sites as Array<Record<string, unknown>>).filter((s) => s.change_4_runs !== null)
			.length === 9 && digest.stale_sites === 3,
	);
	const requests = apiRequests(api);
	check(
		`one list read of every report: ${Math.ceil(reports.length / 100)} request(s) to phpRank (the floor)`,
		requests.length === Math.ceil(reports.length / 100) &&
			requests.every((r) => r.method === 'GET' && r.path === '/api/v1/reports'),
		requests.map((r) => `${r.method} ${r.path}`),
	);
}

async function checkRendered(html: string, sites: number) {
	const page = await suite.renderHtml(html, 'digest-summary-html');
	const text = await page.locator('body').innerText();
	check(
		'rendered in Chromium: the project named <script>alert(1)</script> shows as text, and no script is in the page',
		text.includes(SCRIPT_PROJECT) && (await page.locator('script').count()) === 0,
		text.slice(0, 300),
	);
	check(
		`one table row per site (${sites}), each with its link`,
		(await page.locator('tr a[href]').count()) === sites,
	);
}

async function main(): Promise<void> {
	const example = loadExample(EXAMPLE_FILE);
	const { sb, allNodes } = await suite.packageSandbox();
	section('the account, SMTP catcher, n8n with its public API, the history table');
	const account = accountFixture(api, Date.now());
	await api.start();
	const { catcher: smtp, credential: smtpCred } = await suite.smtp();
	const {
		n8n,
		session,
		key: apiKey,
	} = await timed(
		'n8n start (public API on), its owner, an API key, the n8n API credential imported',
		async () => startWithN8nApi(suite, sb, { label: 'phprank e2e digest' }),
	);
	await session.addCredentials([testServerCredential(api), smtpCred]);
	const table = await createDataTable(session, TABLE, [...HISTORY_COLUMNS]);
	const tables = publicTables(n8n.baseUrl, apiKey);
	await tables.addRows(table.id, account.rows);
	const rows = await tables.rows<Row>(table.id);
	check(
		`the table holds the ${account.rows.length} rows of 9 sites`,
		rows.length === account.rows.length,
		rows.length,
	);
	note(`phpRank test server ${api.url}: ${api.listReports().length} reports; n8n ${n8n.baseUrl}`);

	section('the example as published: its Schedule Trigger every minute');
	checkExample(example);
	// its Schedule Trigger every minute at a second 20 s ahead (UTC), instead of Mondays at 08:00
	const second = (new Date().getUTCSeconds() + 20) % 60;
	const wf = withSchedule(example, EXAMPLE_FILE, `${second} * * * * *`, SCHEDULE);
	checkExampleNodes(suite.report, { wf, example, nodeTypes: allNodes, label: 'the example' });
	api.clearRequests();
	const { id: workflowId, published } = await saveAndPublish(session, wf);
	if (!check('the workflow is published', published.status === 200, published.body))
		throw new Fatal('not published');
	const exec = await timed('its first scheduled run', async () =>
		nthExecution(sb, workflowId, 'trigger', 1, 150_000),
	);
	if (!exec) throw new Fatal('the schedule did not run within 150 s');
	await session.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
	check('the scheduled run succeeds', exec.status === 'success', exec.data.resultData?.error);
	const [digest] = json(exec.outputs[DIGEST]);
	if (!digest) throw new Fatal('no digest item');
	checkDigest(digest, rows, api.listReports());
	check('the table is as it was: the digest reads only', same(await tables.rows(table.id), rows));

	section('the e-mail, and its HTML in Chromium');
	const [mail] = await smtp.waitFor(1, 10_000);
	check(
		'one e-mail whose HTML body is the digest’s summary_html',
		mail !== undefined && mail.html === digest.summary_html,
		mail?.subject,
	);
	check(
		`subject: "phpRank weekly digest: 12 sites, ${String(digest.worse_sites)} worse, 3 stale"`,
		mail?.subject ===
			`phpRank weekly digest: 12 sites, ${String(digest.worse_sites)} worse, 3 stale`,
		mail?.subject,
	);
	await checkRendered(String(digest.summary_html), 12);
}

suite.run(main);
