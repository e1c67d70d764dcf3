/**
 * `npm run test:e2e:deploy-gate`: examples/seo-deploy-gate.json inside a REAL n8n (2.41.1 on Node 24)
 * installed as README says, published as the editor publishes it, its webhook called as a deploy hook
 * (or `curl --fail-with-body` in a GitHub Actions step) calls it:
 *
 *   a product page fails meta_description (Products requires it on 100%) -> 422 with the breaches, one
 *   e-mail "budget broken" -> the same broken state again (Audit the site's Pages From: A Project's
 *   Reports, no Get Many) -> 422, no e-mail -> one good changed URL (judged on every page) -> 422, no e-mail -> the full
 *   site again -> 422, no e-mail -> fixed -> 200, one e-mail saying Products is back within budget ->
 *   200 again, no e-mail -> broken again by one changed URL (only that page analysed) -> 422, one e-mail. Then One Digest with the
 *   same Page Groups shows the broken group, and the first e-mail's summary_html rendered in Chromium
 *   leads with the broken group, every value escaped.
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1, E2E_TARBALL, CHROMIUM_PATH (default /usr/bin/chromium).
 */

import {
	apiRequests,
	callWebhook,
	checkExampleNodes,
	describeRequests,
	json,
	loadExample,
	PHPRANK_CRED,
	testServerCredential,
} from '../checks';
import {
	importCredentials,
	importWorkflows,
	runFromTrigger,
	setupOwner,
	startServer,
	waitForExecutions,
	type N8nSandbox,
} from '../n8n';
import { Fatal, same } from '../report';
import { saveAndPublish } from '../rest';
import { Suite } from '../suite';
import { manualTrigger, phpRank, workflow, type WorkflowJson } from '../workflow';

const suite = new Suite('deploy-gate', { editor: false });
const { check, section, note, timed, api } = suite;

const EXAMPLE_FILE = 'seo-deploy-gate.json';
const AUDIT = 'Audit the site';
const HOOK = 'seo-deploy-gate';
const SITE = 'shop.example.com';
const PAGES = ['/', '/products/x', '/products/y', '/blog/a'];
const DIGEST_WF = 'phprankGateDiges';

type Answer = Record<string, unknown>;

/** Every page analysed as scripted: /products/x fails meta_description while `broken`. */
function script(broken: boolean): void {
	for (const page of PAGES)
		api.setAnalysis(`https://${SITE}${page}`, {
			score: page === '/products/x' && broken ? 62 : 85,
			failed: page === '/products/x' && broken ? ['meta_description'] : [],
			others: 'pass',
		});
}

/** The example's Page Groups and Default Budget, as its Audit node sets them. */
function groupsOf(example: WorkflowJson) {
	const audit = example.nodes.find((n) => n.name === AUDIT);
	if (!audit) throw new Fatal(`examples/${EXAMPLE_FILE}: no node "${AUDIT}"`);
	return {
		pageGroups: audit.parameters.pageGroups,
		defaultBudget: audit.parameters.defaultBudget,
	};
}

/** Manual → Get Health, All Projects, One Digest with the example's groups. */
function digestWorkflow(example: WorkflowJson): WorkflowJson {
	return workflow(
		DIGEST_WF,
		'e2e: One Digest with page groups',
		[
			manualTrigger('Manual'),
			phpRank(
				'Digest',
				{
					resource: 'project',
					operation: 'getHealth',
					allProjects: true,
					output: 'digest',
					simplify: false,
					...groupsOf(example),
				},
				PHPRANK_CRED,
			),
		],
		[['Manual', 'Digest']],
	);
}

interface GateCtx {
	sb: N8nSandbox;
	hook: string;
	workflowId: string;
	smtp: Awaited<ReturnType<Suite['smtp']>>['catcher'];
	calls: number;
}

/** One call of the deploy hook; waits for its execution to end; the answer and the e-mails since. */
async function deploy(ctx: GateCtx, body: Answer) {
	const before = ctx.smtp.messages.length;
	api.clearRequests();
	const res = await callWebhook(ctx.hook, body);
	ctx.calls += 1;
	await waitForExecutions(ctx.sb, ctx.workflowId, ctx.calls);
	let answer: Answer = {};
	try {
		answer = JSON.parse(res.body) as Answer;
	} catch {
		note(`answer is not JSON: ${res.body.slice(0, 300)}`);
	}
	return { status: res.status, answer, mails: ctx.smtp.messages.slice(before) };
}

async function brokenThenFixed(ctx: GateCtx): Promise<string> {
	section('a deploy that breaks the Products budget: 422 with the breaches, one e-mail');
	script(true);
	const first = await deploy(ctx, { site: SITE, urls: PAGES.map((p) => `${SITE}${p}`) });
	const breaches = (first.answer.breaches ?? []) as Answer[];
	check(
		'422, passed false, broken_groups [Products]; the breach names meta_description on 1 of 2 product pages and the page',
		first.status === 422 &&
			first.answer.passed === false &&
			same(first.answer.broken_groups, ['Products']) &&
			breaches.length === 1 &&
			breaches[0].rule === 'required_check' &&
			breaches[0].check === 'meta_description' &&
			String(breaches[0].text).startsWith('Products: meta_description fails on 1 of 2 pages') &&
			same(breaches[0].pages, [`${SITE}/products/x`]),
		first,
	);
	check(
		'the pages as given (scheme or none) analysed once each: 4 reports created, one list read',
		api.listReports().length === 4 &&
			apiRequests(api).filter((r) => r.method === 'POST').length === 4,
		describeRequests(apiRequests(api)),
	);
	check(
		'one e-mail: "SEO budget broken on shop.example.com: Products"',
		first.mails.length === 1 && first.mails[0].subject === `SEO budget broken on ${SITE}: Products`,
		first.mails.map((m) => m.subject),
	);
	const html = first.mails[0]?.html ?? '';

	section('the same broken state again (the site’s pages from its reports): 422, no e-mail');
	const again = await deploy(ctx, { site: SITE });
	check(
		'422 again; the pages from one read of the site’s reports (project filter, no Get Many) and re-run, none created',
		again.status === 422 &&
			same(
				apiRequests(api).flatMap((r) => (r.method === 'GET' ? [r.query.project] : [])),
				[SITE],
			) &&
			apiRequests(api).filter((r) => r.method === 'PUT').length >= 4 &&
			api.listReports().length === 4,
		describeRequests(apiRequests(api)),
	);
	check(
		'no e-mail',
		again.mails.length === 0,
		again.mails.map((m) => m.subject),
	);

	section(
		'a deploy of one good changed URL while Products is broken: only it analysed, still 422, no e-mail',
	);
	for (const [n, body] of [
		[1, { site: SITE, urls: [`https://${SITE}/products/y`] }],
		[2, { site: SITE }],
	] as const) {
		const run = await deploy(ctx, body);
		const analyses = apiRequests(api).filter((r) => r.method === 'PUT' || r.method === 'POST');
		check(
			n === 1
				? '422: Products judged on every page (/products/x from its newest report), one analysis (the changed page), no e-mail'
				: 'the next full deploy: 422, no e-mail (the broken state was never lost)',
			run.status === 422 &&
				same(run.answer.broken_groups, ['Products']) &&
				same(((run.answer.breaches ?? []) as Answer[])[0]?.pages, [`${SITE}/products/x`]) &&
				(n === 2 || (analyses.length === 1 && analyses[0].method === 'PUT')) &&
				run.mails.length === 0,
			[run.answer, describeRequests(analyses), run.mails.map((m) => m.subject)],
		);
	}

	section('the fix deployed: 200, one e-mail saying Products recovered');
	script(false);
	const fixed = await deploy(ctx, { site: SITE });
	check(
		'200, passed true, every group within budget',
		fixed.status === 200 &&
			fixed.answer.passed === true &&
			((fixed.answer.groups ?? []) as Answer[]).every((g) => g.passed === true),
		fixed.answer,
	);
	check(
		'one e-mail: "SEO budget back on shop.example.com: Products", its text says so',
		fixed.mails.length === 1 &&
			fixed.mails[0].subject === `SEO budget back on ${SITE}: Products` &&
			fixed.mails[0].text.includes('back within budget: Products'),
		fixed.mails.map((m) => [m.subject, m.text.slice(0, 200)]),
	);
	const quiet = await deploy(ctx, { site: SITE });
	check('200 again, no e-mail', quiet.status === 200 && quiet.mails.length === 0, quiet.mails);
	return html;
}

async function changedUrlBreaks(ctx: GateCtx): Promise<void> {
	section('one changed URL breaks the budget again: only it analysed, 422, one e-mail');
	script(true);
	const changed = await deploy(ctx, { site: SITE, urls: [`https://${SITE}/products/x`] });
	const analyses = apiRequests(api).filter((r) => r.method === 'PUT' || r.method === 'POST');
	check(
		'422 with Products broken; one analysis (the changed page), plus one more to confirm its drop',
		changed.status === 422 &&
			same(changed.answer.broken_groups, ['Products']) &&
			analyses.length >= 1 &&
			analyses.length <= 2 &&
			analyses.every((r) => r.method === 'PUT'),
		describeRequests(analyses),
	);
	check(
		'one e-mail: the group newly broken since the last run',
		changed.mails.length === 1 &&
			changed.mails[0].subject === `SEO budget broken on ${SITE}: Products`,
		changed.mails.map((m) => m.subject),
	);
}

async function digestShowsBrokenGroups(
	ctx: GateCtx,
	session: Parameters<typeof runFromTrigger>[0],
) {
	section('One Digest with the same Page Groups shows the broken group');
	const { exec } = await runFromTrigger(session, ctx.sb, DIGEST_WF, 'Manual');
	const [digest] = json(exec?.outputs.Digest);
	const sites = (digest?.sites ?? []) as Answer[];
	check(
		'the site lists Products over budget; the totals count it; the text says so',
		exec?.status === 'success' &&
			same(sites.find((s) => s.project === SITE)?.broken_groups, ['Products']) &&
			digest.sites_over_budget === 1 &&
			String(digest.summary_text).includes('over budget: Products'),
		{ status: exec?.status, sites, totals: digest?.sites_over_budget },
	);
}

async function rendered(html: string): Promise<void> {
	section('the e-mail of the broken budget, rendered in Chromium');
	const page = await suite.renderHtml(html, 'deploy-gate-summary-html');
	const text = await page.locator('body').innerText();
	const lead = text.indexOf('over budget: Products');
	check(
		'it leads with the broken group and its breach, before the site’s score; no script in the page',
		lead >= 0 &&
			lead < text.indexOf('Health ') &&
			text.includes('meta_description fails on 1 of 2 pages') &&
			text.includes(`fix it on ${SITE}/products/x`) &&
			(await page.locator('script').count()) === 0,
		text.slice(0, 400),
	);
}

async function main(): Promise<void> {
	const example = loadExample(EXAMPLE_FILE);
	const { sb, allNodes } = await suite.packageSandbox();
	await api.start();
	const { catcher: smtp, credential: smtpCred } = await suite.smtp();
	await importCredentials(sb, [testServerCredential(api), smtpCred]);
	await importWorkflows(sb, [digestWorkflow(example)]);
	const n8n = suite.n8n(await timed('n8n start', async () => startServer(sb)));
	const session = await setupOwner(n8n);
	checkExampleNodes(suite.report, {
		wf: example,
		example,
		nodeTypes: allNodes,
		label: 'the example',
	});
	const { id, published } = await saveAndPublish(session, example);
	if (!check('the example is published', published.status === 200, published.body))
		throw new Fatal('not published');
	const ctx: GateCtx = {
		sb,
		hook: `${n8n.baseUrl}/webhook/${HOOK}`,
		workflowId: id,
		smtp,
		calls: 0,
	};
	const html = await brokenThenFixed(ctx);
	await changedUrlBreaks(ctx);
	await digestShowsBrokenGroups(ctx, session);
	await rendered(html);
}

suite.run(main);
