/**
 * `npm run test:e2e:findings`: examples/findings-to-github-issues.json as published, in a REAL n8n (2.41.1)
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
import type { N8nSandbox } from '../sandbox';
import { Fatal, same } from '../report';
import { renameNode, saveAndPublish } from '../rest';
import { Suite } from '../suite';
import { webhook } from '../workflow';

const suite = new Suite('findings', { editor: false });
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

type Events = Partial<Record<'opened' | 'resolved' | 'regressed' | 'held', string[]>>;
interface Step {
	label: string;
	/** the checks failing on every page */
	failing: string[];
	/** the checks of each event the run must give (held: the flood guard's item) */
	events: Events;
	before?: () => Promise<unknown>;
}

let ctx: {
	id: string;
	audit: string;
	hook: string;
	github: Awaited<ReturnType<typeof startGithubStandIn>>;
	rename: () => Promise<unknown>;
};
/** Each finding's issue number by check, as the stand-in made them. */
const issueOf = new Map<string, number>();

/** The audit's first try fails: phpRank answers its three re-runs 500 (no page analysed; a 503 would be waited out), n8n tries again. */
const failFirstTry = async () =>
	api.failNext({ type: 'status', status: 500 }, { times: 3, match: (r) => r.method === 'PUT' });

const STEPS: Step[] = [
	{
		label: 'run 1, a first-run flood of 13 findings',
		failing: FLOOD,
		events: { opened: without(...HELD), held: HELD },
	},
	{ label: 'run 2, what the flood guard held back', failing: FLOOD, events: { opened: HELD } },
	{ label: 'run 3, unchanged', failing: FLOOD, events: {} },
	{
		label: 'run 4, four checks pass again',
		failing: without('title', 'robots', 'favicon', 'language'),
		events: { resolved: ['favicon', 'language', 'robots', 'title'] },
	},
	{
		label: 'run 5, two of them fail again',
		failing: without('robots', 'language'),
		events: { regressed: ['favicon', 'title'] },
	},
	{
		label: `run 6, the audit node renamed "${RENAMED}"; title passes again`,
		failing: without('robots', 'language', 'title'),
		events: { resolved: ['title'] },
		before: () => ctx.rename(),
	},
	{
		label: 'run 7, sitemap fails; the first try fails (Retry On Fail)',
		failing: [...without('robots', 'language', 'title'), 'sitemap'],
		events: { opened: ['sitemap'] },
		before: failFirstTry,
	},
];

const describe = ({ method, path, body }: GithubCall) =>
	`${method} ${path} ${JSON.stringify(body)}`;

/** The calls a run's findings need, from the items the audit gave (title, body, importance) and the issues made. */
function expectedCalls({ events }: Step, items: Array<Record<string, unknown>>): string[] {
	const item = (check: string) => items.find((i) => i.check === check) ?? {};
	const issue = (check: string) => `${REPO}/${issueOf.get(check)}`;
	const calls: GithubCall[] = [
		...(events.opened ?? []).map((c) => {
			const { title, body, importance } = item(c);
			const labels = ['seo', `seo: ${String(importance)}`];
			return { method: 'POST', path: REPO, body: { title, body, labels, assignees: [] } };
		}),
		...(events.resolved ?? []).map((c) => ({
			method: 'PATCH',
			path: issue(c),
			body: { state: 'closed', state_reason: 'completed' },
		})),
		...(events.regressed ?? []).flatMap((c) => [
			{ method: 'PATCH', path: issue(c), body: { state: 'open' } },
			{ method: 'POST', path: `${issue(c)}/comments`, body: { body: item(c).body } },
		]),
	];
	return calls.map(describe).sort();
}

/** One production run through the webhook, its findings and its GitHub calls checked: how many calls it made. */
async function runStep(sb: N8nSandbox, step: Step, n: number): Promise<number> {
	const at = (i: number) => new Date(START + n * WEEK_MS + i * 1000).toISOString();
	PAGES.forEach((url, i) =>
		api.setAnalysis(url, { failed: step.failing, others: 'pass', generatedAt: at(i) }),
	);
	await step.before?.();
	api.clearRequests();
	const seen = ctx.github.calls.length;
	const hook = await callWebhook(ctx.hook, {});
	const exec = await nthExecution(sb, ctx.id, 'webhook', n, 120_000);
	const calls = ctx.github.calls.slice(seen);
	if (!check(`${step.label}: the production run succeeds`, exec?.status === 'success', hook))
		return calls.length;
	const items = json(exec?.outputs[ctx.audit]);
	const events: Events = {};
	for (const i of items)
		(events[i.event as keyof Events] ??= []).push(
			...(i.event === 'held'
				? (i.keys as string[]).map((k) => k.replace(`${SITE} · `, ''))
				: [String(i.check)]),
		);
	check(
		`   its findings: ${JSON.stringify(step.events)}`,
		same(sorted(events), sorted(step.events)),
		items.map((i) => `${String(i.event)} ${String(i.check ?? i.keys)} #${String(i.ticket)}`),
	);
	for (const issue of ctx.github.issues.values())
		issueOf.set(/^SEO: (\S+) fails on /.exec(issue.title)?.[1] ?? '', issue.number);
	const expected = expectedCalls(step, items);
	check(
		`   GitHub got exactly these ${expected.length} call(s), with the items' titles, bodies and issue numbers`,
		same(calls.map(describe).sort(), expected),
		{ got: calls.map(describe), expected },
	);
	const recorded = json(exec?.outputs[RECORD]).map((r) => [r.key, r.ticket, r.ticket_recorded]);
	const opened = items.filter((i) => i.event === 'opened');
	check(
		`   each new issue's number recorded as its finding's ticket (${recorded.length})`,
		same(
			recorded,
			opened.map((i) => [i.key, issueOf.get(String(i.check)), true]),
		),
		recorded,
	);
	return calls.length;
}

/** `events` in one order, each list sorted. */
function sorted(events: Events): Events {
	const order = ['opened', 'resolved', 'regressed', 'held'] as const;
	return Object.fromEntries(
		order.filter((e) => events[e]).map((e) => [e, [...(events[e] ?? [])].sort()]),
	);
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
	const data = { server: github.origin, user: '', accessToken: TOKEN };
	// Its history in the data table "phpRank site history" (made on the first run), through n8n's public API.
	const { n8n, session } = await timed(
		'n8n start (public API on), an API key, its credential',
		() => startWithN8nApi(suite, sb, { label: 'phprank e2e findings' }),
	);
	await session.addCredentials([testServerCredential(api), { ...gh, type: 'githubApi', data }]);
	const { id, published } = await saveAndPublish(session, wf);
	if (!check('the example is published', published.status === 200, published.body))
		throw new Fatal('not published');
	const rename = async () => {
		await renameNode(session, sb, id, [audit.name, RENAMED]);
		ctx.audit = RENAMED;
	};
	ctx = { id, audit: audit.name, hook: `${n8n.baseUrl}/webhook/${HOOK}`, github, rename };
	const perRun: number[] = [];
	for (const [i, step] of STEPS.entries()) {
		section(step.label);
		perRun.push(await timed(step.label, () => runStep(sb, step, i + 1)));
	}
	const puts = apiRequests(api).filter((r) => r.method === 'PUT').length;
	check('   its first try failed and the second ran: 6 re-runs sent to phpRank', puts === 6, puts);
	note(`GitHub calls per run: ${perRun.join(', ')}`);

	section('the tracker at the end');
	const issues = [...github.issues.values()];
	const failing = STEPS[STEPS.length - 1].failing;
	check(
		`one issue per finding ever opened (${issues.length}), no title twice; each open exactly while its check fails`,
		issues.length === FLOOD.length + 1 &&
			new Set(issues.map((i) => i.title)).size === issues.length &&
			[...issueOf].every(
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
