/**
 * n8n data tables, the one client of the suites: made and read through the REST API as the editor's Overview →
 * Data tables does (NOTES.md, "Forms": verified on 2.41.1), and through n8n's public API with a key, as the
 * node and a user's script reach them (NOTES.md, "The public API's data tables").
 */
import { sentAgainIfClosed, type RestSession } from './rest';

export interface DataTable {
	projectId: string;
	id: string;
}

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';
type Row = Record<string, unknown>;

/**
 * The columns the node gives the history table it makes (README, "Where history lives"), in its order; the last
 * three are Page Groups' (README, "Page groups and budgets": a table made by this version has them).
 */
export const README_HISTORY_COLUMNS: Array<{ name: string; type: ColumnType }> = [
	{ name: 'site', type: 'string' },
	{ name: 'run_date', type: 'date' },
	...['average_score', 'health_score', 'pages', 'good_pages', 'decent_pages', 'bad_pages'].map(
		(name) => ({ name, type: 'number' as const }),
	),
	...['failing_checks', 'execution_id', 'workflow_id', 'page_group'].map((name) => ({
		name,
		type: 'string' as const,
	})),
	{ name: 'budget_passed', type: 'boolean' },
	{ name: 'breaches', type: 'string' },
];

/** A data table in the owner's personal project, with its columns. */
export async function createDataTable(
	session: RestSession,
	name: string,
	columns: ReadonlyArray<{ name: string; type: ColumnType }>,
): Promise<DataTable> {
	const project = await session.request<{ data: { id: string } }>('GET', '/rest/projects/personal');
	const projectId = project.body.data.id;
	const table = await session.request<{ data: { id: string } }>(
		'POST',
		`/rest/projects/${projectId}/data-tables`,
		{ name, columns },
	);
	if (table.status !== 200)
		throw new Error(`data table not created: ${table.status} ${JSON.stringify(table.body)}`);
	return { projectId, id: table.body.data.id };
}

/** The table's rows, in the order they were added. */
export async function dataTableRows(session: RestSession, table: DataTable): Promise<Row[]> {
	const res = await session.request<{ data: { data: Row[] } }>(
		'GET',
		`/rest/projects/${table.projectId}/data-tables/${table.id}/rows`,
	);
	return byId(res.body.data.data);
}

const byId = (rows: Row[]) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));

/** n8n's API refuses a query value holding any of RFC 3986's reserved characters (express-openapi-validator). */
const strict = (value: string) =>
	encodeURIComponent(value).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);

export interface TableInfo {
	id: string;
	name: string;
	columns?: Array<{ name: string; type: string; index?: number }>;
}

/** n8n's public API (/api/v1) with the key `apiKey`: its data tables. */
export function publicTables(baseUrl: string, apiKey: string) {
	const request = async <T>(method: string, path: string, body?: unknown) => {
		const res = await sentAgainIfClosed(method, () =>
			fetch(`${baseUrl}/api/v1${path}`, {
				method,
				headers: {
					'X-N8N-API-KEY': apiKey,
					accept: 'application/json',
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(30_000),
			}),
		);
		const text = await res.text();
		return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
	};
	const ok = async <T>(method: string, path: string, body?: unknown) => {
		const res = await request<T>(method, path, body);
		if (res.status >= 300)
			throw new Error(`${method} /api/v1${path}: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body;
	};
	const query = (q: Record<string, string | undefined>) =>
		Object.entries(q)
			.filter(([, v]) => v !== undefined)
			.map(([k, v]) => `${k}=${strict(v!)}`)
			.join('&');
	return {
		request,
		/** the tables named `name` (n8n's filter matches parts of names) */
		named: async (name: string) =>
			(
				await ok<{ data: TableInfo[] }>(
					'GET',
					`/data-tables?${query({ filter: JSON.stringify({ name }) })}`,
				)
			).data.filter((t) => t.name === name),
		table: (id: string) => ok<TableInfo>('GET', `/data-tables/${id}`),
		/** every row (pages of 250), in the order they were added unless `sortBy` says otherwise */
		rows: async <R = Row>(id: string, o: { site?: string; sortBy?: string } = {}): Promise<R[]> => {
			const filter = o.site && {
				type: 'and',
				filters: [{ columnName: 'site', condition: 'eq', value: o.site }],
			};
			const rows: Row[] = [];
			let cursor: string | undefined;
			do {
				const q = query({
					filter: filter ? JSON.stringify(filter) : undefined,
					sortBy: o.sortBy,
					limit: '250',
					cursor,
				});
				const page = await ok<{ data: Row[]; nextCursor?: string | null }>(
					'GET',
					`/data-tables/${id}/rows?${q}`,
				);
				rows.push(...page.data);
				cursor = page.nextCursor ?? undefined;
			} while (cursor);
			return (o.sortBy ? rows : byId(rows)) as R[];
		},
		addRows: (id: string, data: Row[]) =>
			ok('POST', `/data-tables/${id}/rows`, { data, returnType: 'count' }),
	};
}
