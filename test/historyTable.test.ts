import type { IDataObject } from 'n8n-workflow';

import { GROUP_COLUMNS, HISTORY_COLUMNS } from '../nodes/PhpRank/history/model';
import { listSearch, testCredential } from './harness/engine';
import { locator, perSiteParameters, useN8nApi, useServer } from './harness/setup';
import { historyOf, scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';
import { siteFigures, type SiteFigures } from './server';
import { DEFAULT_MAX_SIZE_BYTES } from './server/n8nApi';

/*
 * History Store → Data Table, through the real n8n engine: Create or Re-Run (One Item per Site)
 * as production executions (mode `webhook`, each with its own ID) and manual ones, against the test
 * phpRank server and a stand-in for n8n's public API (test/server/n8nApi.ts, answering as n8n
 * 2.41.1 does). What went over the wire to n8n, what the table holds and what came out.
 */

const N8N_KEY = 'n8n-test-key';
const SITE = 'shop.example.com';
const URLS = [`https://${SITE}/`, `https://${SITE}/a`];
const OTHER_URL = 'https://blog.example.org/';
const DAY = 24 * 3600 * 1000;
const START = Date.parse('2026-01-05T08:00:00Z');

const perSite = (extra: IDataObject = {}) =>
	perSiteParameters({
		historyStore: 'dataTable',
		historyTable: locator('name', 'phpRank history'),
		...extra,
	});

describe('History Store → Data Table: a site’s runs as rows of an n8n data table', () => {
	const api = useServer();
	const n8n = useN8nApi(N8N_KEY);
	beforeEach(() => {
		api.server.deleteAllReports();
		n8n.reset();
		n8n.api.setPublicApiDisabled(false);
		n8n.api.setMaxSizeBytes(DEFAULT_MAX_SIZE_BYTES);
		reset();
	});

	const { run, state, reset } = siteRuns(api, perSite, {
		urls: URLS,
		n8nApi: () => n8n.credential,
	});

	/** Scripts the run `day` weeks in (each page's score, title failing on the first), then runs. */
	const runAt = (day: number, scores: number[], ...args: Parameters<typeof run>) => {
		scriptRun(api.server, URLS, { start: START, run: day, scores, failing: [['title']] });
		return run(...args);
	};

	const table = () => n8n.api.tables.byName('phpRank history')!;
	const rows = () => n8n.api.tables.rows(table().id);
	const n8nCalls = () => n8n.api.requests.map(({ method, path }) => `${method} ${path}`);

	it('creates the table by name on the first production run and adds one row per run, equal to the server’s figures', async () => {
		const figures: SiteFigures[] = [];
		for (let day = 0; day < 3; day++) {
			n8n.api.requests.length = 0;
			const { items, error } = await runAt(day, [70 + day, 80 + day], 'webhook');
			expect(error).toBeUndefined();
			figures.push(siteFigures(api.server, SITE));
			const site = items[0].json;
			expect(site).toMatchObject({ history_saved: true, history_error: null });
			expect(site.runs_recorded).toBe(day + 1);
			expect(historyOf(site)).toEqual(figures);
			// Requests to n8n: the table looked up (made the first time), the site's rows read, its row written.
			const tableId = table().id;
			expect(n8nCalls()).toEqual([
				'GET /api/v1/data-tables',
				...(day === 0 ? ['POST /api/v1/data-tables'] : []),
				`GET /api/v1/data-tables/${tableId}/rows`,
				`POST /api/v1/data-tables/${tableId}/rows/upsert`,
			]);
		}
		expect(table().columns.map(({ name, type }) => ({ name, type }))).toEqual([
			...HISTORY_COLUMNS,
			...GROUP_COLUMNS,
		]);
		expect(rows()).toEqual(
			figures.map((figure, index) =>
				expect.objectContaining({
					site: SITE,
					execution_id: String(index + 1),
					workflow_id: 'wf-1',
					average_score: figure.average_score,
					health_score: figure.health_score,
					pages: figure.pages,
					failing_checks: 'title (1 page)',
				}),
			),
		);
		expect(rows().map((row) => String(row.run_date).slice(0, 10))).toEqual(
			figures.map(({ date }) => String(date).slice(0, 10)),
		);
	});

	it('reads every site of the run in one request and writes one row per site; a manual run reads and writes nothing', async () => {
		api.server.setNextAnalysis(OTHER_URL, { score: 60, failed: [], others: 'pass' });
		await runAt(0, [70, 80], 'webhook', { urls: [...URLS, OTHER_URL] });
		const tableId = table().id;
		const reads = n8n.api.requests.filter(({ path }) => path.endsWith('/rows'));
		expect(reads).toHaveLength(1);
		expect(JSON.parse(reads[0].query.filter)).toEqual({
			type: 'or',
			filters: [
				{ columnName: 'site', condition: 'eq', value: 'blog.example.org' },
				{ columnName: 'site', condition: 'eq', value: SITE },
			],
		});
		expect(rows().map(({ site }) => site)).toEqual(
			expect.arrayContaining([SITE, 'blog.example.org']),
		);

		n8n.api.requests.length = 0;
		const manual = await runAt(1, [71, 81], 'manual');
		expect(manual.items[0].json).toMatchObject({ history_saved: false, runs_recorded: 2 });
		expect(rows()).toHaveLength(2);
		expect(n8nCalls()).toEqual([
			'GET /api/v1/data-tables',
			`GET /api/v1/data-tables/${tableId}/rows`,
		]);
	});

	it('writes one row, not two, when the same execution (Retry On Fail) or the same Run Key runs again; both rows of two runs at once are kept, whichever workflow wrote them', async () => {
		await runAt(0, [70, 80], 'webhook', { id: '41' });
		const again = await runAt(0, [72, 80], 'webhook', { id: '41' });
		expect(again.items[0].json.runs_recorded).toBe(1);
		expect(rows()).toHaveLength(1);
		expect(rows()[0].average_score).toBe(siteFigures(api.server, SITE).average_score);
		// Two executions of one site, as two workers would run them: both kept, by date.
		await runAt(1, [74, 80], 'webhook', { id: '42', workflowId: 'wf-2' });
		const later = await runAt(1, [76, 80], 'webhook', { id: '43' });
		expect(rows().map(({ execution_id }) => execution_id)).toEqual(['41', '42', '43']);
		// The rows belong to the site: another workflow's run is in this one's history.
		expect(rows().map(({ workflow_id }) => workflow_id)).toEqual(['wf-1', 'wf-2', 'wf-1']);
		expect(later.items[0].json.runs_recorded).toBe(3);
		// With a Run Key, another execution of the run (a dispatcher’s retry) replaces that run’s row.
		const week = { extra: { runKey: '={{ " week " + 2 }}' } };
		const first = await runAt(2, [60, 80], 'webhook', { id: '51', ...week });
		const retry = await runAt(2, [62, 80], 'webhook', { id: '52', ...week });
		expect(rows().map(({ execution_id }) => execution_id)).toEqual([
			'41',
			'42',
			'43',
			'run:week 2',
		]);
		expect(rows()[3].average_score).toBe(siteFigures(api.server, SITE).average_score);
		const runs = [first, retry].map(({ items }) => items[0].json);
		expect(runs.map((site) => [site.runs_recorded, historyOf(site).length])).toEqual([
			[4, 4],
			[4, 4],
		]);
		// The retry compares with the run before, not with the try it replaces; a key too long is refused first.
		expect(historyOf(runs[1]).slice(0, 3)).toEqual(historyOf(runs[0]).slice(0, 3));
		const sent = api.apiRequests().length;
		const long = await run('webhook', { id: '54', extra: { runKey: 'k'.repeat(101) } });
		expect(long.error?.message).toContain('Run Key is 101 characters long; at most 100');
		expect(api.apiRequests().length - sent).toBe(0);
		// At the bound, 100 characters, the key is the run's.
		const longest = await runAt(3, [63, 80], 'webhook', {
			id: '55',
			extra: { runKey: 'k'.repeat(100) },
		});
		expect(longest.error).toBeUndefined();
		expect(rows().map(({ execution_id }) => execution_id)).toContain(`run:${'k'.repeat(100)}`);
	});

	it('many sites’ first runs at once (one execution per site on queue-mode workers) make one table and keep every row', async () => {
		const sites = ['a', 'b', 'c', 'd'].map((name) => `https://${name}.example.com/`);
		for (const url of sites) api.server.setNextAnalysis(url, { score: 70, others: 'pass' });
		const runs = await Promise.all(
			sites.map(
				async (url, index) => await run('webhook', { urls: [url], id: String(60 + index) }),
			),
		);
		// All four looked for the table before any had made it: n8n answered the later creates 409.
		const creates = n8nCalls().filter((call) => call === 'POST /api/v1/data-tables');
		expect(creates.length).toBeGreaterThan(1);
		expect(runs.map(({ error, items }) => [error, items[0]?.json.history_saved])).toEqual(
			sites.map(() => [undefined, true]),
		);
		expect(n8n.api.tables.all()).toHaveLength(1);
		expect([rows().length, new Set(rows().map(({ site }) => site))]).toEqual([
			4,
			new Set(sites.map((url) => new URL(url).host)),
		]);
	});

	it('moves the history a node kept in the workflow into the table on its first production run, nothing twice', async () => {
		for (let day = 0; day < 3; day++)
			await runAt(day, [70 + day, 80], 'webhook', { extra: { historyStore: 'workflow' } });
		expect(n8n.api.tables.all()).toHaveLength(0);
		const before = structuredClone(state.saved);
		const moved = await runAt(3, [75, 80], 'webhook');
		expect(moved.items[0].json).toMatchObject({ runs_recorded: 4, history_saved: true });
		expect(rows().map(({ execution_id }) => execution_id)).toEqual(['', '', '', '4']);
		expect(Object.keys(state.saved).filter((key) => key.startsWith('history '))).toEqual([]);
		// Had n8n not saved that run's static data, the next run finds the runs in the table: none twice.
		const unsaved = structuredClone(state.saved);
		state.saved = before;
		const again = await runAt(3, [75, 80], 'webhook', { id: '4' });
		expect(again.items[0].json.runs_recorded).toBe(4);
		expect(rows()).toHaveLength(4);
		expect(Object.keys(state.saved).filter((key) => key.startsWith('history '))).toEqual([]);
		expect(Object.keys(unsaved)).toEqual(Object.keys(state.saved));
		// A run without an execution ID (no row of its own to replace) shows every moved run.
		const unnamed = await runAt(4, [76, 80], 'manual', { id: '' });
		expect(unnamed.items[0].json.runs_recorded).toBe(5);
		const next = await runAt(4, [76, 80], 'webhook');
		expect(next.items[0].json.runs_recorded).toBe(5);
		expect(rows()).toHaveLength(5);
	});

	it('refuses bad settings before any request: no History Table, no credential', async () => {
		// Left empty, n8n itself refuses the workflow (the field is required); an expression that
		// gives nothing reaches the node's own check.
		await expect(run('webhook', { extra: { historyTable: locator('list', '') } })).rejects.toThrow(
			'Parameter "History Table" is required',
		);
		const empty = await run('webhook', {
			extra: { historyTable: locator('id', '={{ $json.table ?? "" }}') },
		});
		expect(empty.error?.message).toContain('no History Table is chosen');
		expect(empty.error?.description).toContain('Pick a data table under History Table');
		const noCredential = await api.run(perSite(), {
			items: [{ url: URLS[0] }],
			execution: { mode: 'webhook', id: '9' },
		});
		expect(noCredential.error?.message).toContain('no n8n API credential is set');
		expect(api.apiRequests()).toEqual([]);
		expect(n8n.api.requests).toEqual([]);
	});

	/** A table made with these columns, by ID (`gone`: deleted again, from the list). */
	const made = (columns = HISTORY_COLUMNS, gone = false) => {
		const { id } = n8n.api.tables.create(gone ? 'gone' : 'partial', [...columns]);
		if (gone) n8n.api.tables.delete(id);
		return { historyTable: locator(gone ? 'list' : 'id', id) };
	};
	const lacking = HISTORY_COLUMNS.filter(({ name }) => name !== 'failing_checks');
	it.each<[string, () => IDataObject, RegExp, RegExp]>([
		['a wrong API key', () => ({ apiKey: 'wrong' }), /refused the API key/, /Settings → n8n API/],
		[
			'the public API turned off',
			() => (n8n.api.setPublicApiDisabled(true), {}),
			/refused the API key/,
			/N8N_PUBLIC_API_DISABLED/,
		],
		[
			'a table lacking columns',
			() => made(lacking),
			/lacks the columns? .*failing_checks \(string\)/,
			/By Name/,
		],
		['a deleted table', () => made(undefined, true), /history table is gone/, /Pick another table/],
	])(
		'stops before any phpRank request, naming the fix, for %s',
		async (_name, setup, message, fix) => {
			const { apiKey = N8N_KEY, ...extra } = setup();
			const n8nApi = { baseUrl: n8n.api.url, apiKey: String(apiKey) };
			const { error } = await run('webhook', { extra, n8nApi });
			expect(error?.message).toMatch(message);
			expect(error?.message).toContain('Nothing was sent to phpRank');
			expect(error?.description).toMatch(fix);
			// The item's own failure, not "another item failed first".
			expect(error?.description).not.toContain('another item');
			expect(api.apiRequests()).toEqual([]);
			expect(JSON.stringify(error)).not.toContain(N8N_KEY);
		},
	);

	it('says where n8n is unreachable, with the credential to fix', async () => {
		const { error } = await run('webhook', {
			urls: [URLS[0]],
			n8nApi: { baseUrl: 'http://127.0.0.1:9', apiKey: N8N_KEY },
			extra: { requestOptions: { waitOutOutages: 1 } },
		});
		expect(error?.message).toMatch(
			/Could not reach n8n at http:\/\/127\.0\.0\.1:9\/api\/v1: the connection was refused/,
		);
		expect(error?.description).toContain('phpRank History Store API credential');
		expect(api.apiRequests()).toEqual([]);
	});

	it('rides out n8n unavailable for a moment (a read and the upsert answered 5xx): the row is written once, history_saved true', async () => {
		await runAt(0, [70, 80], 'webhook');
		n8n.api.failNext({ method: 'GET', path: /rows$/ }, { status: 503, body: { message: 'busy' } });
		for (let n = 0; n < 2; n++)
			n8n.api.failNext({ method: 'POST', path: /rows\/upsert$/ }, { status: 500 });
		n8n.api.requests.length = 0;
		const { items, error } = await runAt(1, [71, 80], 'webhook');
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ history_saved: true, runs_recorded: 2 });
		expect(n8nCalls().filter((call) => /rows/.test(call))).toEqual([
			...Array(2).fill(`GET /api/v1/data-tables/${table().id}/rows`),
			...Array(3).fill(`POST /api/v1/data-tables/${table().id}/rows/upsert`),
		]);
		expect(rows()).toHaveLength(2);
	});

	it('keeps the audit when the row cannot be written past Wait Out Outages: history_saved false, history_error says why, nothing analysed twice', async () => {
		await runAt(0, [70, 80], 'webhook');
		for (let n = 0; n < 20; n++)
			n8n.api.failNext(
				{ method: 'POST', path: /rows\/upsert$/ },
				{ status: 500, body: { message: 'disk full' } },
			);
		const analyses = () => api.apiRequests().filter(({ method }) => method === 'PUT').length;
		const before = analyses();
		const { items, error } = await runAt(1, [71, 80], 'webhook', {
			extra: { requestOptions: { waitOutOutages: 1 } },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.history_saved).toBe(false);
		expect(items[0].json.history_error).toMatch(/n8n answered HTTP 500 .*disk full/);
		expect(items[0].json.average_score).toBe(siteFigures(api.server, SITE).average_score);
		expect(analyses() - before).toBe(URLS.length);
		expect(rows()).toHaveLength(1);
	});

	it('when n8n’s data tables are full, history_error quotes n8n and names the limit and its setting, not the columns; with room again the next run writes', async () => {
		await runAt(0, [70, 80], 'webhook');
		// As N8N_DATA_TABLES_MAX_SIZE_BYTES set to what the tables hold now: n8n 2.41.1 refuses every write.
		n8n.api.setMaxSizeBytes(n8n.api.tables.totalBytes());
		n8n.api.requests.length = 0;
		const { items, error } = await runAt(1, [71, 80], 'webhook');
		expect(error).toBeUndefined();
		const site = items[0].json;
		expect(site.history_saved).toBe(false);
		expect(site.history_error).toBe(
			"n8n's data tables are full (HTTP 400: Data table size limit exceeded: 0MB used, limit is 0MB). " +
				'n8n takes no new row once all its data tables together reach the limit it names, set by N8N_DATA_TABLES_MAX_SIZE_BYTES (in bytes): raise that setting where n8n runs and restart n8n, or delete rows no longer needed (Overview → Data tables). This run’s row is not kept; runs write theirs again once there is room.',
		);
		expect(site.history_error).not.toMatch(/column/);
		// The audit is whole: the run's figures, and its history shown with this run in it.
		expect(site.average_score).toBe(siteFigures(api.server, SITE).average_score);
		expect(site.runs_recorded).toBe(2);
		// Over the wire: the table found, the site's rows read, the upsert refused; nothing written.
		const tableId = table().id;
		expect(n8nCalls()).toEqual([
			'GET /api/v1/data-tables',
			`GET /api/v1/data-tables/${tableId}/rows`,
			`POST /api/v1/data-tables/${tableId}/rows/upsert`,
		]);
		expect(rows()).toHaveLength(1);

		n8n.api.setMaxSizeBytes(DEFAULT_MAX_SIZE_BYTES);
		const later = await runAt(2, [72, 80], 'webhook');
		expect(later.items[0].json).toMatchObject({ history_saved: true, history_error: null });
		expect(rows()).toHaveLength(2);
	});

	it('History Table lists this n8n’s tables by name, searched by name', async () => {
		n8n.api.tables.create('phpRank history', [...HISTORY_COLUMNS]);
		n8n.api.tables.create('leads', [{ name: 'email', type: 'string' }]);
		const search = (filter?: string) =>
			listSearch('searchHistoryTables', api.credential, filter, undefined, n8n.credential);
		const all = await search();
		expect(all.results.map(({ name }) => name)).toEqual(['leads', 'phpRank history']);
		expect(all.results[1].value).toBe(n8n.api.tables.byName('phpRank history')!.id);
		const found = await search('history');
		expect(found.results.map(({ name }) => name)).toEqual(['phpRank history']);
	});

	it('the credential’s Test says what works and what to fix', async () => {
		const cases: Array<[string, string, 'OK' | 'Error', string]> = [
			[n8n.api.url, N8N_KEY, 'OK', 'serves data tables'],
			[n8n.api.url, 'wrong', 'Error', 'HTTP 401'],
			[
				`${api.server.url}/nothing`,
				N8N_KEY,
				'Error',
				'No data-table API at this address (HTTP 404)',
			],
			['localhost:5678', N8N_KEY, 'Error', 'not a web address'],
		];
		for (const [baseUrl, apiKey, status, says] of cases)
			expect(await testCredential({ baseUrl, apiKey } as never, 'phpRankN8nApi')).toEqual({
				status,
				message: expect.stringContaining(says),
			});
		expect(n8n.api.requests.map(({ keySent }) => keySent)).toEqual(['right', 'wrong']);
	});

	it('reads 120 sites of long names in as few requests as n8n’s request-line limit allows, every row once', async () => {
		const made = n8n.api.tables.create('many', [...HISTORY_COLUMNS]);
		const sites = Array.from({ length: 120 }, (_, i) => `${'s'.repeat(60)}${i}.example.com`);
		n8n.api.tables.seed(
			made.id,
			sites.flatMap((site, i) =>
				[0, 1, 2].map((run) => ({
					site,
					run_date: new Date(START + run * DAY).toISOString(),
					average_score: 50 + (i % 40),
					health_score: 50,
					pages: 1,
					good_pages: 0,
					decent_pages: 1,
					bad_pages: 0,
					failing_checks: '',
					execution_id: `${i}-${run}`,
					workflow_id: 'wf',
				})),
			),
		);
		const { readRows } = await import('../nodes/PhpRank/history/tableApi');
		const ctx = {
			getCredentials: async () => n8n.credential,
			getNode: () => ({ name: 'phpRank' }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IDataObject) => {
					const url = new URL(String(options.url));
					for (const [key, value] of Object.entries((options.qs ?? {}) as IDataObject))
						url.searchParams.set(key, String(value));
					const response = await fetch(url, { headers: { 'X-N8N-API-KEY': N8N_KEY } });
					return { statusCode: response.status, body: await response.json() };
				},
			},
		} as never;
		const rows = await readRows(ctx, { id: made.id, name: 'many' }, sites);
		expect(rows).toHaveLength(360);
		expect(new Set(rows.map(({ execution_id }) => execution_id)).size).toBe(360);
		const reads = n8n.api.requests.filter(({ path }) => path.endsWith('/rows'));
		expect(reads.every(({ query }) => query.filter.length <= 6_000)).toBe(true);
		// About 120 characters of filter a site: three groups of at most 6,000, each one page of rows.
		expect(new Set(reads.map(({ query }) => query.filter)).size).toBe(3);
		expect(reads).toHaveLength(3);
	});
});
