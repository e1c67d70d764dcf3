import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PhpRank } from '../nodes/PhpRank/PhpRank.node';

import { shapeReport, toolReport } from '../nodes/PhpRank/engine/reportItem';
import { getParameters as get, locator, useServer } from './harness/setup';
import { expectedLink, expectedTopFailed } from './harness/expected';
import { callTool, runTools, toolNode } from './harness/tool';

/*
 * The node as an AI tool, through n8n-core's own tool path (createNodeAsTool and its invocation
 * handler, the path of the MCP Server Trigger): what the model reads about each tool, what a call
 * returns, and what went over the wire.
 */

const fromAI = (key: string, description: string, type = 'string', fallback?: string | number) =>
	`={{ $fromAI('${key}', '${description}', '${type}'${fallback === undefined ? '' : `, ${JSON.stringify(fallback)}`}) }}`;

/** A phpRank Tool node of one Report operation. */
const reportTool = (name: string, operation: string, parameters: INodeParameters) =>
	toolNode(name, { resource: 'report', operation, ...parameters });

const audit = reportTool('audit_url', 'createOrRerun', {
	url: fromAI('url', 'Full address of the page', 'string'),
	privacy: fromAI('privacy', '0 public, 1 private', 'number', 1),
});
const worst = reportTool('list_worst_reports', 'getAll', {
	limit: fromAI('limit', 'How many reports', 'number', 10),
	filters: {
		project: locator('name', fromAI('site', 'Host of one site, or empty for all', 'string', '')),
	},
	options: { sortBy: 'result', sortDirection: 'asc' },
});
const failedChecks = reportTool('get_failed_checks', 'get', {
	reportId: locator('id', fromAI('report_id', 'ID of the report', 'number')),
});
const rerun = reportTool('rerun_report', 'update', {
	reportId: locator('id', fromAI('report_id', 'ID of the report', 'number')),
	updateFields: { rerunAnalysis: true },
});

describe('phpRank as an AI tool', () => {
	const api = useServer({
		seed: (server) => {
			server.addReport({ id: 1, url: 'https://example.com/', result: 31, privacy: 1 });
			server.addReport({ id: 2, url: 'https://example.com/pricing', result: 88, privacy: 0 });
			server.addReport({ id: 3, url: 'https://shop.example.org/', result: 20, privacy: 1 });
		},
	});
	const call = (tool: INode, ...calls: IDataObject[]) => callTool(tool, api.credential, ...calls);
	/** A report of the seed as a list answers it. */
	const listed = (id: number, url: string, score: number) => ({
		id,
		url,
		score,
		result_class: 'bad',
		top_failed_checks: expectedTopFailed(api.server.getReport(id)!.results),
		generated_at: expect.any(String),
	});
	/** What the model reads when a call fails: one sentence. */
	const refusal = (error: string) => [{ error }];
	/** phpRank throttling the next request for `seconds`. */
	const throttle = (seconds: number) =>
		api.server.failNext({
			type: 'status',
			status: 429,
			body: { message: 'Too Many Attempts.' },
			headers: { 'Retry-After': String(seconds) },
		});

	it('each operation tells the model what it does and when to use it, and takes the $fromAI parameters', async () => {
		const { tools, error } = await runTools(
			[audit, worst, failedChecks, rerun],
			[],
			api.credential,
		);

		expect(error).toBeUndefined();
		const expected: Record<string, [string[], RegExp]> = {
			audit_url: [
				['url', 'privacy'],
				/^Audit the SEO of one web page with phpRank, re-using its report: .* Use it when asked to audit/,
			],
			get_failed_checks: [
				['report_id'],
				/^Get one phpRank SEO report by its ID: .* Use it to explain what is wrong/,
			],
			list_worst_reports: [
				['limit', 'site'],
				/^List phpRank SEO reports: .* Use it to find reports/,
			],
			rerun_report: [['report_id'], /^Change a phpRank report by its ID: re-run its SEO analysis/],
		};
		expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(expected));
		for (const { name, parameters, description } of tools) {
			expect(parameters).toEqual(expected[name][0]);
			expect(description).toMatch(expected[name][1]);
		}
		expect(api.calls()).toEqual([]);
	});

	it('a list comes back compact: ID, URL, score, class and date per report, worst first; the site filter goes to phpRank as the project', async () => {
		const { results } = await call(
			worst,
			{ limit: 2, site: '' },
			{ limit: 5, site: 'example.com' },
		);

		expect(JSON.parse(results[0])).toEqual([
			listed(3, 'shop.example.org', 20),
			listed(1, 'example.com', 31),
		]);
		expect(JSON.parse(results[1]).map((r: IDataObject) => r.id)).toEqual([1, 2]);
		expect(api.calls()).toEqual([
			'GET /api/v1/reports?sort_by=result&sort=asc&per_page=10&page=1',
			'GET /api/v1/reports?project=example.com&sort_by=result&sort=asc&per_page=10&page=1',
		]);
	});

	it('a score range the model gives narrows the list as in a workflow, and a range that cannot match is a sentence', async () => {
		const range = reportTool('list_by_score', 'getAll', {
			limit: 1,
			filters: {
				minScore: fromAI('min_score', 'Lowest score', 'number', 0),
				maxScore: fromAI('max_score', 'Highest score', 'number', 100),
			},
		});
		const { results } = await call(
			range,
			{ min_score: 25, max_score: 40 },
			{ min_score: 60, max_score: 10 },
		);

		expect(JSON.parse(results[0])).toEqual([listed(1, 'example.com', 31)]);
		expect(JSON.parse(results[1])).toEqual(
			refusal(
				'Minimum Score 60 is above Maximum Score 10. Set Minimum Score to at most Maximum Score under Filters: both are included in the range.',
			),
		);
		expect(api.calls()).toEqual(['GET /api/v1/reports?result=bad&per_page=100&page=1']);
	});

	it('one report lists its failed checks by importance, in words', async () => {
		const { results } = await call(failedChecks, { report_id: 1 });
		const [report] = JSON.parse(results[0]) as IDataObject[];

		const record = api.server.getReport(1)!;
		const failed = Object.entries(record.results).filter(([, check]) => !check.passed);
		expect(Object.keys(report)).toEqual(
			'id url score result_class project failed_checks privacy generated_at link'.split(' '),
		);
		expect(report).toMatchObject({
			id: 1,
			url: 'example.com',
			score: 31,
			result_class: 'bad',
			project: 'example.com',
			privacy: 'private',
			link: expectedLink(api.server.url, 1),
		});
		const groups = report.failed_checks as Record<string, string[]>;
		expect(Object.keys(groups)).toEqual(
			['high', 'medium', 'low'].filter((importance) =>
				failed.some(([, c]) => c.importance === importance),
			),
		);
		expect(Object.values(groups).flat()).toHaveLength(failed.length);
		for (const [name, check] of failed) {
			expect(
				groups[check.importance].some((text) => text === name || text.startsWith(`${name}: `)),
			).toBe(true);
		}
		expect(api.calls()).toEqual(['GET /api/v1/reports/1']);
	});

	it('audit creates one report with the URL and privacy the model gave, and re-runs it the next time', async () => {
		const { results } = await call(audit, { url: 'https://blog.example.net/post', privacy: 0 });
		const [report] = JSON.parse(results[0]) as IDataObject[];

		expect(report).toMatchObject({
			action: 'created',
			url: 'blog.example.net/post',
			project: 'blog.example.net',
			privacy: 'public',
			changes: null,
		});
		const posts = api.sent('POST');
		expect(posts).toHaveLength(1);
		expect(posts[0].form).toMatchObject({ url: 'https://blog.example.net/post', privacy: '0' });
		expect(posts[0].form.password ?? '').toBe('');

		api.server.clearRequests();
		const again = await call(audit, { url: 'https://www.blog.example.net/post/', privacy: 1 });
		const [rerun] = JSON.parse(again.results[0]) as IDataObject[];
		expect(rerun).toMatchObject({ action: 'rerun', id: report.id });
		// What changed, in words an agent can read aloud.
		expect(rerun.changes).toMatch(
			/^score \d+(\.\d+)? → \d+(\.\d+)?; (newly failed: |fixed: |no check changed)/,
		);
		expect(api.apiRequests().map((r) => r.method)).toEqual(['GET', 'PUT']);
	});

	it('re-run sends results=1 for the report the model named', async () => {
		const { results } = await call(rerun, { report_id: 2 });

		expect(JSON.parse(results[0])[0]).toMatchObject({
			id: 2,
			url: 'example.com/pricing',
			changes: expect.stringMatching(/^score 88 → /),
		});
		const puts = api.sent('PUT');
		expect(puts.map((r) => [r.path, r.form])).toEqual([['/api/v1/reports/2', { results: '1' }]]);
	});

	it('bad input comes back as a sentence naming the input, and nothing is sent', async () => {
		const { results, error } = await runTools(
			[audit, failedChecks],
			[
				{ node: 'audit_url', args: { url: 'ftp://example.com/no-scheme', privacy: 1 } },
				{ node: 'get_failed_checks', args: { report_id: -3 } },
			],
			api.credential,
		);

		expect(error).toBeUndefined();
		expect(results.map((r) => JSON.parse(r))).toEqual([
			refusal(
				'The URL "ftp://example.com/no-scheme" uses ftp:, not http or https. Enter the page to analyse, e.g. example.com/pricing (https:// is added) or http://example.com/pricing.',
			),
			refusal(
				'The report ID must be a positive whole number, not "-3". Choose the report from the list, or enter its numeric ID (e.g. 42), as shown in the report’s address in phpRank.',
			),
		]);
		expect(results.join(' ')).not.toMatch(/Error:/);
		expect(api.calls()).toEqual([]);
	});

	it('Create or Re-Run as a tool reads its Options, also from $fromAI: refusals are sentences naming the option, before any request', async () => {
		const publicAudit = reportTool('audit_public_url', 'createOrRerun', {
			url: fromAI('url', 'Full address of the page', 'string'),
			privacy: 1,
			options: {
				publicUrlsOnly: true,
				reuseRecentAnalysis: fromAI('reuse_hours', 'Hours a report may be reused', 'number', 0),
			},
		});
		const { tools, results, error } = await call(
			publicAudit,
			{ url: 'http://192.168.1.1/', reuse_hours: 24 },
			{ url: 'https://example.com/', reuse_hours: 9000 },
		);

		expect(error).toBeUndefined();
		expect(tools[0].parameters).toEqual(['url', 'reuse_hours']);
		expect(results.map((r) => JSON.parse(r))).toEqual([
			refusal(
				'The URL "http://192.168.1.1/" points to a private network address (192.168.0.0/16). Options → Public URLs Only is on: enter the address of a public web page, e.g. https://example.com/pricing.',
			),
			refusal(
				'Options → Reuse Recent Analysis must be a number from 0 to 8760, not "9000". Under Options, set Reuse Recent Analysis to how many hours an analysis may be reused, from 0 (always analyse) to 8760 (a year), e.g. 24.',
			),
		]);
		expect(api.calls()).toEqual([]);
	});

	it('an unknown report comes back as a sentence, after one request', async () => {
		const { results } = await call(failedChecks, { report_id: 999 });

		expect(JSON.parse(results[0])).toEqual(
			refusal(
				'Report 999 was not found (HTTP 404). Check the report ID: it may have been deleted, or belong to another user.',
			),
		);
		expect(api.calls()).toEqual(['GET /api/v1/reports/999']);
	});

	it('a short throttle is waited out and the call succeeds', async () => {
		throttle(1);
		const { results } = await call(failedChecks, { report_id: 2 });

		expect(JSON.parse(results[0])[0]).toMatchObject({
			id: 2,
			url: 'example.com/pricing',
			score: expect.any(Number),
		});
		expect(api.calls()).toEqual(['GET /api/v1/reports/2', 'GET /api/v1/reports/2']);
	});

	it('the workflow node keeps its Simplify output and its errors', async () => {
		expect(await api.first(get(1))).toEqual(
			shapeReport(api.server.getReport(1)! as unknown as IDataObject, {
				simplify: true,
				link: (id) => `${api.server.url}/reports/${String(id)}`,
			}),
		);

		const failed = await api.run(get(999));
		expect(failed.error?.message).toBe('Report 999 was not found (HTTP 404)');
	});
	// Last: the 429's wait holds back this user's later requests in the process (transport/rateLimit.ts).
	it('while phpRank throttles for long, the tool answers at once with when to retry', async () => {
		throttle(42);
		const started = Date.now();
		const { results } = await call(failedChecks, { report_id: 1 });

		expect(Date.now() - started).toBeLessThan(12_000); // not 42 s, nor its 15 s (TOOL_RATE_LIMIT_WAIT_MS)
		expect(JSON.parse(results[0])).toEqual(
			refusal(
				'phpRank is rate limiting requests (HTTP 429; by default it allows 60 a minute): try again in 42 seconds.',
			),
		);
		expect(api.calls()).toEqual(['GET /api/v1/reports/1']);
	});
});

describe('descriptions', () => {
	const { description } = new PhpRank();
	const operations = description.properties
		.filter(
			(p): p is INodeProperties & { options: INodePropertyOptions[] } => p.name === 'operation',
		)
		.flatMap((p) =>
			p.options.map((o) => ({
				resource: String(p.displayOptions?.show?.resource?.[0]),
				operation: o,
			})),
		);
	const parameters = (nodeType: INodeTypeDescription, values: IDataObject) =>
		NodeHelpers.getNodeParameters(
			nodeType.properties,
			values as never,
			true,
			false,
			null,
			nodeType,
		) as IDataObject;

	it.each(
		operations.map(({ resource, operation }) => [`${resource} ${operation.name}`, operation]),
	)('%s has a description line in the Operation list', (_name, operation) =>
		expect((operation as INodePropertyOptions).description?.length).toBeGreaterThan(10),
	);

	it('every operation has a tool description, shown only on the tool', () => {
		const tool = { ...description, name: 'phpRankTool' };
		for (const { resource, operation } of operations) {
			const values = { resource, operation: (operation as INodePropertyOptions).value };
			expect(parameters(tool, values).toolDescription).toMatch(/^[A-Z].{30,}\. .*\b[Uu]se it\b/);
			expect(parameters(description, values)).not.toHaveProperty('toolDescription');
		}
	});
});

describe('failed checks in words', () => {
	it('a problem named after its check reads as the check alone, never "title: title"', () => {
		const report = toolReport(
			{
				id: 1,
				url: 'example.com',
				result: 40,
				results: {
					title: { passed: false, importance: 'high', value: null, errors: { title: null } },
					meta_description: {
						passed: false,
						importance: 'high',
						value: null,
						errors: { missing: null, title: null },
					},
					load_time: {
						passed: false,
						importance: 'medium',
						value: 3.1,
						errors: { too_slow: { max: 1 } },
					},
				},
			},
			false,
			(id) => `https://seo.example.com/reports/${String(id)}`,
		);
		expect(report.failed_checks).toEqual({
			high: ['title', 'meta_description: missing, title'],
			medium: ['load_time: too_slow (max 1)'],
		});
	});
});

describe('size of what a model reads', () => {
	const api = useServer({ seed: (server) => server.seedReports(100) });

	it('the tool forms are a fraction of the full record, and a list a fraction of the Simplify output (printed)', () => {
		const reports = api.server.listReports() as unknown as IDataObject[];
		const size = (value: unknown) => JSON.stringify(value).length;
		const median = (values: number[]) =>
			values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
		const link = (id: unknown) => `${api.server.url}/reports/${String(id)}`;
		const simplified = { simplify: true, link };
		const one = median(reports.map((r) => size(shapeReport(r, simplified))));
		const full = median(reports.map((r) => size(shapeReport(r, { simplify: false, link }))));
		const oneTool = median(reports.map((r) => size(toolReport(r, false, link))));
		const list = size(reports.slice(0, 10).map((r) => shapeReport(r, simplified)));
		const listTool = size(reports.slice(0, 10).map((r) => toolReport(r, true, link)));
		process.stdout.write(
			`one report: ${full} chars in full, ${one} with Simplify, ${oneTool} as a tool (which names every failed check and why); 10 reports: ${list} with Simplify, ${listTool} as a tool\n`,
		);
		// One report as a tool names every failed check and what was wrong: more than Simplify's
		// counts, a fraction of the full record.
		expect(oneTool * 5).toBeLessThan(full);
		expect(listTool * 2).toBeLessThan(list);
	});
});
