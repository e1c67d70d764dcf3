import type { IDataObject } from 'n8n-workflow';

import { NO_API_PLAN_KEY, PhpRankServer, TEST_API_KEY, type Fault } from './server';
import { runNode } from './harness/engine';
import {
	closedPort,
	createParameters as create,
	getParameters as getReport,
	locator,
	reportParameters as report,
	updateParameters as update,
	useServer,
} from './harness/setup';

// 0: the outage a GET meets fails at once, as this file checks; test/retries.test.ts retries it.
const getOnce = (id: number, requestOptions: IDataObject = {}) => ({
	...getReport(id),
	requestOptions: { waitOutOutages: 0, ...requestOptions },
});

/** Faults of the server or the way to it, each with the message and description the user gets. */
const FAULTS: Array<[string, Fault, RegExp, RegExp]> = [
	[
		'an HTML 502 from a proxy',
		{ type: 'html', status: 502 },
		/^The phpRank server at .+ failed \(HTTP 502\)$/,
		/problem on the phpRank server/,
	],
	[
		'a 500 from phpRank',
		{ type: 'status', status: 500 },
		/failed \(HTTP 500\): An unexpected error has occurred/,
		/Try again later/,
	],
	[
		'a 302 to the login page',
		{ type: 'redirect' },
		/did not answer like a phpRank API: it redirected to a login page \(HTTP 302\)$/,
		/Base URL/,
	],
	[
		'a cut-off JSON body',
		{ type: 'truncated' },
		/did not answer like a phpRank API: its answer was not complete JSON/,
		/Base URL/,
	],
	[
		'an HTML page with status 200',
		{ type: 'status', status: 200, body: '<html><body>Maintenance</body></html>' },
		/it sent an HTML page instead of JSON$/,
		/Base URL/,
	],
	[
		'a reset connection',
		{ type: 'reset' },
		/^Could not reach phpRank at .+: the connection was reset before an answer came$/,
		/reachable from n8n/,
	],
];

describe('Errors the user can act on', () => {
	const api = useServer({ seed: (server) => server.seedReports(3) });
	const host = () => new URL(api.server.url).host;

	it.each(FAULTS)('%s', async (_what, fault, message, description) => {
		api.server.failNext(fault);
		const { error } = await api.run(getOnce(1));

		expect(error?.message).toMatch(message);
		expect(error?.message).toContain(host());
		expect(error?.description).toMatch(description);
	});

	it.each<[string, IDataObject, Partial<typeof api.credential>, string, RegExp | undefined]>([
		// 401: test/credentials.test.ts (Authentication of node requests).
		[
			'403: the plan has no API access',
			getReport(1),
			{ apiKey: NO_API_PLAN_KEY },
			'Your phpRank plan has no API access (HTTP 403)',
			/Enable API access for the plan/,
		],
		[
			'403 on update: the report does not exist or is not yours',
			update('99999', { privacy: 0 }),
			{},
			'Report 99999 does not exist or is not yours (HTTP 403)',
			/their own reports/,
		],
		[
			'404: names the report',
			getReport(4242),
			{},
			'Report 4242 was not found (HTTP 404)',
			/Check the report ID/,
		],
		[
			'422: each field’s own message, from `message`',
			create('https://unreachable-site.invalid/'),
			{},
			'phpRank rejected the request: url: Could not fetch the url. (HTTP 422)',
			undefined,
		],
	])('%s', async (_what, parameters, credential, message, description) => {
		const { error } = await runNode(parameters, { ...api.credential, ...credential });
		expect(error?.message).toBe(message);
		if (description) expect(error?.description).toMatch(description);
	});

	it('connection refused: names the host and the cause', async () => {
		const port = await closedPort();
		const { error } = await runNode(getOnce(1), {
			...api.credential,
			baseUrl: `http://127.0.0.1:${port}`,
		});
		expect(error?.message).toBe(
			`Could not reach phpRank at 127.0.0.1:${port}: the connection was refused (nothing listens at that address and port)`,
		);
	});

	it('timeout: uses the Timeout request option and names the host', async () => {
		api.server.failNext({ type: 'hang' });
		const { error } = await api.run(getOnce(1, { timeout: 300 }));
		expect(error?.message).toBe(
			`Could not reach phpRank at ${host()}: no answer came before the timeout`,
		);
	});
});

describe('Continue On Fail', () => {
	const api = useServer({ seed: (server) => server.seedReports(4) });

	it('turns a failed item into an error item; the others keep their result, pairing and order', async () => {
		const ids = api.server.listReports().map((r) => r.id);
		const items = await api.ok(getReport('={{ $json.id }}'), {
			items: [{ id: ids[0] }, { id: 'abc' }, { id: 9999 }, { id: ids[1] }],
			continueOnFail: true,
		});

		expect(items).toHaveLength(4);
		expect(items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.id).toBe(ids[0]);
		// Several input items: the message names the item, as n8n's error panel does.
		expect(items[1].json.error).toBe(
			'The report ID must be a positive whole number, not "abc" [item 1]',
		);
		expect(items[2].json.error).toBe('Report 9999 was not found (HTTP 404)');
		expect(items[3].json.id).toBe(ids[1]);
		// The bad ID never reached the server.
		expect(api.calls().sort()).toEqual(
			[ids[0], ids[1], 9999].map((id) => `GET /api/v1/reports/${id}`).sort(),
		);
	});
});

describe('Rate limits', () => {
	const api = useServer();
	beforeEach(() => api.server.deleteAllReports());
	afterEach(() => api.server.setThrottle(false));

	it('a 200-item Create run against a throttled server creates exactly 200 reports, none twice, none failed', async () => {
		// The real limit is 60 a minute; 20 in 3 s keeps the test short, same mechanics. (50 in 3 s let a
		// run slowed by a loaded machine, under 17 creates a second, pass without one 429.)
		api.server.setThrottle({ limit: 20, windowMs: 3000 });
		const before = api.server.createdCount;
		const urls = Array.from({ length: 200 }, (_, i) => ({ url: `https://site-${i}.example.com/` }));

		const items = await api.ok(create('={{ $json.url }}'), { items: urls });
		expect(items).toHaveLength(200);
		expect(items.every((i) => i.json.error === undefined)).toBe(true);
		expect(api.server.createdCount - before).toBe(200);
		const created = api.server.listReports().map((r) => r.url);
		expect(created.sort()).toEqual(urls.map((u) => new URL(u.url).host).sort());
		expect(items.map((i) => i.json.url)).toEqual(urls.map((u) => new URL(u.url).host));
		expect(api.sent('POST').length).toBeGreaterThan(200);
		// One request a window finds out when it ends (10 windows here): about 200 requests, not 360.
		expect(api.sent('POST').filter((r) => r.status === 429).length).toBeLessThanOrEqual(20);
	});

	it('Return All over a throttled server returns every report exactly once', async () => {
		api.server.seedReports(450);
		api.server.setThrottle({ limit: 2, windowMs: 3000 });

		const items = await api.ok({ resource: 'report', operation: 'getAll', returnAll: true });
		const ids = items.map((i) => i.json.id);
		expect(ids).toHaveLength(450);
		expect(new Set(ids).size).toBe(450);
		const pages = api.apiRequests().filter((r) => r.query.page);
		expect(pages.length).toBeGreaterThan(5);
		expect(new Set(pages.map((r) => r.query.page))).toEqual(new Set(['1', '2', '3', '4', '5']));
	});

	it('batching from Request Options spreads the items as configured', async () => {
		api.server.seedReports(3);
		const ids = api.server.listReports().map((r) => r.id);
		const started = Date.now();
		const items = await api.ok(
			{
				...getReport('={{ $json.id }}'),
				requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 150 } } },
			},
			{ items: ids.map((id) => ({ id })) },
		);
		expect(items.map((i) => i.json.id)).toEqual(ids);
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
	});
});

describe('Bad input is refused before any request', () => {
	const api = useServer({ seed: (server) => server.seedReports(1) });
	const idOf = (value: string) => report('delete', { reportId: locator('id', value) });
	const getAll = (extra: IDataObject) => report('getAll', { returnAll: true, ...extra });
	const pageSize = (size: string) => getAll({ options: { pageSize: `={{ "${size}" }}` } });
	const needsPassword = /^Password privacy needs a password$/;

	it.each<[string, IDataObject, RegExp | string, Partial<typeof api.credential>?]>([
		['a report ID that is empty', idOf('={{ "" }}'), /positive whole number, not nothing/],
		[
			'a report ID that is non-numeric',
			idOf('={{ "12abc" }}'),
			/positive whole number, not "12abc"/,
		],
		['a report ID that is zero', idOf('={{ 0 }}'), /positive whole number, not "0"/],
		[
			'a report ID that is an array',
			idOf('={{ [1, 2] }}'),
			/^Report must be text, but the expression gave a list$/,
		],
		[
			'a report ID that is an object',
			idOf('={{ { id: 1 } }}'),
			/^Report must be text, but the expression gave an object$/,
		],
		['a URL with no host', create('https://'), 'The URL "https://" is not a web address'],
		['a URL of nothing (from an expression)', create('={{ "" }}'), 'The URL is empty'],
		[
			'Create with Password privacy without a password',
			create('https://example.com', { privacy: 2, password: '={{ $json.missing }}' }),
			needsPassword,
		],
		['Update to Password privacy without a password', update('1', { privacy: 2 }), needsPassword],
		[
			'a password over 128 characters',
			create('https://example.com', { privacy: 2, password: 'p'.repeat(129) }),
			/^The password is too long \(129 characters; phpRank accepts at most 128\)$/,
		],
		['an update with nothing to change', update('1', {}), /^Nothing to update$/],
		...['7', '200', 'ten'].map((size): [string, IDataObject, RegExp] => [
			`a page size of ${size} from an expression`,
			pageSize(size),
			/^The page size must be 10, 25, 50 or 100/,
		]),
		[
			'a limit that is not a whole number',
			report('getAll', { limit: '={{ "many" }}' }),
			/^The limit must be a whole number of 1 or more/,
		],
		[
			'a search that is an object',
			getAll({ filters: { search: '={{ { q: 1 } }}' } }),
			/^search must be text, but the expression gave an object$/,
		],
		// Without a scheme: test/credentials.test.ts (Authentication of node requests).
		[
			'a Base URL that is empty',
			getReport(1),
			/^The Base URL of the phpRank credential is invalid$/,
			{ baseUrl: '' },
		],
	])('%s', async (_what, parameters, message, credential = {}) => {
		const error = await api.refuses(parameters, message, {
			credential: { ...api.credential, ...credential },
		});
		expect(error.description!.length).toBeGreaterThan(10);
	});

	it('a URL without its scheme is not bad input: Create sends it with https://, as Create or Re-Run does', async () => {
		const items = await api.ok(create('example.com/page'));
		expect(api.apiRequests().map((r) => [r.method, r.form.url])).toEqual([
			['POST', 'https://example.com/page'],
		]);
		expect(items[0].json.url).toBe('example.com/page');
	});
});

describe('Secrets', () => {
	const api = useServer({ seed: (server) => server.seedReports(2) });
	const elsewhere = useServer();
	const password = 'Sup3r-Secret-Report-Password';

	// The workflow definition itself holds the password parameter (n8n also copies the node into
	// the execution's stack); what the node produces must not: output, errors, stored run data.
	it('the API key and report passwords appear nowhere in output, errors or stored run data', async () => {
		const createWith = (url: string, extra: IDataObject = {}) =>
			api.run(create(url, { privacy: 2, password, ...extra }));
		const updateWith = (id: string, continueOnFail?: boolean) =>
			api.run(update(id, { privacy: 2, password }), { continueOnFail });
		const runs = [];
		for (const [, fault] of FAULTS) {
			api.server.failNext(fault);
			runs.push(await createWith('https://example.com'));
		}
		const wrongKey = { ...api.credential, apiKey: `${TEST_API_KEY.slice(0, 60)}nope` };
		runs.push(
			await createWith('https://x.invalid'),
			await createWith('https://example.com', { password: `${password}${'x'.repeat(120)}` }),
			await updateWith('1'),
			await updateWith('777', true),
			await runNode(getReport(1), wrongKey),
		);

		for (const run of runs) {
			const stored = JSON.stringify(run.run.data.resultData);
			expect(stored).not.toContain(TEST_API_KEY);
			expect(stored).not.toContain(TEST_API_KEY.slice(0, 60));
			expect(stored).not.toContain(password);
			if (run.error) {
				expect(`${run.error.message} ${run.error.description}`).not.toContain(password);
				expect(JSON.stringify(run.error)).not.toContain(password);
			}
		}
		expect(runs.filter((run) => run.error).length).toBeGreaterThanOrEqual(7);
	});

	it('pagination never follows links.next to another host', async () => {
		// Every page's links.next names the other server (elsewhere), which must get no request.
		const linking = new PhpRankServer({ throttle: false, nextLinkHost: elsewhere.server.url });
		linking.seedReports(250);
		await linking.start();
		try {
			const { items, error } = await runNode(
				{ resource: 'report', operation: 'getAll', returnAll: true },
				{ baseUrl: linking.url, apiKey: TEST_API_KEY },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(250);
			expect(linking.requests.filter((r) => r.path === '/api/v1/reports').length).toBe(3);
		} finally {
			await linking.stop();
		}
		expect(elsewhere.server.requests).toHaveLength(0);
	});
});
