/**
 * `npm run test:e2e:all -- findings`: examples/findings-to-github-issues.json as published, in a REAL n8n (2.41.1)
 * installed as README says, its GitHub credential's server a stand-in of GitHub's REST API on loopback
 * (githubStandIn.ts, every call recorded). A Webhook beside its Schedule Trigger starts production runs of one
 * site (three pages on the phpRank test server, their checks scripted) seven times: a first-run flood past Max New
 * Tickets, what it held back, unchanged, four checks resolved, two regressed, the audit node renamed, and a run
 * whose first try fails (Retry On Fail). Each run's GitHub calls equal its findings: an issue created per finding
 * opened (title, body, labels) and its number recorded, closed per resolved, reopened with a comment per
 * regressed, none for an unchanged run, none twice; at the end each issue is open exactly while its check fails.
 *
 * Non-interactive; prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR (runtime cache), KEEP_SANDBOX=1, E2E_TARBALL (the runner's tarball).
 */
import { CHECK_NAMES } from '../../../test/server';
import { WEEK_MS } from '../../../test/harness/siteOverMonths';
import { startWithN8nApi } from '../apiKey';
import {
	apiRequests,
	callWebhook,
	checkExampleNodes,
	json,
	loadExample,
	testServerCredential,
} from '../checks';
import { nthExecution } from '../db';
import { startGithubStandIn, type GithubCall } from '../githubStandIn';
import { importCredentials, type N8nSandbox } from '../n8n';
import { Fatal, same } from '../report';
import { renameNode, saveAndPublish, type RestSession } from '../rest';
import { Suite } from '../suite';
import { webhook } from '../workflow';

const suite = new Suite('findings');
const { check, section, note, timed, api } = suite;

const FILE = 'findings-to-github-issues.json';
const SITE = 'shop.example.com';
const PAGES = ['/', '/products', '/blog'].map((p) => `https://${SITE}${p}`);
const HOOK = 'phprank-findings-e2e';
const RECORD = 'Record the ticket';
const RENAMED = 'Audit the shop';
const REPO = '/repos/your-org/your-site/issues';
const TOKEN = 'e2e-github-token';
const START = Date.parse('2026-01-05T06:00:00Z');
/** The first run's failing checks: 9 of high importance and these 4 of medium; Max New Tickets is 10. */
const FLOOD = CHECK_NAMES.slice(0, 13);
const HELD = ['image_keywords', 'in_page_links', 'language'];
const without = (...names: string[]) => FLOOD.filter((c) => !names.includes(c));

interface Ctx {
	sb: N8nSandbox;
	session: RestSession;
	baseUrl: string;
	id: string;
	audit: string;
	github: Awaited<ReturnType<typeof startGithubStandIn>>;
	/** each finding's issue number, by check, as the stand-in made them */
	issues: Map<string, number>;
}

interface Step {
	label: string;
	failing: string[];
	opened?: string[];
	resolved?: string[];
	regressed?: string[];
	held?: string[];
	before?: (ctx: Ctx) => Promise<void>;
}

/** The audit node renamed in the editor (saved, published again): its history and tickets must stay. */
async function rename(ctx: Ctx): Promise<void> {
	await renameNode(ctx.session, ctx.sb, ctx.id, [ctx.audit, RENAMED]);
	ctx.audit = RENAMED;
}

/** The first try of the audit fails: phpRank answers its three re-runs 503 once (no page analysed). */
async function failFirstTry(): Promise<void> {
	api.failNext({ type: 'status', status: 503 }, { times: 3, match: (r) => r.method === 'PUT' });
}

const STEPS: Step[] = [
	{
		label: 'run 1, a first-run flood of 13 findings',
		failing: FLOOD,
		opened: without(...HELD),
		held: HELD,
	},
	{ label: 'run 2, what the flood guard held back', failing: FLOOD, opened: HELD },
	{ label: 'run 3, unchanged', failing: FLOOD },
	{
		label: 'run 4, four checks pass again',
		failing: without('title', 'robots', 'favicon', 'language'),
		resolved: ['favicon', 'language', 'robots', 'title'],
	},
	{
		label: 'run 5, two of them fail again',
		failing: without('robots', 'language'),
		regressed: ['favicon', 'title'],
	},
	{
		label: `run 6, the audit node renamed "${RENAMED}"; title passes again`,
		failing: without('robots', 'language', 'title'),
		resolved: ['title'],
		before: rename,
	},
	{
		label: 'run 7, sitemap fails; the first try fails (Retry On Fail)',
		failing: [...without('robots', 'language', 'title'), 'sitemap'],
		opened: ['sitemap'],
		before: failFirstTry,
	},
];

const describe = ({ method, path, body }: GithubCall) =>
	`${method} ${path} ${JSON.stringify(body)}`;

/** The calls a run's findings need, from the items the audit gave (title, body, importance) and the issues made. */
function expectedCalls(ctx: Ctx, step: Step, items: Array<Record<string, unknown>>): string[] {
	const item = (check: string) => items.find((i) => i.check === check) ?? {};
	const issue = (check: string) => `${REPO}/${ctx.issues.get(check)}`;
	const calls: GithubCall[] = [
		...(step.opened ?? []).map((c) => ({
			method: 'POST',
			path: REPO,
			body: {
				title: item(c).title,
				body: item(c).body,
				labels: ['seo', `seo: ${String(item(c).importance)}`],
				assignees: [],
			},
		})),
		...(step.resolved ?? []).map((c) => ({
			method: 'PATCH',
			path: issue(c),
			body: { state: 'closed', state_reason: 'completed' },
		})),
		...(step.regressed ?? []).flatMap((c) => [
			{ method: 'PATCH', path: issue(c), body: { state: 'open' } },
			{ method: 'POST', path: `${issue(c)}/comments`, body: { body: item(c).body } },
		]),
	];
	return calls.map(describe).sort();
}

async function runStep(ctx: Ctx, step: Step, n: number): Promise<number> {
	PAGES.forEach((url, i) =>
		api.setAnalysis(url, {
			failed: step.failing,
			others: 'pass',
			generatedAt: new Date(START + n * WEEK_MS + i * 1000).toISOString(),
		}),
	);
	await step.before?.(ctx);
	api.clearRequests();
	const seen = ctx.github.calls.length;
	const hook = await callWebhook(`${ctx.baseUrl}/webhook/${HOOK}`, {});
	const exec = await nthExecution(ctx.sb, ctx.id, 'webhook', n, 120_000);
	const calls = ctx.github.calls.slice(seen);
	if (!check(`${step.label}: the production run succeeds`, exec?.status === 'success', hook))
		return calls.length;
	const items = json(exec?.outputs[ctx.audit]);
	const events = (e: string) => items.filter((i) => i.event === e).map((i) => String(i.check));
	const held = items.find((i) => i.event === 'held');
	check(
		`   the audit's items: opened ${JSON.stringify(step.opened ?? [])}, resolved ${JSON.stringify(step.resolved ?? [])}, regressed ${JSON.stringify(step.regressed ?? [])}${step.held ? `, one held item with ${JSON.stringify(step.held)}` : ''}`,
		same(events('opened').sort(), [...(step.opened ?? [])].sort()) &&
			same(events('resolved').sort(), step.resolved ?? []) &&
			same(events('regressed').sort(), step.regressed ?? []) &&
			same(
				held?.keys,
				step.held?.map((c) => `${SITE} · ${c}`),
			),
		items.map((i) => `${String(i.event)} ${String(i.check ?? i.keys)} #${String(i.ticket)}`),
	);
	for (const issue of ctx.github.issues.values())
		ctx.issues.set(/^SEO: (\S+) fails on /.exec(issue.title)?.[1] ?? '', issue.number);
	const expected = expectedCalls(ctx, step, items);
	const kinds = [...new Set(expected.map((c) => c.split(' ', 2).join(' ').replace(/\d+/g, 'N')))];
	check(
		`   GitHub got exactly ${expected.length} call(s)${kinds.length ? `: ${kinds.join(', ')}` : ''}, the items' titles, bodies and issues${step.held ? '; none for the held item' : ''}`,
		same(calls.map(describe).sort(), expected),
		{ got: calls.map(describe), expected },
	);
	const recorded = json(exec?.outputs[RECORD]);
	check(
		`   each new issue's number recorded as its finding's ticket (${recorded.length})`,
		same(
			recorded.map((r) => [r.key, r.ticket, r.ticket_recorded]),
			(step.opened ?? []).length
				? items
						.filter((i) => i.event === 'opened')
						.map((i) => [i.key, ctx.issues.get(String(i.check)), true])
				: [],
		),
		recorded,
	);
	return calls.length;
}

async function main(): Promise<void> {
	const example = loadExample(FILE);
	const wf = structuredClone(example);
	const audit = wf.nodes.find(
		(n) => n.type.endsWith('.phpRank') && n.parameters.output === 'findings',
	);
	const gh = wf.nodes.find((n) => n.type === 'n8n-nodes-base.github')?.credentials?.githubApi;
	if (!audit || !gh) throw new Fatal(`examples/${FILE}: no findings audit or GitHub credential`);
	const hook = webhook(HOOK, 'onReceived', { position: [0, 200] });
	wf.nodes.push(hook);
	wf.connections[hook.name] = { main: [[{ node: audit.name, type: 'main', index: 0 }]] };
	const { sb, allNodes } = await suite.packageSandbox();
	checkExampleNodes(suite.report, { wf, example, nodeTypes: allNodes, label: 'the example' });

	section(
		'n8n, the phpRank test server, the GitHub stand-in; the example published with a Webhook',
	);
	await api.start();
	PAGES.forEach((url) => api.addReport({ url }));
	const github = await startGithubStandIn();
	suite.defer(() => github.stop());
	await importCredentials(sb, [
		testServerCredential(api),
		{ ...gh, type: 'githubApi', data: { server: github.origin, user: '', accessToken: TOKEN } },
	]);
	// Its history in the data table "phpRank site history" (made on the first run), through n8n's public API.
	const { n8n, session } = await timed(
		'n8n start (public API on), an API key, its credential',
		() => startWithN8nApi(suite, sb, { label: 'phprank e2e findings' }),
	);
	const { id, published } = await saveAndPublish(session, wf);
	if (!check('the example is published', published.status === 200, published.body))
		throw new Fatal('not published');
	const ctx: Ctx = {
		sb,
		session,
		baseUrl: n8n.baseUrl,
		id,
		audit: audit.name,
		github,
		issues: new Map(),
	};
	const perRun: number[] = [];
	for (const [i, step] of STEPS.entries()) {
		section(step.label);
		perRun.push(await timed(step.label, () => runStep(ctx, step, i + 1)));
		if (step.before === failFirstTry) {
			const puts = apiRequests(api).filter((r) => r.method === 'PUT').length;
			check(
				'   the first try failed and the second ran: 6 re-runs sent to phpRank',
				puts === 6,
				puts,
			);
		}
	}
	note(`GitHub calls per run: ${perRun.join(', ')}`);

	section('the tracker at the end');
	const issues = [...github.issues.values()];
	const failing = STEPS.at(-1)?.failing ?? [];
	check(
		`one issue per finding ever opened (${issues.length}), no title twice; each open exactly while its check fails`,
		issues.length === FLOOD.length + 1 &&
			new Set(issues.map((i) => i.title)).size === issues.length &&
			[...ctx.issues].every(
				([c, n]) => (github.issues.get(n)?.state === 'open') === failing.includes(c),
			),
		issues.map((i) => `#${i.number} ${i.state} ${i.title}`),
	);
	check(
		'every call carried the credential’s token, and GitHub never answered 404',
		github.calls.every((c) => c.authorization === `token ${TOKEN}` && c.status !== 404),
	);
}

suite.run(main);
