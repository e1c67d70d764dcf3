/**
 * Compare With Competitors as an MCP tool (part of `npm run test:e2e:ai`): examples/seo-assistant-mcp.json's
 * `compare_with_competitors` called through the published MCP Server Trigger with the official MCP
 * SDK, as a client asking "how does my pricing page do against these two?". The analyses are
 * scripted on the test server; the expected first lines are written here from those scores and
 * checks, not by the node's code. The reports it makes are removed at the end.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { PhpRankServer } from '../../../test/server';
import { apiRequests, describeRequests } from '../checks';
import { same } from '../report';
import type { Suite } from '../suite';
import { answerOf, listedTool, textOf, withToolClient, type ToolResult } from './mcp';

/** The example's comparison tool, by its node's name. */
export const COMPARE_TOOL = 'compare_with_competitors';

const YOU = 'https://www.compare-you.example.com/pricing';
const RIVAL = 'https://compare-rival.example.org/pricing';
const OTHER = 'https://compare-other.example.net/';

/** The tool as a client lists it: the operation's tool description, url and competitors to fill in. */
async function listed(suite: Suite, client: Client): Promise<void> {
	const { check } = suite;
	const tool = await listedTool(suite, client, COMPARE_TOOL);
	check(
		`${COMPARE_TOOL} is listed with the operation's tool description (what to fix first, scores and gaps)`,
		/^Compare the SEO of one web page with competitors' pages/.test(String(tool?.description)),
		tool?.description,
	);
	const properties = Object.keys(tool?.inputSchema.properties ?? {}).sort();
	check(
		'  it takes url and competitors (strings), both required',
		same(properties, ['competitors', 'url']) &&
			same([...(tool?.inputSchema.required ?? [])].sort(), ['competitors', 'url']),
		tool?.inputSchema,
	);
}

const call = (client: Client, args: Record<string, unknown>) =>
	client.callTool({ name: COMPARE_TOOL, arguments: args }) as Promise<ToolResult>;

/** Two calls: the first analyses the three pages, the second (within a day) reuses their reports. */
async function answered(suite: Suite, client: Client, api: PhpRankServer): Promise<void> {
	const { check, note } = suite;
	api.setNextAnalysis(YOU, { score: 70, failed: ['title', 'meta_description'], others: 'pass' });
	api.setNextAnalysis(RIVAL, { score: 88, failed: ['dom_size'], others: 'pass' });
	api.setNextAnalysis(OTHER, { score: 68, failed: ['title'], others: 'pass' });
	const args = { url: YOU, competitors: `${RIVAL}, ${OTHER}` };
	api.clearRequests();
	const first = await call(client, args);
	const lines = String(answerOf(first).comparison ?? '').split('\n');
	note(
		`${COMPARE_TOOL}(${JSON.stringify(args)}) ->\n${lines.map((l) => `         ${l}`).join('\n')}`,
	);
	check(
		'"how does my pricing page do against these two?": one item {comparison}, what to fix first on its first line',
		same(Object.keys(answerOf(first)), ['comparison']) &&
			lines[0] ===
				'Your competitors pass 2 high checks you fail: meta_description (2 of 2), title (1 of 2).',
		lines[0],
	);
	check(
		'  then the scores with each gap (a rival 18 ahead, another in a tie at −2) and the best competitor',
		lines[1] === `Scores: you 70 (${YOU}); ${RIVAL} 88, ahead by 18; ${OTHER} 68, tie (−2).` &&
			lines[2] === `Best competitor: ${RIVAL}, 18 points above you.`,
		lines.slice(1, 3),
	);
	const analyses = (requests: string) => requests.split(' | ').filter((r) => !r.startsWith('GET'));
	const firstRequests = describeRequests(apiRequests(api));
	check(
		'  phpRank got one list read per site and one analysis per page (3 + 3)',
		firstRequests.split(' | ').length === 6 && analyses(firstRequests).length === 3,
		firstRequests,
	);
	api.clearRequests();
	const again = await call(client, args);
	const secondRequests = describeRequests(apiRequests(api));
	check(
		'asked again within the day: the same answer from the reports as they are, 0 analysis requests',
		String(answerOf(again).comparison) === lines.join('\n') &&
			analyses(secondRequests).length === 0 &&
			secondRequests.split(' | ').length === 3,
		secondRequests,
	);
	api.clearRequests();
	const refused = await call(client, { url: YOU, competitors: 'http://192.168.1.10/admin' });
	check(
		'an internal address (Public URLs Only): {error} naming the field, nothing sent',
		/Competitor URL 1 .*private network address/.test(String(answerOf(refused).error)) &&
			apiRequests(api).length === 0,
		textOf(refused),
	);
}

/** The comparison tool through the MCP Server Trigger at `mcpUrl`; leaves the server's reports as it found them. */
export async function compareToolChecks(
	suite: Suite,
	mcpUrl: URL,
	headers: Record<string, string>,
): Promise<void> {
	suite.section('MCP: Compare With Competitors as a tool ("how does my page do against these?")');
	await withToolClient(suite, 'e2e-compare', mcpUrl, headers, async (client) => {
		await listed(suite, client);
		await answered(suite, client, suite.api);
	});
}
