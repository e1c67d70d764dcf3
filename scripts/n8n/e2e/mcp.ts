/**
 * The MCP client side of `npm run test:e2e:ai` (ai.e2e.ts, aiDigest.ts, aiCompare.ts): a client of the
 * example's MCP Server Trigger, a tool's answer read as n8n's tools give it, a tool as a client lists it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { RecordedRequest } from '../../../test/server';
import { describeRequest } from '../checks';
import { same } from '../report';
import type { Suite } from '../suite';

/** What an MCP tool call answers. */
export type ToolResult = { content?: Array<{ type: string; text?: string }>; isError?: boolean };

/** A tool's answer as text. */
export const textOf = (result: ToolResult) =>
	(result.content ?? []).map((c) => c.text ?? '').join('');

/** A tool's answer as n8n's tools give it: a JSON list of items ([] if it is not one). */
export function itemsOf(result: ToolResult): Array<Record<string, unknown>> {
	try {
		return JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
	} catch {
		return [];
	}
}

/** The first item of a tool's answer, or {}. */
export const answerOf = (result: ToolResult): Record<string, unknown> => itemsOf(result)[0] ?? {};

export const describe = (reqs: RecordedRequest[]) => reqs.map(describeRequest);

/** Checks that phpRank got exactly `expected` (in order). */
export const gotRequests = (
	suite: Suite,
	label: string,
	reqs: RecordedRequest[],
	expected: string[],
) => suite.check(label, same(describe(reqs), expected), describe(reqs));

/** A client connected over streamable HTTP with `headers` (the bearer token). */
export async function mcpClient(
	name: string,
	url: URL,
	headers: Record<string, string>,
): Promise<Client> {
	const client = new Client({ name, version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	return client;
}

/** A tool's parameters by name, each with its JSON type, sorted (which one n8n lists first is not checked). */
export const propTypes = (schema: { properties?: Record<string, { type?: string }> } | undefined) =>
	Object.fromEntries(
		Object.entries(schema?.properties ?? {})
			.map(([k, v]) => [k, v.type])
			.sort(([a], [b]) => String(a).localeCompare(String(b))),
	);

/** `fn` with a client of its own; then the client closed and the reports it made removed. */
export async function withToolClient(
	suite: Suite,
	name: string,
	mcpUrl: URL,
	headers: Record<string, string>,
	fn: (client: Client) => Promise<void>,
): Promise<void> {
	const { api } = suite;
	const before = new Set(api.listReports().map((r) => r.id));
	const client = await mcpClient(name, mcpUrl, headers);
	try {
		await fn(client);
	} finally {
		await client.close();
		for (const report of api.listReports()) if (!before.has(report.id)) api.deleteReport(report.id);
	}
}

/** The tool named `name` as the client lists it (its description and input schema noted). */
export async function listedTool(suite: Suite, client: Client, name: string) {
	const tool = (await client.listTools()).tools.find((t) => t.name === name);
	suite.note(`${name}: ${tool?.description}\n         input: ${JSON.stringify(tool?.inputSchema)}`);
	return tool;
}
