/**
 * The digest as an MCP tool (part of `npm run test:e2e:ai`): examples/seo-assistant-mcp.json's
 * `sites_needing_attention` (Project → Get Health, All Projects, Output: One Digest) called through
 * the published MCP Server Trigger with the official MCP SDK, as a client asking "which of my clients
 * needs attention this week?". The account is the suite's own reports plus test/server/digestAccount.ts's
 * 12 projects (3 not analysed for 10 days, one named `<script>…`); the expected lines are written
 * here from the server's reports as they are at the call, not by the node's code. The fixture's
 * reports are removed at the end, so later sections see the account they expect.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { TEST_API_KEY, USER_IDS, type PhpRankServer } from '../../../test/server';
import {
	accountFixture,
	expectedDigest,
	type ExpectedSite,
} from '../../../test/server/digestAccount';
import { apiRequests, describeRequests } from '../checks';
import { same } from '../report';
import type { Suite } from '../suite';
import { answerOf, listedTool, textOf, withToolClient, type ToolResult } from './mcp';

/** The example's digest tool, by its node's name. */
export const DIGEST_TOOL = 'sites_needing_attention';
/** The example's Stale After (Days). */
const STALE_AFTER_DAYS = 8;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A site's line as README's "Whole sites" describes it, without a history store. */
function siteLine(site: ExpectedSite, index: number): string {
	const stale = site.stale
		? `; stale: last analysed ${plural(site.days_since_analysis, 'day')} ago`
		: '';
	return `${index + 1}. ${site.project}: health ${site.health_score}/100, score ${site.average_score} (${site.result_class}); ${plural(site.open_high_issues, 'high issue')}${stale} ${site.link}`;
}

/** What phpRank must receive: one list read of every report, 100 a page, newest first. */
function listPages(reports: number): string[] {
	return Array.from(
		{ length: Math.max(1, Math.ceil(reports / 100)) },
		(_, index) => `GET /api/v1/reports?sort_by=id&sort=desc&per_page=100&page=${index + 1}`,
	);
}

/** The tool as a client lists it: its description, and nothing to fill in. */
async function listed(suite: Suite, client: Client): Promise<void> {
	const { check } = suite;
	const tool = await listedTool(suite, client, DIGEST_TOOL);
	check(
		`${DIGEST_TOOL} is listed with One Digest's tool description: which sites need attention, worst first, stale ones`,
		/^Which of the user's client sites need attention this week, from phpRank: one short message ranking every site .* worst first/.test(
			String(tool?.description),
		) && /whether it is stale/.test(String(tool?.description)),
		tool?.description,
	);
	check(
		'  it asks for nothing: no required parameter',
		tool !== undefined && (tool.inputSchema.required ?? []).length === 0,
		tool?.inputSchema,
	);
}

/** The call: the message's lines equal the server's figures, worst first, stale sites marked. */
async function answered(suite: Suite, client: Client, api: PhpRankServer): Promise<void> {
	const { check, note } = suite;
	api.clearRequests();
	const started = Date.now();
	const result = (await client.callTool({ name: DIGEST_TOOL, arguments: {} })) as ToolResult;
	const reports = api.listReports(USER_IDS.default);
	const expected = expectedDigest(reports, [], api.url, Date.now());
	const answer = answerOf(result);
	const lines = String(answer.digest ?? '').split('\n');
	note(
		`${DIGEST_TOOL}() -> ${textOf(result).length} chars, ${lines.length} lines in ${Date.now() - started} ms:\n${lines.map((l) => `         ${l}`).join('\n')}`,
	);
	const { totals } = expected;
	check(
		`"which of my clients needs attention this week?": one item {digest}, the account in its first line (${totals.total_sites} sites, ${totals.total_pages} pages, ${totals.stale_sites} stale)`,
		same(Object.keys(answer), ['digest']) &&
			lines[0] ===
				`phpRank: ${plural(totals.total_sites, 'site')}, ${plural(totals.total_pages, 'page')}, average ${totals.average_score}; ${plural(totals.stale_sites, 'site')} stale (no analysis for ${plural(STALE_AFTER_DAYS, 'day')})`,
		lines[0],
	);
	check(
		'  the second line says where to turn on changes and issue ages (History Store)',
		/History Store/.test(lines[1] ?? ''),
		lines[1],
	);
	const want = expected.sites.map(siteLine);
	check(
		`  then one line per site, worst first, each with the server's figures (health, score, class, high issues, link)`,
		same(lines.slice(2), want),
		{ got: lines.slice(2), want },
	);
	const stale = expected.sites.filter((site) => site.stale).map((site) => site.project);
	check(
		`  the ${stale.length} sites not analysed for ${STALE_AFTER_DAYS} days or more are marked stale, with their age, and only they`,
		stale.length > 0 &&
			lines.filter((line) => /; stale: last analysed \d+ days? ago /.test(line)).length ===
				stale.length &&
			stale.every((project) =>
				lines.some((line) => line.includes(`. ${project}: `) && line.includes('; stale: ')),
			),
		stale,
	);
	check(
		`  phpRank got one list read of every report (${reports.length}): ${listPages(reports.length).length} request(s), the floor`,
		describeRequests(apiRequests(api)) === listPages(reports.length).join(' | '),
		describeRequests(apiRequests(api)),
	);
}

/** A failing call answers a sentence the agent can read, with no secret in it. */
async function failing(suite: Suite, client: Client, api: PhpRankServer): Promise<void> {
	const { check, note } = suite;
	const call = async (label: string) => {
		api.clearRequests();
		const result = (await client.callTool({ name: DIGEST_TOOL, arguments: {} })) as ToolResult;
		note(`${DIGEST_TOOL}() with ${label}: ${textOf(result)}`);
		return { error: String(answerOf(result).error ?? ''), text: textOf(result) };
	};
	api.failNext({ type: 'status', status: 401, body: { message: 'Unauthenticated.' } });
	const revoked = await call('the API key revoked (401)');
	check(
		'the API key revoked: {error} saying the key was rejected and what to do, without the key',
		/^The phpRank API key was rejected \(HTTP 401\)\. .*credential/.test(revoked.error) &&
			!revoked.text.includes(TEST_API_KEY),
		revoked.text,
	);
	check('  phpRank got the one request', apiRequests(api).length === 1, apiRequests(api).length);
	// An outage is waited out (a tool for up to 15 s, Wait Out Outages): once, the tool answers; past it, an error.
	let proxyDown = 1;
	const match = () => proxyDown-- > 0;
	api.failNext({ type: 'html', status: 502 }, { times: 1_000, match });
	const brief = await call('phpRank behind its proxy down for one request (502 page)');
	check(
		'phpRank down for one request (a 502 page from its proxy): the tool waits, asks again and answers',
		brief.error === '' && apiRequests(api).length === 2,
		brief.text,
	);
	proxyDown = 1_000;
	const down = await call('phpRank down behind its proxy (502 page)');
	proxyDown = 0;
	check(
		'phpRank down past the wait (a 502 page from its proxy): {error} naming HTTP 502, not the page',
		/HTTP 502/.test(down.error) && !/<[a-z]/i.test(down.error),
		down.text,
	);
}

/**
 * The digest tool through the MCP Server Trigger at `mcpUrl`: listed, called on the digest account,
 * failing calls. Leaves the server's reports as it found them.
 */
export async function digestToolChecks(
	suite: Suite,
	mcpUrl: URL,
	headers: Record<string, string>,
): Promise<void> {
	const { api, section } = suite;
	section('MCP: the digest as a tool ("which of my clients needs attention this week?")');
	await withToolClient(suite, 'e2e-digest', mcpUrl, headers, async (client) => {
		accountFixture(api, Date.now());
		await listed(suite, client);
		await answered(suite, client, api);
		await failing(suite, client, api);
	});
}
