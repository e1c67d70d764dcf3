/**
 * `npm run test:e2e:ai`: the phpRank Tool inside a REAL n8n 2.41.1, as AI clients use it.
 *
 *   build -> npm pack -> tarball installed into a fresh n8n sandbox -> the workflows imported and published
 *   with n8n's CLI -> `n8n start` (no REST: webhooks and the MCP endpoint only)
 *   (a) examples/seo-assistant-mcp.json published: the official MCP TypeScript SDK connects to its
 *       MCP Server Trigger (streamable HTTP, and SSE), lists the tools, calls the ones and the failures
 *       n8n-core's tool path in test/tool.test.ts does not (site_health, the digest, the comparison, a
 *       wrong argument type, a throttle's hold on later calls); checked on both ends.
 *   (b) the same tool nodes under n8n's AI Agent, whose OpenAI Chat Model talks to a scripted
 *       OpenAI-compatible server on loopback: what the model was sent (tools, their JSON schemas,
 *       the tools' results) and the agent's answer.
 *
 * Everything runs on loopback; no real model. Prints "<N> passed, <M> failed"; exit 1 on any failure.
 * Env: N8N_CACHE_DIR, KEEP_SANDBOX=1 (keep the n8n folder).
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

import { USER_IDS, type PhpRankServer, type RecordedRequest } from '../../../test/server';
import { readBody } from '../../../test/server/http';
import { startHttp } from '../catchers';
import { apiRequests, loadExample, testServerCredential } from '../checks';
import {
	importCredentials,
	importWorkflows,
	listWorkflowIds,
	publishWorkflows,
	startServer,
	type N8nServer,
} from '../n8n';
import { same } from '../report';
import { Suite } from '../suite';
import { node, NODE_TYPE, webhook, workflow, type Link, type WorkflowJson } from '../workflow';

import { COMPARE_TOOL, compareToolChecks } from './aiCompare';
import { DIGEST_TOOL, digestToolChecks } from './aiDigest';
import {
	describe,
	gotRequests,
	itemsOf as parsed,
	mcpClient,
	propTypes,
	textOf,
	type ToolResult,
} from './mcp';

const MCP_TOKEN = 'e2e-mcp-token-0123456789abcdef';
const MCP_AUTH = { Authorization: `Bearer ${MCP_TOKEN}` };
const mcpUrl = (n8n: N8nServer) => new URL(`${n8n.baseUrl}/mcp/phprank-seo`);
/** What get_failed_checks answers for report 999999, which does not exist. */
const NOT_FOUND = [
	{
		error:
			'Report 999999 was not found (HTTP 404). Check the report ID: it may have been deleted, or belong to another user.',
	},
];
const TOOL_NAMES = [
	'audit_url',
	COMPARE_TOOL,
	'get_failed_checks',
	'list_worst_reports',
	'rerun_report',
	'site_health',
	DIGEST_TOOL,
];

const suite = new Suite('ai-e2e', { editor: false });
const { check, section, note, api } = suite;

const requested = (label: string, call: { requests: RecordedRequest[] }, expected: string[]) =>
	gotRequests(suite, label, call.requests, expected);

// --------------------------------------------------------------------- the scripted chat model

interface ChatMessage {
	role: string;
	content?: string | null;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}
interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description: string; parameters: Record<string, unknown> };
	}>;
	stream?: boolean;
}
type Reply =
	| { toolCalls: Array<{ name: string; args: Record<string, unknown> }> }
	| { text: string };

/** An OpenAI-compatible `/v1/chat/completions` that answers with the next step of a script. */
async function startScriptedModel(script: (request: ChatRequest, turn: number) => Reply) {
	const requests: ChatRequest[] = [];
	let calls = 0;
	const server = await startHttp((req, res) => {
		void readBody(req).then((raw) => {
			if (raw === undefined) return; // the client went away mid-body: no one to answer
			const request = (
				req.method === 'POST' && req.url?.endsWith('/chat/completions') ? JSON.parse(raw) : {}
			) as ChatRequest;
			// The agent runs with enableStreaming off (NOTES.md, "OpenAI Chat Model"): a streamed request is not scripted.
			if (!request.model || request.stream) {
				const error = request.model ? 'streaming is not scripted' : 'not found';
				res.writeHead(request.model ? 400 : 404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: error } }));
				return;
			}
			requests.push(request);
			const reply = script(request, requests.length - 1);
			const message =
				'text' in reply
					? { role: 'assistant', content: reply.text }
					: {
							role: 'assistant',
							content: null,
							tool_calls: reply.toolCalls.map((call) => ({
								id: `call_${++calls}`,
								type: 'function',
								function: { name: call.name, arguments: JSON.stringify(call.args) },
							})),
						};
			const finish = 'text' in reply ? 'stop' : 'tool_calls';
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: request.model,
					choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
					usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
				}),
			);
		});
	});
	return { ...server, url: `${server.origin}/v1`, requests };
}

// ----------------------------------------------------------------------------------- workflows

/** The example's tool nodes under n8n's AI Agent, asked through a webhook. */
function agentWorkflow(example: WorkflowJson): WorkflowJson {
	const tools = example.nodes.filter((n) => n.type === `${NODE_TYPE}Tool`);
	const id = (n: number) => `6a0b8e52-1c3d-4f7a-8b9e-0d2f4a6c8e${String(n).padStart(2, '0')}`;
	const agent = 'SEO agent';
	return workflow(
		'phprankE2eAgent1',
		'e2e: phpRank tools under an AI Agent',
		[
			webhook('seo-agent', 'lastNode', {
				id: id(1),
				name: 'Question',
				webhookId: 'b4f1c2d3-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
			}),
			node(
				agent,
				'@n8n/n8n-nodes-langchain.agent',
				{
					promptType: 'define',
					text: '={{ $json.body.question }}',
					options: {
						systemMessage: 'You are an SEO assistant with phpRank tools.',
						enableStreaming: false,
					},
				},
				{ id: id(2), typeVersion: 3.1, position: [300, 0] },
			),
			node(
				'Chat model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				{
					model: { __rl: true, mode: 'id', value: 'gpt-e2e' },
					responsesApiEnabled: false,
					options: {},
				},
				{
					id: id(3),
					typeVersion: 1.3,
					position: [200, 300],
					credentials: { openAiApi: { id: 'e2e-openai', name: 'Scripted model' } },
				},
			),
			...tools.map((tool, index) => ({ ...tool, id: id(10 + index) })),
		],
		[
			['Question', agent],
			['Chat model', agent, 'ai_languageModel'],
			...tools.map((t): Link => [t.name, agent, 'ai_tool']),
		],
	);
}

/**
 * Until each URL's POST is registered (30 s at most): probed without side effects, as the MCP trigger refuses a
 * request without its token (403) and a POST-only webhook answers GET with "not registered for GET requests".
 */
async function waitRegistered(
	probes: Array<{ url: string; method: 'POST' | 'GET' }>,
): Promise<void> {
	const deadline = Date.now() + 30_000;
	for (const { url, method } of probes) {
		while (Date.now() < deadline) {
			const res = await fetch(url, {
				method,
				...(method === 'POST'
					? { headers: { 'content-type': 'application/json' }, body: '{}' }
					: {}),
			});
			const text = await res.text();
			if (res.status !== 404 || (method === 'GET' && /not registered for GET/.test(text))) break;
			await new Promise((r) => setTimeout(r, 250));
		}
	}
}

// ------------------------------------------------------------------------------------ MCP

/** Calls a tool as a client would; returns what the client got and what phpRank received. */
function callerOf(client: Client, api: PhpRankServer) {
	return async (name: string, args: Record<string, unknown>) => {
		api.clearRequests();
		const started = Date.now();
		const result = (await client.callTool({ name, arguments: args })) as ToolResult;
		note(
			`${name}(${JSON.stringify(args)}) -> ${textOf(result).length} chars in ${Date.now() - started} ms${result.isError ? ' (isError)' : ''}: ${textOf(result).slice(0, 300)}`,
		);
		return { result, requests: apiRequests(api) };
	};
}

/** A tool called as a client would (callerOf): what the client got and what phpRank received. */
type ToolCall = ReturnType<typeof callerOf>;

async function mcpChecks(n8n: N8nServer, api: PhpRankServer): Promise<void> {
	const url = mcpUrl(n8n);
	await checkMcpRefusesAnonymous(url);
	const client = await checkMcpToolList(url, MCP_AUTH);

	section('MCP: site_health, checked on both ends');
	const call = callerOf(client, api);
	await checkHealthTool(call, api);
	await checkFailingCalls(call);

	await client.close();
	await checkMcpOverSse(url, MCP_AUTH, api);
}

async function checkMcpRefusesAnonymous(url: URL): Promise<void> {
	section('MCP: who may connect');
	const refused = await mcpClient('e2e-anonymous', url, {}).then(
		() => undefined,
		(error: Error) => error.message,
	);
	check('a client without the bearer token is refused', refused !== undefined, refused);
	note(`without a token: ${refused}`);
}

/** A tool's JSON schema, as MCP lists it and as the model gets it. */
type Schema = {
	properties?: Record<string, { type?: string; description?: string; default?: unknown }>;
	required?: string[];
};

/** Connected with the token over streamable HTTP: the seven tools, their schemas and descriptions. */
async function checkMcpToolList(url: URL, auth: Record<string, string>): Promise<Client> {
	section('MCP over streamable HTTP: the tools as a client lists them');
	const client = await mcpClient('e2e-client', url, auth);
	check('connected with the bearer token (POST /mcp/phprank-seo, streamable HTTP)', true);
	check(
		'the server instructions reach the client',
		String(client.getInstructions()).startsWith(
			'These tools audit the SEO of web pages with phpRank.',
		),
		client.getInstructions(),
	);
	const { tools } = await client.listTools();
	const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
	check(
		'seven tools, named after their nodes',
		same(tools.map((t) => t.name).sort(), TOOL_NAMES),
		tools.map((t) => t.name),
	);
	for (const tool of tools)
		note(`${tool.name}: ${tool.description}\n         input: ${JSON.stringify(tool.inputSchema)}`);
	const schema = (name: string) => byName[name]?.inputSchema as Schema;
	const props = (name: string) => propTypes(schema(name));
	for (const [name, types] of [
		['audit_url', { password: 'string', privacy: 'number', url: 'string' }],
		['list_worst_reports', { limit: 'number', site: 'string' }],
		['get_failed_checks', { report_id: 'number' }],
		['rerun_report', { report_id: 'number' }],
	] as const)
		check(
			`${name} takes ${JSON.stringify(types)} (parameter: type)`,
			same(props(name), types),
			schema(name),
		);
	check(
		'url and report_id are required',
		schema('audit_url')?.required?.includes('url') &&
			schema('get_failed_checks')?.required?.includes('report_id'),
		[schema('audit_url')?.required, schema('get_failed_checks')?.required],
	);
	check(
		'defaults reach the schema (privacy 1, limit 10, site "")',
		schema('audit_url')?.properties?.privacy?.default === 1 &&
			schema('list_worst_reports')?.properties?.limit?.default === 10 &&
			schema('list_worst_reports')?.properties?.site?.default === '',
	);
	check(
		'every parameter has its description',
		TOOL_NAMES.every((n) =>
			Object.values(schema(n)?.properties ?? {}).every((p) => (p.description ?? '').length > 20),
		),
	);
	const described = (name: string, re: RegExp) => re.test(String(byName[name]?.description));
	check(
		"list_worst_reports: the example's own description",
		described('list_worst_reports', /^List phpRank SEO reports, worst score first/),
	);
	check(
		'no tool falls back to n8n\'s "… in phpRank"',
		tools.every((t) => !/ in phpRank$/.test(String(t.description))),
	);
	check(
		'site_health takes site (string), required, and says what it answers',
		same(props('site_health'), { site: 'string' }) &&
			schema('site_health')?.required?.includes('site') &&
			described('site_health', /^How a whole site is doing in phpRank/),
		[schema('site_health'), byName.site_health?.description],
	);

	return client;
}

/** site_health's few lines about a whole site. */
async function checkHealthTool(call: ToolCall, api: PhpRankServer): Promise<void> {
	// "How is shop.example.org doing?": Get Health, in a few lines an agent can read aloud.
	const health = await call('site_health', { site: 'shop.example.org' });
	const answer = parsed(health.result)[0] ?? {};
	const shop = api.listReports(USER_IDS.default).filter((r) => r.project === 'shop.example.org');
	const average = Math.round((shop.reduce((sum, r) => sum + r.result, 0) / shop.length) * 10) / 10;
	const averageClass = average > 79 ? 'good' : average >= 49 ? 'decent' : 'bad';
	const text = String(answer.health ?? '');
	check(
		`site_health: "how is shop.example.org doing?" answered in a few lines: its ${shop.length} pages, average ${average} (${averageClass}), health`,
		answer.project === 'shop.example.org' &&
			text.startsWith(`shop.example.org: score ${average} (${averageClass}), health `) &&
			text.includes(`${shop.length} pages (`) &&
			same(Object.keys(answer), ['project', 'health']),
		answer,
	);
	check(
		'  compact (under 800 characters) and no HTML',
		text.length < 800 && !/<[a-z]/i.test(text),
		text.length,
	);
	requested(
		'  phpRank got one GET /api/v1/reports with project=shop.example.org, 100 a page',
		health,
		['GET /api/v1/reports?project=shop.example.org&sort_by=id&sort=desc&per_page=100&page=1'],
	);
}

/** Failing calls: each answered with a sentence the model can act on (or refused by n8n's schema check). */
async function checkFailingCalls(call: ToolCall): Promise<void> {
	section('MCP: failing calls');
	const noSite = await call('site_health', { site: 'nothing.example.net' });
	check(
		'a site without reports: a sentence the model can act on',
		/^There are no reports of project "nothing\.example\.net"\. Project → Get Many lists the projects that have reports/.test(
			String(parsed(noSite.result)[0]?.error),
		),
		textOf(noSite.result),
	);
	const wrongType = await call('get_failed_checks', { report_id: 'the worst one' });
	check(
		"a report_id that is not a number is refused by n8n's schema check before the node runs",
		wrongType.result.isError === true && wrongType.requests.length === 0,
		textOf(wrongType.result),
	);
}

async function checkMcpOverSse(
	url: URL,
	auth: Record<string, string>,
	api: PhpRankServer,
): Promise<void> {
	section('MCP over SSE (the older transport n8n also serves)');
	const sse = new Client({ name: 'e2e-sse', version: '1.0.0' });
	await sse.connect(
		new SSEClientTransport(url, {
			requestInit: { headers: auth },
			eventSourceInit: {
				fetch: (input, init) =>
					fetch(input, {
						...init,
						headers: { ...(init?.headers as Record<string, string>), ...auth },
					}),
			},
		}),
	);
	const sseTools = await sse.listTools();
	check(
		'SSE: the same seven tools',
		same(sseTools.tools.map((t) => t.name).sort(), TOOL_NAMES),
		sseTools.tools.map((t) => t.name),
	);
	api.clearRequests();
	const sseCall = (await sse.callTool({
		name: 'get_failed_checks',
		arguments: { report_id: 3 },
	})) as ToolResult;
	check(
		'SSE: a call returns the report',
		parsed(sseCall)[0]?.id === 3 && same(describe(apiRequests(api)), ['GET /api/v1/reports/3']),
		textOf(sseCall),
	);
	await sse.close();
}

/**
 * Last: a 429's Retry-After holds back every later request of this phpRank user in n8n's process
 * (transport/rateLimit.ts), the AI Agent's too.
 */
async function throttleChecks(n8n: N8nServer, api: PhpRankServer): Promise<void> {
	section('MCP: phpRank throttling');
	const client = await mcpClient('e2e-throttled', mcpUrl(n8n), MCP_AUTH);
	const call = callerOf(client, api);
	api.setThrottle({ limit: 1, windowMs: 60_000 });
	await call('get_failed_checks', { report_id: 2 });
	const throttled = await call('get_failed_checks', { report_id: 2 });
	const wait = /try again in (\d+) seconds\.$/.exec(
		String(parsed(throttled.result)[0]?.error),
	)?.[1];
	check(
		'a long throttle: answered at once, saying when to retry',
		/^phpRank is rate limiting requests \(HTTP 429; by default it allows 60 a minute\): try again in \d+ seconds\.$/.test(
			String(parsed(throttled.result)[0]?.error),
		) &&
			Number(wait) >= 55 &&
			Number(wait) <= 60,
		textOf(throttled.result),
	);
	check(
		'  phpRank got one request, answered 429',
		throttled.requests.length === 1,
		describe(throttled.requests),
	);
	const blocked = await call('list_worst_reports', { limit: 1 });
	check(
		'while that wait lasts, the next call answers at once, without a request',
		/try again in \d+ seconds\.$/.test(String(parsed(blocked.result)[0]?.error)) &&
			blocked.requests.length === 0,
		describe(blocked.requests),
	);
	api.setThrottle(false);
	await client.close();
}

// ---------------------------------------------------------------------------------- AI Agent

async function agentChecks(
	n8n: N8nServer,
	api: PhpRankServer,
	model: Awaited<ReturnType<typeof startScriptedModel>>,
): Promise<void> {
	section('AI Agent with the phpRank tools, OpenAI Chat Model on a scripted server');
	api.clearRequests();
	const started = Date.now();
	const res = await fetch(`${n8n.baseUrl}/webhook/seo-agent`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ question: 'Which page of example.com needs SEO work most, and why?' }),
	});
	const body = (await res.json().catch(() => ({}))) as { output?: string };
	note(
		`webhook answered ${res.status} in ${Date.now() - started} ms: ${JSON.stringify(body).slice(0, 400)}`,
	);
	check(
		'the agent answered through the webhook',
		res.status === 200 && typeof body.output === 'string',
		body,
	);
	check(
		'the model was asked three times (tool call, tool calls, answer)',
		model.requests.length === 3,
		model.requests.length,
	);

	const first = model.requests[0];
	const tools = Object.fromEntries((first?.tools ?? []).map((t) => [t.function.name, t.function]));
	check(
		'the model got the seven tools',
		same(Object.keys(tools).sort(), TOOL_NAMES),
		Object.keys(tools),
	);
	note(`tools as the model got them: ${JSON.stringify(first?.tools)}`);
	const params = (name: string) => tools[name]?.parameters as Schema;
	check(
		'their JSON schemas: audit_url {url: string, privacy: number, password: string}',
		same(propTypes(params('audit_url')), { password: 'string', privacy: 'number', url: 'string' }),
		params('audit_url'),
	);
	check(
		'their JSON schemas: get_failed_checks {report_id: number}, required',
		params('get_failed_checks')?.properties?.report_id?.type === 'number' &&
			params('get_failed_checks')?.required?.includes('report_id'),
		params('get_failed_checks'),
	);
	check(
		'their descriptions: what and when',
		/Use it to explain what is wrong/.test(String(tools.get_failed_checks?.description)) &&
			String(tools.list_worst_reports?.description).startsWith(
				'List phpRank SEO reports, worst score first',
			),
	);
	check(
		'the question reached the model',
		JSON.stringify(first?.messages).includes('Which page of example.com needs SEO work most'),
	);

	const second = model.requests[1];
	const listResult = second?.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
	note(`list_worst_reports result the model got (${listResult.length} chars): ${listResult}`);
	check(
		"request 2 carries list_worst_reports' compact result (example.com, worst first)",
		same(
			(JSON.parse(listResult || '[]') as Array<{ id: number }>).map((r) => r.id),
			[1, 2],
		),
		listResult,
	);

	const third = model.requests[2];
	const results = (third?.messages ?? [])
		.filter((m) => m.role === 'tool')
		.map((m) => m.content ?? '');
	const checksResult = results.find((c) => c.includes('"failed_checks"')) ?? '';
	const notFound = results.find((c) => c.includes('999999')) ?? '';
	note(
		`get_failed_checks results the model got: ${checksResult.length} chars; the failing one: ${notFound}`,
	);
	check(
		"request 3 carries report 1's failed checks",
		(JSON.parse(checksResult || '[{}]') as Array<{ id?: number }>)[0]?.id === 1,
		checksResult,
	);
	check(
		'request 3 carries the failed call as one sentence',
		same(JSON.parse(notFound || 'null'), NOT_FOUND),
		notFound,
	);
	check("the agent's answer is the model's last message", body.output === finalAnswer, body.output);
	check(
		'phpRank got exactly what the tools asked for',
		same(describe(apiRequests(api)).sort(), [
			'GET /api/v1/reports/1',
			'GET /api/v1/reports/999999',
			'GET /api/v1/reports?project=example.com&sort_by=result&sort=asc&per_page=10&page=1',
		]),
		describe(apiRequests(api)),
	);
}

let finalAnswer = '';

/** The model's side of the conversation: list, then look at the worst report (and a wrong ID), then answer. */
function script(request: ChatRequest, turn: number): Reply {
	if (turn === 0)
		return { toolCalls: [{ name: 'list_worst_reports', args: { limit: 5, site: 'example.com' } }] };
	const results = request.messages
		.filter((m) => m.role === 'tool')
		.map((m) => JSON.parse(m.content ?? 'null') as Array<Record<string, unknown>>);
	if (turn === 1) {
		const worst = results[0]?.[0];
		return {
			toolCalls: [
				{ name: 'get_failed_checks', args: { report_id: worst?.id } },
				{ name: 'get_failed_checks', args: { report_id: 999999 } },
			],
		};
	}
	const report = results.find((r) => r?.[0]?.failed_checks)?.[0] ?? {};
	const high =
		((report.failed_checks as Record<string, string[]> | undefined)?.high ?? [])[0] ?? 'nothing';
	finalAnswer = `${String(report.url)} needs work most (score ${String(report.score)}): start with ${high}.`;
	return { text: finalAnswer };
}

// ---------------------------------------------------------------------------------------- main

function seed(api: PhpRankServer): void {
	const add = (id: number, url: string, result: number) =>
		api.addReport({ id, url, result, user_id: USER_IDS.default, privacy: 1 });
	add(1, 'https://example.com/', 31);
	add(2, 'https://example.com/pricing', 88);
	add(3, 'https://shop.example.org/', 62);
	add(4, 'https://blog.acme.io/seo-basics', 12);
	add(5, 'https://blog.acme.io/', 45);
	add(6, 'https://docs.widgets.dev/', 91);
	add(8, 'https://shop.example.org/cart', 20);
}

async function main(): Promise<void> {
	const model = await startScriptedModel(script);
	suite.defer(() => model.stop());
	const { sb } = await suite.packageSandbox();
	seed(api);
	await api.start();
	const example = loadExample('seo-assistant-mcp.json');
	await importCredentials(sb, [
		testServerCredential(api),
		{
			id: 'phprank-mcp-token',
			name: 'phpRank MCP token',
			type: 'httpBearerAuth',
			data: { token: MCP_TOKEN },
		},
		{
			id: 'e2e-openai',
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: 'sk-e2e-not-a-real-key', url: model.url },
		},
	]);
	const agent = agentWorkflow(example);
	await importWorkflows(sb, [example, agent]);
	// Published with the CLI, as an operator would: in production from the start below on.
	await publishWorkflows(sb, [example.id, agent.id]);
	const published = await listWorkflowIds(sb, { active: true });
	if (
		!check(
			'both workflows published (n8n list:workflow --active=true)',
			[example.id, agent.id].every((id) => published.includes(id)),
			published,
		)
	)
		return;
	const t = Date.now();
	const n8n = suite.n8n(await startServer(sb));
	note(`n8n ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	// n8n answers readiness before it has registered the published workflows' webhooks
	await waitRegistered([
		{ url: `${n8n.baseUrl}/mcp/phprank-seo`, method: 'POST' },
		{ url: `${n8n.baseUrl}/webhook/seo-agent`, method: 'GET' },
	]);

	await mcpChecks(n8n, api);
	await digestToolChecks(suite, mcpUrl(n8n), MCP_AUTH);
	await compareToolChecks(suite, mcpUrl(n8n), MCP_AUTH);
	await agentChecks(n8n, api, model);
	await throttleChecks(n8n, api);
}

suite.run(main);
