/**
 * `npm run test:e2e:history`: a site over months (Create or Re-Run, One Item per Site) in a REAL n8n (2.41.1),
 * as users meet it: a published workflow started by a webhook (production executions) audits one site five
 * times with scripted changes on the test server. Each run's record equals the server's own figures; a manual
 * run in between (the editor's "Execute workflow") shows the history, adds nothing and says so; a run while
 * phpRank is down adds nothing; Retry On Fail after a lost answer adds one record, not two; the history
 * survives an n8n restart; issue ages equal the scripted streaks. History Store → Data Table on this n8n, whose
 * public API is off as n8n ships, fails before any phpRank request, saying so.
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1 (keep the temp n8n folder for debugging).
 */

import { siteFigures, type SiteFigures } from '../../../test/server';
import { MONTHS, historyOf, scriptRun } from '../../../test/harness/siteOverMonths';
import { apiRequests, callWebhook, describeRequests, testServerCredential } from '../checks';
import { login, setupOwner, startServer, type N8nSandbox } from '../n8n';
import type { RestSession } from '../rest';
import {
	loseCreateAnswerOnce,
	manualRun,
	production,
	siteWorkflow,
	type Site,
} from '../siteHistory';
import { Suite } from '../suite';

const suite = new Suite('history', { editor: false });
const { check, section, note, api } = suite;

const WF_ID = 'phprankHistory01';
const HOOK = 'phprank-history';
const SITE = 'months.example.com';
const PAGES = ['/', '/pricing', '/blog'].map((p) => `https://${SITE}${p}`);
/** A second site, in the Retry On Fail run only: its list answer is lost once. */
const OTHER = 'https://second.example.com/';
const START = Date.parse('2026-01-05T08:00:00Z');

/** An agency name holding markup: the e-mail must show it as text. */
const AGENCY = 'Acme <script>alert(1)</script> & Co';
const BRANDING = {
	agencyName: AGENCY,
	accentColor: '#0a7d5a',
	introText: 'Your site, week by week.',
};

const historyWorkflow = siteWorkflow({
	id: WF_ID,
	name: 'e2e: a site over months',
	hook: HOOK,
	pages: PAGES,
	parameters: { siteOptions: { emailHtml: true }, reportBranding: BRANDING },
});

/** Scripts each page's next analysis (run `run`, a week apart, each page a second after the one before). */
const script = (run: number, month = MONTHS[run]) =>
	scriptRun(api, PAGES, { start: START, run, ...month });
const checksOf = (list: unknown) => ((list ?? []) as Site[]).map((issue) => issue.check);

/** One production run: the history grows by one record, this run last, each record the server's figures. */
async function checkRun(baseUrl: string, records: SiteFigures[], label: string): Promise<Site> {
	const site = await production(suite, baseUrl, HOOK, PAGES);
	records.push(siteFigures(api, SITE));
	check(
		`${label}: history holds ${records.length} records, each equal to the test server's figures; history_saved`,
		JSON.stringify(historyOf(site)) === JSON.stringify(records) && site.history_saved === true,
		{ history: historyOf(site), expected: records, history_saved: site.history_saved },
	);
	return site;
}

async function main(): Promise<void> {
	const { sb } = await suite.packageSandbox();
	await api.start();
	let n8n = suite.n8n(await startServer(sb));
	const session = await setupOwner(n8n);
	await session.addCredentials([testServerCredential(api)]);
	await session.publish(historyWorkflow);
	const records: SiteFigures[] = [];

	section('runs 1-2: production runs started by a webhook');
	for (const run of [0, 1]) {
		script(run);
		await checkRun(n8n.baseUrl, records, `run ${run + 1}`);
	}

	section('a manual run between them');
	script(1.5, MONTHS[1]);
	const manual = await manualRun(session, sb, WF_ID);
	check(
		'the manual run succeeds (mode manual), shows the history so far and this run last, and says it is not saved',
		manual.exec?.status === 'success' &&
			manual.exec.mode === 'manual' &&
			historyOf(manual.site).length === records.length + 1 &&
			manual.site.history_saved === false &&
			String(manual.site.summary_text).includes('not saved'),
		{ status: manual.exec?.status, mode: manual.exec?.mode, site: manual.site },
	);

	await publicApiOff(session, sb);

	section('a run while phpRank is down');
	let down = true;
	api.failNext(
		{ type: 'status', status: 500 },
		{ times: 1_000, match: (req) => down && req.path.includes('/api/') },
	);
	const failed = await callWebhook(`${n8n.baseUrl}/webhook/${HOOK}`, { urls: PAGES });
	down = false;
	// 500, not 503: an outage (502-504) is waited out for up to Wait Out Outages before the run fails.
	check('the run fails (phpRank answers 500 to everything)', failed.status >= 500, failed);

	section('run 3: the history has two records before it, not three or four');
	script(2);
	await checkRun(n8n.baseUrl, records, 'run 3');

	section('run 4: Retry On Fail after a lost answer');
	// A second site joins this run; its create's answer is lost once (loseCreateAnswerOnce). The first site's
	// record of this execution is written once, however many tries.
	script(3);
	loseCreateAnswerOnce(api, OTHER);
	const retried = await production(suite, n8n.baseUrl, HOOK, [...PAGES, OTHER]);
	records.push(siteFigures(api, SITE));
	const otherReports = api.listReports().filter((r) => r.project === 'second.example.com');
	const others = apiRequests(api).filter(
		(r) =>
			(r.method === 'POST' && r.form.url?.includes('second.example.com')) ||
			(r.method === 'PUT' && otherReports.some((o) => r.path.endsWith(`/reports/${o.id}`))),
	);
	check(
		'the second site: its create answered by a reset, then (Retry On Fail) re-run, one report in all',
		others.length === 2 &&
			others[0].method === 'POST' &&
			others[0].status === undefined &&
			others[1].method === 'PUT' &&
			otherReports.length === 1,
		describeRequests(others),
	);
	check(
		`run 4 (its first try failed): history holds ${records.length} records, not ${records.length + 1}, each the server's figures`,
		JSON.stringify(historyOf(retried)) === JSON.stringify(records) &&
			retried.history_saved === true,
		{ history: historyOf(retried), expected: records },
	);

	section('n8n restarted; run 5');
	await n8n.stop();
	n8n = suite.n8n(await startServer(sb));
	await login(n8n);
	script(4);
	const last = await checkRun(n8n.baseUrl, records, 'run 5, after the restart');
	const open = (last.open_issues ?? []) as Site[];
	const favicon = open.find((issue) => issue.check === 'favicon');
	check(
		'issue ages equal the scripted streaks: favicon failing since run 1 (5 runs), robots new, title resolved after 3 runs',
		favicon?.failing_since === records[0].date &&
			favicon?.age_runs === 5 &&
			JSON.stringify(checksOf(last.new_issues)) === '["robots"]' &&
			JSON.stringify(checksOf(last.resolved_issues)) === '["title"]' &&
			((last.resolved_issues as Site[])[0]?.age_runs ?? 0) === 3,
		{ open, new: last.new_issues, resolved: last.resolved_issues },
	);
	check(
		'first_run_at is run 1, change_since_first and change_4_runs from the records',
		last.first_run_at === records[0].date &&
			last.change_since_first ===
				Math.round((records[4].average_score - records[0].average_score) * 10) / 10 &&
			last.change_4_runs ===
				Math.round((records[4].average_score - records[0].average_score) * 10) / 10,
		last,
	);
	note(`history_text after five runs: ${String(last.history_text)}`);
	await twelveRuns(n8n.baseUrl, records);
	await n8n.stop();
}

/**
 * History Store → Data Table on an n8n whose public API is off (N8N_PUBLIC_API_DISABLED=true, the sandbox's
 * default, as n8n ships): the run fails before any phpRank request and the error names the public API. n8n then
 * answers every key 401, a key made while it was on too (NOTES.md, "The public API's data tables").
 */
async function publicApiOff(session: RestSession, sb: N8nSandbox): Promise<void> {
	section('History Store → Data Table with the public API off');
	const cred = await session.createCredential({
		name: 'phpRank History Store API (public API off)',
		type: 'phpRankN8nApi',
		data: { baseUrl: session.baseUrl, apiKey: 'n8n_api_any-key-meets-401' },
	});
	const wf = siteWorkflow({
		name: 'e2e: history table, public API off',
		hook: `${HOOK}-table`,
		pages: PAGES,
		n8nApi: { id: cred.id, name: cred.name },
		parameters: { historyStore: 'dataTable', historyTable: { mode: 'name', value: 'history' } },
	});
	const id = await session.save(wf, false);
	api.clearRequests();
	const run = await manualRun(session, sb, id);
	note(`public API off: ${run.error}`);
	check(
		'N8N_PUBLIC_API_DISABLED=true: the run fails before any phpRank request, the error names the public API',
		run.exec?.status === 'error' &&
			/N8N_PUBLIC_API_DISABLED|public API/.test(run.error) &&
			apiRequests(api).length === 0,
		{ status: run.exec?.status, error: run.error, phpRank: describeRequests(apiRequests(api)) },
	);
}

/** Seven runs more (twelve in all), then the last run's summary_html rendered in Chromium. */
async function twelveRuns(baseUrl: string, records: SiteFigures[]): Promise<void> {
	section('runs 6-12, and the e-mail of a 12-run history in Chromium');
	let site: Site = {};
	for (let run = 5; run < 12; run++) {
		const scores = PAGES.map((_, i) => 60 + ((run * 7 + i * 5) % 35));
		script(run, { scores, failing: [['favicon'], run % 3 === 0 ? ['title'] : [], []] });
		site = await production(suite, baseUrl, HOOK, PAGES);
		records.push(siteFigures(api, SITE));
	}
	check(
		"after 12 runs: history holds the 12 records (History Length 12), each the server's figures",
		JSON.stringify(historyOf(site)) === JSON.stringify(records.slice(-12)),
		{ history: historyOf(site), expected: records.slice(-12) },
	);
	const page = await suite.renderHtml(String(site.summary_html), 'history-summary-html');
	const text = await page.locator('body').innerText();
	check(
		'the agency name holding <script> shows as text, and no script is in the page',
		text.includes(AGENCY) && (await page.locator('script').count()) === 0,
		text.slice(0, 400),
	);
	const bars = await page.locator('td[valign="bottom"][title]').count();
	check(
		'the chart has a cell per run (12), with inline styles only (no <style>, no image but the logo)',
		bars === 12 &&
			(await page.locator('style').count()) === 0 &&
			(await page.locator('img').count()) === 0,
		{ bars },
	);
}

suite.run(main);
