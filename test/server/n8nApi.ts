/**
 * A stand-in for n8n's public REST API v1 data tables (`/api/v1/data-tables…`, header `X-N8N-API-KEY`), answering
 * as n8n 2.41.1 on its default SQLite database does: the status codes, JSON bodies and error messages recorded in
 * scripts/n8n/NOTES.md, "The public API's data tables (verified on 2.41.1)". Tables, their columns and rows
 * live in memory; every request is recorded (the key header left out) for tests to check what went over the wire.
 */
import http, { type IncomingMessage, type ServerResponse } from 'http';

import { closeAll, listen, readBody } from './http';

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';
export type CellValue = string | number | boolean | null;
export type Row = Record<string, CellValue>;

export interface N8nColumn {
	updatedAt: string;
	createdAt: string;
	id: string;
	dataTableId: string;
	name: string;
	type: ColumnType;
	index: number;
}

export interface N8nTable {
	updatedAt: string;
	createdAt: string;
	id: string;
	name: string;
	projectId: string;
	columns: N8nColumn[];
}

/** A stored row as the API answers it: the columns in their order, then id, createdAt, updatedAt. */
export type StoredRow = Row & { id: number; createdAt: string; updatedAt: string };

export interface RecordedN8nRequest {
	method: string;
	/** without the query string, e.g. /api/v1/data-tables/abc/rows */
	path: string;
	query: Record<string, string>;
	/** parsed JSON, the raw text when it is not JSON, undefined without a body */
	body: unknown;
	/** lower-case names; x-n8n-api-key is left out (see `keySent`) */
	headers: Record<string, string>;
	/** whether the request carried an X-N8N-API-KEY header, and whether it was the right one */
	keySent: 'none' | 'right' | 'wrong';
}

export interface RequestMatch {
	method?: string;
	/** a pattern tested against the path */
	path?: RegExp;
}

/** The answer one matching request gets instead of n8n's. */
export interface N8nFault {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export interface N8nApi {
	/** http://127.0.0.1:<port>: the instance's base URL (n8n's own credential asks for this) */
	url: string;
	/** url + /api/v1 */
	apiUrl: string;
	apiKey: string;
	tables: TableStore;
	requests: RecordedN8nRequest[];
	/** as `N8N_PUBLIC_API_DISABLED=true`: every call with a key answers 401 {"message":"unauthorized"} */
	setPublicApiDisabled(disabled: boolean): void;
	/** the next request that matches gets the fault (once) */
	failNext(match: RequestMatch, fault: N8nFault): void;
	/** drops the faults no request has used (a test's leftovers), and the gate */
	clearFaults(): void;
	/** each request, once recorded, waits for `gate` before it is answered (two executions' interleaving) */
	setGate(gate?: (request: RecordedN8nRequest) => Promise<void> | void): void;
	/** as restarting n8n with another N8N_DATA_TABLES_MAX_SIZE_BYTES (every table's bytes together, `TableStore.totalBytes`; n8n's default 200 MiB until then) */
	setMaxSizeBytes(bytes: number): void;
	close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const SIZE_BYTES = 4096;
/** n8n's default N8N_DATA_TABLES_MAX_SIZE_BYTES (2.41.1: @n8n/config DataTableConfig.maxSize). */
export const DEFAULT_MAX_SIZE_BYTES = 200 * 1024 * 1024;
/** n8n's toMb (@n8n/utils number/bytes): megabytes, rounded. */
const toMb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** n8n's error answers: `{ message }` with the status. */
class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
const bad = (message: string) => new ApiError(400, message);
const notFound = (id: string) => new ApiError(404, `Could not find the data table: '${id}'`);

let idCounter = 0;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 16 characters as n8n's ids (nanoid alphabet without - and _), unique in this process. */
function newId(): string {
	let n = ++idCounter * 7919 + Date.now();
	let out = '';
	for (let i = 0; i < 16; i++) {
		out += ALPHABET[(n + i * 31) % ALPHABET.length];
		n = Math.floor(n / 3) + i;
	}
	return out.slice(0, 12) + String(idCounter).padStart(4, '0').slice(-4);
}

/** A date value as n8n takes it (an ISO date, with or without time and zone; no zone = UTC) → ISO UTC. */
function parseIsoDate(value: string): string | undefined {
	const m =
		/^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?)(Z|[+-]\d\d:?\d\d)?)?$/.exec(
			value.trim(),
		);
	if (!m) return undefined;
	const date = new Date(`${m[1]}T${m[2] ?? '00:00'}${m[3] ?? 'Z'}`);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** n8n's validateAndTransformCell for the values the node sends: a date column keeps ISO UTC. */
function cellValue(value: unknown, type: ColumnType | undefined): CellValue {
	if (type === 'date' && typeof value === 'string') return parseIsoDate(value) ?? value;
	return value as CellValue;
}

interface Filter {
	type: 'and' | 'or';
	filters: Array<{ columnName: string; condition: string; value: CellValue }>;
}

/** dataTableFilterSchema's defaults (type and, condition eq) on the filter the node sends. */
function filterShape(raw: unknown): Filter {
	const { type = 'and', filters = [] } = (raw ?? {}) as {
		type?: Filter['type'];
		filters?: Array<Partial<Filter['filters'][number]> & { columnName: string }>;
	};
	return {
		type,
		filters: filters.map(({ columnName, condition = 'eq', value = null }) => ({
			columnName: columnName.trim(),
			condition,
			value,
		})),
	};
}

/** SQLite's ordering: NULL first (the node compares numbers with numbers, text with text). */
function compare(a: CellValue, b: CellValue): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	return a < b ? -1 : a > b ? 1 : 0;
}

/** n8n's `name` filter of the table list: a case-insensitive part of the name. */
const nameHas = (name: string, part: string) => name.toLowerCase().includes(part.toLowerCase());

/**
 * The filter conditions the node sends: `eq` and `gt` (n8n has neq, like, lt… too; a test that
 * needs one adds it here, answered as 2.41.1 does).
 */
const CONDITION_TESTS: Record<string, (v: CellValue, value: CellValue) => boolean> = {
	eq: (v, value) => (value === null ? v === null : v !== null && compare(v, value) === 0),
	gt: (v, value) => v !== null && compare(v, value) > 0,
};

/** The tables of the fake instance: what the API serves, for tests to seed and inspect. */
export class TableStore {
	private readonly byId = new Map<string, { table: N8nTable; rows: StoredRow[]; nextId: number }>();

	constructor(private readonly projectId: string) {}

	/** A table as POST /api/v1/data-tables makes it (no checks). */
	create(name: string, columns: Array<{ name: string; type: ColumnType }>): N8nTable {
		const now = new Date().toISOString();
		const table: N8nTable = {
			updatedAt: now,
			createdAt: now,
			id: newId(),
			name,
			projectId: this.projectId,
			columns: [],
		};
		for (const column of columns) this.addColumn(table, column.name, column.type);
		this.byId.set(table.id, { table, rows: [], nextId: 1 });
		return table;
	}

	/** @internal a column added last, as POST …/columns adds it (existing rows hold null in it) */
	addColumn(table: N8nTable, name: string, type: ColumnType): N8nColumn {
		const now = new Date().toISOString();
		const column = {
			updatedAt: now,
			createdAt: now,
			id: newId(),
			dataTableId: table.id,
			name,
			type,
			index: table.columns.length,
		};
		table.columns.push(column);
		return column;
	}

	get(id: string): N8nTable | undefined {
		return this.byId.get(id)?.table;
	}

	byName(name: string): N8nTable | undefined {
		return this.all().find((t) => t.name === name);
	}

	all(): N8nTable[] {
		return [...this.byId.values()].map((e) => e.table);
	}

	/** The table's rows in insertion order, as the API answers them (copies). */
	rows(id: string): StoredRow[] {
		const entry = this.entry(id);
		return entry.rows.map((r) => this.present(entry.table, r));
	}

	/** Rows added as POST …/rows adds them (values checked and converted); the stored rows. */
	seed(id: string, rows: Row[]): StoredRow[] {
		return this.insert(id, rows).map((r) => this.present(this.entry(id).table, r));
	}

	/**
	 * Every table's bytes together, as N8N_DATA_TABLES_MAX_SIZE_BYTES counts them. n8n measures its
	 * database's pages; here each table is its 4,096 bytes plus its rows' JSON.
	 */
	totalBytes(): number {
		let total = 0;
		for (const { rows } of this.byId.values())
			total += SIZE_BYTES + rows.reduce((sum, row) => sum + JSON.stringify(row).length, 0);
		return total;
	}

	/** As DELETE /api/v1/data-tables/{id}: later calls for it answer 404. */
	delete(id: string): boolean {
		return this.byId.delete(id);
	}

	/** @internal */
	entry(id: string): { table: N8nTable; rows: StoredRow[]; nextId: number } {
		const entry = this.byId.get(id);
		if (!entry) throw notFound(id);
		return entry;
	}

	/** @internal the row as the API shows it: every column (null when unset), then id, createdAt, updatedAt */
	present(table: N8nTable, row: StoredRow): StoredRow {
		const out: Record<string, CellValue> = {};
		for (const c of [...table.columns].sort((a, b) => a.index - b.index))
			out[c.name] = row[c.name] ?? null;
		return { ...out, id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt } as StoredRow;
	}

	/** @internal the values as the table keeps them (a date column's as ISO UTC) */
	convert(table: N8nTable, row: Record<string, unknown>): Row {
		const types = new Map(table.columns.map((c) => [c.name, c.type]));
		const out: Row = {};
		for (const [key, value] of Object.entries(row)) out[key] = cellValue(value, types.get(key));
		return out;
	}

	/** @internal */
	insert(id: string, rows: Array<Record<string, unknown>>): StoredRow[] {
		const entry = this.entry(id);
		const converted = rows.map((r) => this.convert(entry.table, r));
		const added = converted.map((r) => {
			const now = new Date().toISOString();
			const empty = Object.fromEntries(entry.table.columns.map((c) => [c.name, null]));
			const row = {
				...empty,
				...r,
				id: entry.nextId++,
				createdAt: now,
				updatedAt: now,
			} as StoredRow;
			entry.rows.push(row);
			return row;
		});
		entry.table.updatedAt = new Date().toISOString();
		return added;
	}

	/** @internal the rows a filter selects, in the order asked (then by id) */
	select(rows: StoredRow[], filter: Filter | undefined, sortBy?: [string, number]): StoredRow[] {
		const tests = (filter?.filters ?? []).map(
			({ columnName, condition, value }) =>
				(row: StoredRow) =>
					CONDITION_TESTS[condition](row[columnName], value),
		);
		const or = filter?.type === 'or' && tests.length > 0;
		const picked = rows.filter((row) =>
			or ? tests.some((t) => t(row)) : tests.every((t) => t(row)),
		);
		const byId = (a: StoredRow, b: StoredRow) => a.id - b.id;
		if (!sortBy) return picked.sort(byId);
		const [column, direction] = sortBy;
		return picked.sort((a, b) => direction * compare(a[column], b[column]) || byId(a, b));
	}
}

interface Ctx {
	query: Record<string, string>;
	body: unknown;
	params: string[];
}
type Handler = (ctx: Ctx) => { status: number; body?: unknown };

/** A started fake of n8n's public API (127.0.0.1, a free port) accepting one key in X-N8N-API-KEY. */
export async function startN8nApi(options: { apiKey: string }): Promise<N8nApi> {
	const store = new TableStore('P77N3czIDpnoQfmw');
	const requests: RecordedN8nRequest[] = [];
	const faults: Array<{ match: RequestMatch; fault: N8nFault }> = [];
	let disabled = false;
	let gate: ((request: RecordedN8nRequest) => Promise<void> | void) | undefined;
	let maxSize = DEFAULT_MAX_SIZE_BYTES;
	/**
	 * n8n 2.41.1 checks the size before it inserts, upserts or updates rows (DataTableService's
	 * validateDataTableSize; its DataTableValidationError is the public API's 400). n8n caches the
	 * size for 5 s; this fake measures it on every write.
	 */
	const roomLeft = () => {
		const total = store.totalBytes();
		if (total >= maxSize)
			throw bad(
				`Data table size limit exceeded: ${toMb(total)}MB used, limit is ${toMb(maxSize)}MB`,
			);
	};

	const matches = (m: RequestMatch, method: string, path: string) =>
		(m.method === undefined || m.method.toUpperCase() === method) && (m.path?.test(path) ?? true);

	const routes: Array<[string, RegExp, Handler]> = [];
	/** A route under /api/v1/data-tables (`:id` a table's id). */
	const route = (method: string, path: string, handler: Handler) =>
		routes.push([
			method,
			new RegExp(`^/api/v1/data-tables${path.replace(':id', '([^/]+)')}$`),
			handler,
		]);

	/** GET/POST answer columns with dataTableId, the list without; both sorted by name (as 2.41.1 does) */
	const publicTable = (t: N8nTable, withTableId: boolean) => ({
		...t,
		columns: [...t.columns]
			.sort((x, y) => compare(x.name, y.name))
			// JSON leaves an undefined key out: the list's columns lose dataTableId, keeping their order
			.map((c) => (withTableId ? c : { ...c, dataTableId: undefined })),
		sizeBytes: SIZE_BYTES,
	});

	/**
	 * limit (default 100) and cursor (base64 {"limit","offset"}, overrides limit): the page they ask
	 * for, of items each shown as `show` answers it.
	 */
	const paging = (query: Record<string, string>) => {
		let limit = query.limit === undefined ? 100 : Number(query.limit);
		let offset = 0;
		if (query.cursor)
			({ limit, offset } = JSON.parse(Buffer.from(query.cursor, 'base64').toString()) as {
				limit: number;
				offset: number;
			});
		return <T>(items: T[], show: (item: T) => unknown) => ({
			data: items.slice(offset, offset + limit).map(show),
			nextCursor:
				items.length > offset + limit
					? Buffer.from(JSON.stringify({ limit, offset: offset + limit })).toString('base64')
					: null,
		});
	};
	const jsonQuery = (query: Record<string, string>, key: string): unknown =>
		query[key] === undefined ? undefined : JSON.parse(query[key]);
	/** A column's name and type (the node's columns: no name or type n8n refuses). */
	const columnOf = (c: Record<string, unknown>) => ({
		name: String(c.name).trim(),
		type: c.type as ColumnType,
	});
	const nameFree = (name: string) => {
		if (store.all().some((t) => t.name === name))
			throw new ApiError(409, `Data table with name '${name}' already exists in this project`);
	};

	// The node lists tables by a part of their name, sorted by name (n8n also filters by id and
	// projectId, and sorts by other fields).
	route('GET', '', ({ query }) => {
		const page = paging(query);
		const { name = '' } = (jsonQuery(query, 'filter') ?? {}) as { name?: string };
		const tables = store
			.all()
			.filter((t) => nameHas(t.name, name))
			.sort((a, b) => compare(a.name.toLowerCase(), b.name.toLowerCase()));
		return { status: 200, body: page(tables, (t) => publicTable(t, false)) };
	});

	route('POST', '', ({ body }) => {
		const b = body as { name: string; columns: Array<Record<string, unknown>> };
		const name = b.name.trim();
		nameFree(name);
		return { status: 201, body: publicTable(store.create(name, b.columns.map(columnOf)), true) };
	});

	// POST …/columns (2.41.1: dataTableColumn:create)
	route('POST', '/:id/columns', ({ params, body }) => {
		const { table } = store.entry(params[0]);
		const { name, type } = columnOf(body as Record<string, unknown>);
		if (table.columns.some((c) => c.name === name))
			throw new ApiError(409, `A column with the name '${name}' already exists in this data table`);
		return { status: 201, body: store.addColumn(table, name, type) };
	});

	route('GET', '/:id', ({ params }) => ({
		status: 200,
		body: publicTable(store.entry(params[0]).table, true),
	}));

	// The node reads rows with a filter and a sortBy, and writes them with returnType count.
	route('GET', '/:id/rows', ({ params, query }) => {
		const page = paging(query);
		const filter = filterShape(jsonQuery(query, 'filter'));
		const [column, direction] = (query.sortBy ?? 'id:asc').split(':');
		const entry = store.entry(params[0]);
		const sortBy: [string, number] = [column.trim(), direction.toUpperCase() === 'ASC' ? 1 : -1];
		const rows = store.select(entry.rows, filter, sortBy);
		return { status: 200, body: page(rows, (r) => store.present(entry.table, r)) };
	});

	route('POST', '/:id/rows', ({ params, body }) => {
		const { data } = body as { data: Array<Record<string, unknown>> };
		store.entry(params[0]);
		roomLeft();
		return {
			status: 200,
			body: { success: true, insertedRows: store.insert(params[0], data).length },
		};
	});

	// n8n's PATCH …/rows/update, DELETE …/rows/delete, PATCH and DELETE of a table: the node sends none.
	route('POST', '/:id/rows/upsert', ({ params: [id], body }) => {
		const { filter, data } = body as { filter: unknown; data: Record<string, unknown> };
		const entry = store.entry(id);
		roomLeft();
		const changes = store.convert(entry.table, data);
		const hit = store.select(entry.rows, filterShape(filter));
		const now = new Date().toISOString();
		for (const row of hit) Object.assign(row, changes, { updatedAt: now });
		if (hit.length) entry.table.updatedAt = now;
		else store.insert(id, [data]);
		// returnData false, as the node asks: true, whether it updated or inserted.
		return { status: 200, body: true };
	});

	const handle = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const query: Record<string, string> = Object.fromEntries(url.searchParams);
		const body: unknown = raw === '' ? undefined : JSON.parse(raw);
		const key = req.headers['x-n8n-api-key'];
		const headers: Record<string, string> = {};
		for (const [k, v] of Object.entries(req.headers))
			if (k !== 'x-n8n-api-key' && v !== undefined) headers[k] = String(v);
		const method = req.method ?? 'GET';
		requests.push({
			method,
			path: url.pathname,
			query,
			body,
			headers,
			keySent: key === undefined ? 'none' : key === options.apiKey ? 'right' : 'wrong',
		});
		await gate?.(requests.at(-1)!);

		const send = (status: number, payload?: unknown, extra: Record<string, string> = {}) => {
			const text = payload === undefined ? undefined : JSON.stringify(payload);
			const type = text && { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) };
			res.writeHead(status, { ...type, ...extra }).end(text);
		};

		const faultIndex = faults.findIndex((f) => matches(f.match, method, url.pathname));
		if (faultIndex >= 0) {
			const [{ fault }] = faults.splice(faultIndex, 1);
			return send(fault.status, fault.body, fault.headers);
		}

		const hit = routes.find(([m, pattern]) => m === method && pattern.test(url.pathname));
		if (!hit) return send(404, { message: 'not found' });
		if (disabled || key !== options.apiKey) return send(401, { message: 'unauthorized' });
		try {
			const [, pattern, handler] = hit;
			const result = handler({ query, body, params: pattern.exec(url.pathname)!.slice(1) });
			send(result.status, result.body);
		} catch (e) {
			if (e instanceof ApiError) send(e.status, { message: e.message });
			else send(500, { message: 'Internal server error' });
		}
	};

	const server = http.createServer(async (req, res) => {
		const raw = await readBody(req);
		if (raw !== undefined) await handle(req, res, raw);
	});
	const url = await listen(server);

	return {
		url,
		apiUrl: `${url}/api/v1`,
		apiKey: options.apiKey,
		tables: store,
		requests,
		setPublicApiDisabled(d: boolean) {
			disabled = d;
		},
		setMaxSizeBytes(bytes: number) {
			maxSize = bytes;
		},
		failNext(match: RequestMatch, fault: N8nFault) {
			faults.push({ match, fault });
		},
		clearFaults: () => void ((faults.length = 0), (gate = undefined)),
		setGate: (next) => void (gate = next),
		close: () => closeAll(server),
	};
}
