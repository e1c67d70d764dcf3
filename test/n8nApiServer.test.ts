/**
 * The fake of n8n's public API (test/server/n8nApi.ts) on its own, with plain fetch: each answer is the one
 * n8n 2.41.1 gave to the same request (scripts/n8n/NOTES.md, "The public API's data tables").
 */
import { startN8nApi, type N8nApi } from './server/n8nApi';

const KEY = 'test-n8n-api-key';
let api: N8nApi;

interface Answer {
	status: number;
	type: string | null;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(
	method: string,
	path: string,
	body?: unknown,
	key: string | null = KEY,
): Promise<Answer> {
	const headers: Record<string, string> = { accept: 'application/json' };
	if (key !== null) headers['X-N8N-API-KEY'] = key;
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(api.apiUrl + path, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return {
		status: res.status,
		type: res.headers.get('content-type'),
		body: text ? JSON.parse(text) : undefined,
	};
}

const q = (o: object): string =>
	'?' +
	Object.entries(o)
		.map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
		.join('&');
/** The execution_id of each row of a list answer. */
const executions = (answer: Answer): string[] =>
	answer.body.data.map((r: { execution_id: string }) => r.execution_id);
const cond = (columnName: string, value: unknown, condition = 'eq') => ({
	columnName,
	condition,
	value,
});

const COLUMNS = [
	{ name: 'site', type: 'string' },
	{ name: 'run_date', type: 'date' },
	{ name: 'execution_id', type: 'string' },
	{ name: 'average_score', type: 'number' },
	{ name: 'ok', type: 'boolean' },
] as const;

beforeEach(async () => {
	api = await startN8nApi({ apiKey: KEY });
});
afterEach(() => api.close());

async function historyTable(): Promise<string> {
	const t = api.tables.create('phprank_history', [...COLUMNS]);
	api.tables.seed(t.id, [
		{ site: 'a.com', run_date: '2026-01-05T10:00:00.000Z', execution_id: '1', average_score: 71.5 },
		{ site: 'b.com', run_date: '2026-01-06T10:00:00+02:00', execution_id: '2', average_score: 60 },
		{ site: 'a.com', run_date: '2026-01-04', execution_id: '3', average_score: 65 },
		{ site: 'c.com', execution_id: '4' },
	]);
	return t.id;
}

describe('rows', () => {
	test('insert: dates to ISO UTC, the inserted count answered', async () => {
		const id = await historyTable();
		const data = [{ site: 'f.com', run_date: '2026-02-01T12:00:00+01:00', average_score: 12.5 }];
		expect(await call('POST', `/data-tables/${id}/rows`, { data })).toEqual({
			status: 200,
			type: 'application/json; charset=utf-8',
			body: { success: true, insertedRows: 1 },
		});
		expect(api.tables.rows(id).map((row) => row.run_date)).toEqual([
			'2026-01-05T10:00:00.000Z',
			'2026-01-06T08:00:00.000Z',
			'2026-01-04T00:00:00.000Z',
			null,
			'2026-02-01T11:00:00.000Z',
		]);
	});

	test('list: OR filter, sortBy (NULL first), limit and cursor to the end', async () => {
		const id = await historyTable();
		const rows = `/data-tables/${id}/rows`;
		const or = { type: 'or', filters: [cond('site', 'a.com'), cond('site', 'b.com')] };
		const sorted = await call('GET', rows + q({ filter: or, sortBy: 'run_date:asc' }));
		expect(executions(sorted)).toEqual(['3', '1', '2']);
		expect(sorted.body.nextCursor).toBeNull();
		const nullFirst = await call('GET', rows + q({ sortBy: 'run_date:asc' }));
		expect(nullFirst.body.data[0].site).toBe('c.com');
		const seen: string[] = [];
		const sortBy = 'execution_id:desc';
		for (let query: object | null = { limit: '3', sortBy }; query; ) {
			const page = await call('GET', rows + q(query));
			seen.push(...executions(page));
			query = page.body.nextCursor && { cursor: page.body.nextCursor, sortBy };
		}
		expect(seen).toEqual(['4', '3', '2', '1']);
		expect(api.requests.at(-1)?.query).toEqual({
			cursor: Buffer.from('{"limit":3,"offset":3}').toString('base64'),
			sortBy: 'execution_id:desc',
		});
	});

	test('eq and gt: NULL equals only NULL, gt skips it, AND by default', async () => {
		const id = await historyTable();
		const ids = async (...filters: unknown[]) =>
			executions(await call('GET', `/data-tables/${id}/rows` + q({ filter: { filters } })));
		expect(await ids(cond('average_score', null))).toEqual(['4']);
		expect(await ids(cond('site', 'a.com'), cond('execution_id', '3'))).toEqual(['3']);
		expect(await ids(cond('average_score', 65, 'gt'), cond('id', 1, 'gt'))).toEqual([]);
		expect(await ids(cond('id', 2, 'gt'))).toEqual(['3', '4']);
	});
});
