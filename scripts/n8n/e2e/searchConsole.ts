/**
 * examples/search-console-fix-first.json in the monitor suite's started n8n (saved by REST, run as the editor's "Execute workflow"): its HTTP Request node
 * pointed at a loopback stand-in of Search Console's searchAnalytics.query, and its project at the stand-in's
 * site. The Google OAuth2 credential is imported with a token already granted (`oauthTokenData`), which n8n
 * signs the request with as Google's would be: the consent screen cannot be driven offline, the rest is n8n's
 * own OAuth2 path. Every figure checked is the hand sum written beside the fixture.
 */
import { startHttp, type SmtpCatcher } from '../catchers';
import { apiRequests, json, loadExample, type WorkflowJson } from '../checks';
import { runFromTrigger, type N8nSandbox, type RestSession } from '../n8n';
import { same } from '../report';
import type { Suite } from '../suite';
import { readBody } from '../../../test/server/http';

const FILE = 'search-console-fix-first.json';
const SEARCH = 'Search Console';
const AUDIT = 'Audit the site';
const MANUAL = 'When clicking ‘Execute workflow’';
const SITE = 'gsc.example.net';
const TOKEN = 'stand-in-access-token';
const QUERY = '/webmasters/v3/sites/sc-domain%3Aexample.com/searchAnalytics/query';
const row = (url: string, clicks: number, impressions: number) => ({
	keys: [url],
	...{ clicks, impressions, ctr: clicks / impressions, position: 8.5 },
});
/** The site's pages: score and failing checks (meta_description and title are high). */
const PAGES: Array<[string, number, string[]]> = [
	['/', 90, []],
	['/a', 70, ['meta_description']],
	['/b', 50, ['meta_description', 'title']],
	['/c', 60, ['title']],
];
/** 25,000 pages phpRank has no report of (so the answer takes two requests), then the site's: '/c' has none. */
const ROWS = [
	...Array.from({ length: 25_000 }, (_, i) => row(`https://${SITE}/archive/${i}`, 1, 10)),
	row(`https://${SITE}/`, 500, 9000),
	row(`https://${SITE}/a/`, 120, 3000), // '/a'
	row(`http://www.${SITE}/b`, 40, 800), // '/b'
];

/** The stand-in: Google's answer for the Bearer token only, `rowLimit` rows from `startRow`; each request's body kept. */
async function standIn(suite: Suite) {
	const bodies: Array<Record<string, unknown>> = [];
	const server = await startHttp((req, res) => {
		void readBody(req).then((text) => {
			const ok = req.headers.authorization === `Bearer ${TOKEN}` && req.url === QUERY;
			const body = (ok ? JSON.parse(text ?? '') : {}) as { startRow?: number; rowLimit?: number };
			if (ok) bodies.push(body);
			const from = body.startRow ?? 0;
			const rows = ROWS.slice(from, from + (body.rowLimit ?? 1000));
			res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
			const answer = { responseAggregationType: 'byPage', ...(rows.length ? { rows } : {}) };
			res.end(JSON.stringify(ok ? answer : { error: { code: 401, message: 'no token' } }));
		});
	});
	suite.defer(() => server.stop());
	return { origin: server.origin, bodies };
}

/** The example with its Search Console URL at the stand-in, its project the stand-in's site; `data` off: the run without. */
function e2eWorkflow(example: WorkflowJson, origin: string, data = true): WorkflowJson {
	const wf = structuredClone(example);
	const search = wf.nodes.find((n) => n.name === SEARCH)!;
	search.parameters.url = String(search.parameters.url).replace(
		'https://www.googleapis.com',
		origin,
	);
	const audit = wf.nodes.find((n) => n.name === AUDIT)!;
	audit.parameters.project = { __rl: true, mode: 'name', value: SITE };
	if (!data) audit.parameters.searchConsoleData = '';
	wf.id = data ? 'e2eGscWith' : 'e2eGscWithout';
	wf.name = `e2e: ${example.name}${data ? '' : ' (without Search Console data)'}`;
	return wf;
}

/** Runs the example against the stand-in (and once without its data: the same phpRank requests), checks the figures and the e-mail. */
export async function searchConsoleChecks(
	suite: Suite,
	{ sb, session, smtp }: { sb: N8nSandbox; session: RestSession; smtp: SmtpCatcher },
): Promise<void> {
	const { check, section, api, timed } = suite;
	section(`example ${FILE}: Search Console clicks through HTTP Request (stand-in), fix first`);
	const example = loadExample(FILE);
	const search = example.nodes.find((n) => n.name === SEARCH);
	check(
		'the example asks Search Console for pages (25,000 a request, paged by startRow) with Google OAuth2, no Code node',
		search?.parameters.nodeCredentialType === 'googleOAuth2Api' &&
			String(search.parameters.jsonBody).includes("dimensions: ['page'], rowLimit: 25000") &&
			JSON.stringify(search.parameters.options).includes('"name":"startRow"') &&
			!example.nodes.some((n) => n.type === 'n8n-nodes-base.code'),
		search?.parameters,
	);
	const google = search!.credentials!.googleOAuth2Api;
	for (const [path, score, failed] of PAGES) {
		api.addReport({ url: `https://${SITE}${path}`, result: score });
		api.setAnalysis(`https://${SITE}${path}`, { score, failed, others: 'pass' });
	}
	const gsc = await standIn(suite);
	const scope = 'https://www.googleapis.com/auth/webmasters.readonly';
	const oauthTokenData = { access_token: TOKEN, token_type: 'Bearer', refresh_token: 'unused' };
	const data = { clientId: 'c', clientSecret: 's', scope, oauthTokenData };
	await session.addCredentials([{ ...google, type: 'googleOAuth2Api', data }]);
	const runOf = async (wf: WorkflowJson) => {
		api.clearRequests();
		smtp.clear();
		const id = await session.save(wf, false);
		const { exec } = await timed(`"Execute workflow" ${wf.name}`, () =>
			runFromTrigger(session, sb, id, MANUAL, { timeoutMs: 180_000 }),
		);
		const run = { ok: exec?.status === 'success', outputs: exec?.outputs ?? {}, exec };
		// Pages are re-run side by side: compared in order.
		const calls = apiRequests(api)
			.map((r) => `${r.method} ${r.path}`)
			.sort();
		return { run, calls, mails: await smtp.waitFor(1, 10_000) };
	};
	const plain = await runOf(e2eWorkflow(example, gsc.origin, false));
	gsc.bodies.length = 0;
	const { run, calls, mails } = await runOf(e2eWorkflow(example, gsc.origin));
	check(
		'both runs succeed',
		run.ok && plain.run.ok,
		[plain.run, run].map(({ exec }) => exec?.data.resultData?.error ?? exec?.status),
	);
	check(
		'two Search Console requests (startRow 0, then 25000), the period Last 28 days made: 28 days',
		gsc.bodies.map((b) => b.startRow).join() === '0,25000' &&
			gsc.bodies.every((b) => b.rowLimit === 25000 && String(b.dimensions) === 'page') &&
			(Date.parse(String(gsc.bodies[0].endDate)) - Date.parse(String(gsc.bodies[0].startDate))) /
				86_400_000 ===
				27,
		gsc.bodies.map(({ startRow, startDate, endDate }) => ({ startRow, startDate, endDate })),
	);
	check('the same phpRank requests as without Search Console data', same(calls, plain.calls), [
		calls,
		plain.calls,
	]);
	const [site] = json(run.outputs[AUDIT]);
	const { startDate, endDate } = gsc.bodies[0] ?? {};
	// meta_description: /a 120 + /b 40 = 160 clicks, 3000 + 800 impressions; title: /b 40 + /c 0.
	// The site: / 500 + /a 120 + /b 40 = 660 clicks; 3 of 4 pages in the data.
	const lead = `${SITE}: fix first: meta_description (high) fails on 2 pages that had 160 clicks and 3,800 impressions from ${String(startDate)} to ${String(endDate)}`;
	check(
		'one site item: 660 clicks, 75% coverage, fix_first meta_description 160 clicks then title 40; the summary leads with it',
		site?.traffic_clicks === 660 &&
			site.traffic_impressions === 12800 &&
			site.traffic_coverage === 75 &&
			site.pages_without_traffic === `${SITE}/c` &&
			site.fix_first === 'meta_description (high) ×2 160 clicks, title (high) ×2 40 clicks' &&
			String(site.summary_text).startsWith(lead),
		site,
	);
	check(
		'one e-mail, its subject with the clicks and the first fix, its HTML leading with the fix',
		mails.length === 1 &&
			mails[0].subject ===
				`phpRank: ${SITE}, 660 Search Console clicks, fix first: meta_description (high) ×2 160 clicks` &&
			mails[0].html.includes(lead.replace(`${SITE}: fix first: `, '')),
		mails.map((m) => m.subject),
	);
}
