import type { IDataObject } from 'n8n-workflow';

import { FOREIGN_BODIES } from './server';
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { makeNode, registerNodeType, runWorkflow } from './harness/engine';
import {
	createParameters as create,
	getParameters as getReport,
	locator,
	updateParameters,
	useServer,
} from './harness/setup';

/*
 * Issue 11: nothing lost, nothing twice, nothing runaway. Each case was seen in a real n8n.
 */

/** An upstream node (a sheet): outputs its `rows` parameter, one item each. */
const INPUT_NODE = 'test.rows';
registerNodeType(INPUT_NODE, {
	description: {
		displayName: 'Rows',
		name: 'rows',
		group: ['input'],
		version: 1,
		description: 'Test rows',
		defaults: { name: 'Rows' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Rows', name: 'rows', type: 'json', default: [] }],
	},
	async execute(this: IExecuteFunctions) {
		const rows = this.getNodeParameter('rows', 0) as IDataObject[];
		return [rows.map((json) => ({ json, pairedItem: { item: 0 } }))];
	},
} as INodeType);

const urlItems = (count: number, bad?: number) =>
	Array.from({ length: count }, (_, i) => ({
		url: `https://site${i}.example.com/${i === bad ? 'fail' : 'ok'}`,
	}));
const createFromItems = create('={{ $json.url }}');

describe('Privacy is never wider than the user chose', () => {
	const api = useServer();

	it.each([
		['an empty expression', 'private', '={{ "" }}', { privacy: '1' }],
		['an expression that gives nothing', 'private', '={{ $json.missing }}', { privacy: '1' }],
		['a name from a sheet ("Public")', 'public', '={{ "Public" }}', { privacy: '0' }],
		['"password"', 'password', '={{ "password" }}', { privacy: '2', password: 'hunter2' }],
	])(
		'%s: the report is %s; a password travels only with Password privacy',
		async (_what, shown, privacy, form) => {
			const items = await api.ok(create('https://example.com/a', { privacy, password: 'hunter2' }));
			expect(api.apiRequests().map((r) => r.form)).toEqual([
				{ url: 'https://example.com/a', ...form },
			]);
			expect(items[0].json.privacy).toBe(shown);
		},
	);

	it('an unreadable privacy is refused before anything is sent', async () => {
		await api.refuses(
			create('https://example.com/d', { privacy: '={{ "secret" }}' }),
			'Privacy must be 0 (public), 1 (private), 2 (password), not "secret"',
		);
	});

	it('an Update whose Privacy expression gives nothing leaves the privacy alone', async () => {
		const [report] = api.server.listReports();
		await api.run(updateParameters(report.id, { privacy: '={{ "" }}', rerunAnalysis: true }));
		expect(api.sent('PUT')[0].form).toEqual({ results: '1' });
	});
});

describe("n8n's retry and error settings", () => {
	const api = useServer();
	const failFifth = () =>
		api.server.failNext(
			{ type: 'status', status: 500 },
			{ match: (r) => r.method === 'POST' && r.form.url?.endsWith('/fail') },
		);
	const retry = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

	it('Retry On Fail re-sends only the item that failed: every URL is created once', async () => {
		failFifth();
		const items = await api.ok(createFromItems, { items: urlItems(5, 4), settings: retry });
		const urls = urlItems(5, 4).map((i) => i.url);
		const posted = api.sent('POST').map((r) => r.form.url);
		expect(posted.sort()).toEqual([...urls, urls[4]].sort());
		const reports = api.server.listReports();
		expect(new Set(reports.map((r) => r.url)).size).toBe(reports.length);
		expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
	});

	it('Retry On Fail does not delete twice: reports deleted by the first try are not "not found" in the second', async () => {
		api.server.seedReports(5);
		const seeded = api.server.listReports().slice(-5);
		const ids = seeded.map((r) => ({ id: r.id }));
		api.server.failNext(
			{ type: 'status', status: 500 },
			{ match: (r) => r.method === 'DELETE' && r.path.endsWith(`/${ids[4].id}`) },
		);
		const items = await api.ok(
			{ resource: 'report', operation: 'delete', reportId: locator('id', '={{ $json.id }}') },
			{ items: ids, settings: retry },
		);
		expect(items.map((i) => i.json)).toEqual(ids.map(({ id }) => ({ deleted: true, id })));
		expect(api.sent('DELETE')).toHaveLength(6);
	});

	it('On Error → Stop names the reports created before the failure, and sends nothing after it', async () => {
		failFifth();
		const { error } = await api.run(createFromItems, { items: urlItems(5, 4) });
		expect(error?.message).toMatch(
			/^Creating the report for https:\/\/site4\.example\.com\/fail failed: the phpRank server/,
		);
		expect(api.sent('POST').filter((r) => r.status === 201)).toHaveLength(4);
		expect(error?.description).toMatch(
			/this node created 4 reports that exist in phpRank: #\d+ site0\.example\.com\/ok/,
		);
		expect(error?.description).toMatch(/Running it again with the same input creates them again/);
	});

	it('an input error stops the run before any item is sent', async () => {
		const urls = ['https://ok.example.com', 'not a url', 'https://ok2.example.com'];
		await api.refuses(createFromItems, 'The URL "not a url" is not a web address [item 1]', {
			items: urls.map((url) => ({ url })),
		});
	});

	it('On Error → Continue (error output): the error item is paired, keeps the input fields, names the URL', async () => {
		failFifth();
		const rows = urlItems(5, 4).map((item, i) => ({ ...item, row: i }));
		const { run } = await runWorkflow(
			[
				makeNode({ rows }, { type: INPUT_NODE, name: 'Sheet' }),
				{ ...makeNode(createFromItems), onError: 'continueErrorOutput' },
			],
			{ Sheet: { main: [[{ node: 'phpRank', type: 'main', index: 0 }]] } },
			api.credential,
		);
		const [ok, failed] = run.data.resultData.runData.phpRank[0].data!.main;
		expect(ok).toHaveLength(4);
		expect(failed).toHaveLength(1);
		expect(failed![0].pairedItem).toEqual({ item: 4 });
		expect(failed![0].json).toMatchObject({ row: 4, url: 'https://site4.example.com/fail' });
		expect(String(failed![0].json.error)).toMatch(/site4\.example\.com\/fail/);
	});
});

describe('Servers that are not phpRank', () => {
	const api = useServer({ seed: (server) => server.seedReports(3) });
	const other = useServer();

	it.each([
		[
			'a Get answered with another JSON',
			'GET',
			getReport(1),
			FOREIGN_BODIES.ok,
			/did not answer like a phpRank API: its answer has no report with an ID in "data"/,
		],
		[
			'a Create answered with {"data": null}',
			'POST',
			create('https://example.com'),
			FOREIGN_BODIES.nullData,
			/its answer has no report/,
		],
		[
			'a Delete answered with {}',
			'DELETE',
			{ resource: 'report', operation: 'delete', reportId: locator('id', 2) },
			FOREIGN_BODIES.emptyObject,
			/its answer has no "deleted": true/,
		],
		[
			'a list without "data"',
			'GET',
			{ resource: 'report', operation: 'getAll', returnAll: true },
			FOREIGN_BODIES.listWithoutData,
			/its answer has no list of records/,
		],
	])('%s is an error that says so', async (_what, method, parameters, body, message) => {
		api.server.failNext({ type: 'foreign', body }, { match: (r) => r.method === method });
		const { error, items } = await api.run(parameters);
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(message);
	});

	it('a redirect to https says to use https', async () => {
		api.server.failNext({ type: 'redirect', to: 'https', status: 301 });
		const { error } = await api.run(getReport(1));
		expect(error?.message).toMatch(/it redirects to https:\/\/ \(HTTP 301\)$/);
		expect(error?.description).toMatch(/start with https:\/\//);
	});

	it('a redirect to another host names it, and the key never goes there', async () => {
		api.server.failNext({ type: 'redirect', to: { origin: other.server.url }, status: 307 });
		const { error } = await api.run(getReport(1));
		expect(error?.message).toContain(
			`it redirects to another host, ${new URL(other.server.url).host} (HTTP 307)`,
		);
		expect(other.server.requests).toHaveLength(0);
	});

	it('GET and DELETE carry no Content-Type; Project Delete echoes the trimmed name', async () => {
		const [report] = api.server.listReports();
		await api.run(getReport(1));
		const { items } = await api.run({
			resource: 'project',
			operation: 'delete',
			project: locator('name', `  ${report.project}  `),
		});
		const [get, del] = api.apiRequests();
		expect(get.headers['content-type']).toBeUndefined();
		expect(del.headers['content-type']).toBeUndefined();
		expect(del.decodedPath).toBe(`/api/v1/projects/${report.project}`);
		expect(items[0].json).toEqual({ deleted: true, project: report.project });
	});
});

describe('A polite client', () => {
	const api = useServer({ seed: (server) => server.seedReports(300) });

	it('300 Get items against a slow instance keep at most 5 requests in flight', async () => {
		api.server.setResponseDelay(20);
		api.server.resetStats();
		const ids = api.server.listReports().map((r) => ({ id: r.id }));
		const items = await api.ok(getReport('={{ $json.id }}'), { items: ids });
		api.server.setResponseDelay(0);
		expect(items).toHaveLength(300);
		expect(api.server.stats.peakInFlight).toBeLessThanOrEqual(5);
	});
});

// Return All under creates and deletes: pagingInterleavings.test.ts (every order, through the engine) and
// unit/paging.test.ts (1,000 records); its cost when nothing changes: report.test.ts (250 in 3 requests).
describe('Return All against a server that ignores ?page=', () => {
	const api = useServer({ seed: (server) => server.seedReports(250) });
	afterEach(() => api.server.setIgnorePage(false));

	it('ends at once with an error that says so', async () => {
		api.server.setIgnorePage(true);
		const { items, error } = await api.run({
			resource: 'report',
			operation: 'getAll',
			returnAll: true,
			simplify: true,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/answered page 1 again when asked for page 2: a cache or proxy/);
		expect(api.apiRequests().length).toBeLessThanOrEqual(2);
	});
});

describe('Stop', () => {
	const api = useServer();
	afterEach(() => api.server.setThrottle(false));

	it('ends a rate-limit wait of a minute at once', async () => {
		// One request a minute: the other items wait for the next window (a minute) until Stop.
		api.server.setThrottle({ limit: 1, windowMs: 60_000 });
		let stoppedAt = 0;
		await runWorkflow([makeNode(createFromItems)], {}, api.credential, urlItems(3), (cancel) => {
			void sleep(1500).then(() => {
				stoppedAt = Date.now();
				cancel();
			});
		});
		expect(stoppedAt).toBeGreaterThan(0);
		expect(Date.now() - stoppedAt).toBeLessThan(10_000); // the window's end is a minute away
		expect(api.sent('POST').filter((r) => r.status === 201)).toHaveLength(1);
	});
});
