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
	/** a substring of the path, or a pattern tested against it */
	path?: string | RegExp;
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
const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];
const COLUMN_REGEX = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const COLUMN_ERROR =
	'Only alphabetical characters and non-leading numbers and underscores are allowed for column names, and the maximum length is 63 characters.';
const TABLE_SORTS = ['name', 'createdAt', 'updatedAt', 'size'].flatMap((field) => [
	`${field}:asc`,
	`${field}:desc`,
]);
const LUXON_HINT =
	' <br/><br/> Consider using <a href="https://moment.github.io/luxon/api-docs/index.html#datetimefromformat" target="_blank"><code>DateTime.fromFormat</code></a> to work with custom date formats.';
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
const validation = (message: string) => bad(`Validation error with data table request: ${message}`);
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

/** How SQLite holds a date (n8n's formatDateForDatabase): `2026-01-05 10:00:00.000`. */
function sqliteDate(iso: string): string {
	return iso.replace('T', ' ').replace('Z', '');
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

/** n8n's validateAndTransformCell: the value a column keeps, or the 400 it answers. */
function cellValue(value: unknown, column: string, type: ColumnType | undefined): CellValue {
	if (value === null) return null;
	const shown = String(value);
	const mismatch = (expects: string, hint = '') =>
		validation(
			`value '${shown}' does not match column type '${type}': '${column}' expects a ${expects} but we got '${shown}'${hint}`,
		);
	switch (type) {
		case undefined:
			return value as CellValue;
		case 'string':
			if (typeof value === 'object') throw mismatch('string');
			return String(value);
		case 'number': {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || Number.isNaN(n)) throw mismatch('number');
			return n;
		}
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (['true', '1', 1].includes(value as string)) return true;
			if (['false', '0', 0].includes(value as string)) return false;
			throw mismatch('boolean');
		case 'date': {
			const iso = typeof value === 'string' ? parseIsoDate(value) : undefined;
			if (iso === undefined) throw mismatch('dateTime', LUXON_HINT);
			return iso;
		}
	}
}

interface Filter {
	type: 'and' | 'or';
	filters: Array<{ columnName: string; condition: string; value: CellValue }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** dataTableFilterSchema (type and/or, default and; condition default eq) or undefined when it does not fit. */
function filterShape(raw: unknown): Filter | undefined {
	if (!isRecord(raw)) return undefined;
	const { type = 'and', filters = [] } = raw;
	if ((type !== 'and' && type !== 'or') || !Array.isArray(filters)) return undefined;
	const out: Filter['filters'] = [];
	for (const f of filters as unknown[]) {
		if (!isRecord(f)) return undefined;
		const { columnName, condition = 'eq', value } = f;
		if (typeof columnName !== 'string' || !COLUMN_REGEX.test(columnName.trim())) return undefined;
		if (typeof condition !== 'string' || !CONDITIONS.includes(condition)) return undefined;
		if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return undefined;
		out.push({ columnName: columnName.trim(), condition, value: value as CellValue });
	}
	return { type, filters: out };
}

/** SQLite's ordering: NULL first, numbers, then text (binary). */
function compare(a: CellValue, b: CellValue): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	const x = typeof a === 'boolean' ? Number(a) : a;
	const y = typeof b === 'boolean' ? Number(b) : b;
	if (typeof x === 'number' && typeof y === 'number') return x - y;
	if (typeof x === 'number') return -1;
	if (typeof y === 'number') return 1;
	return x < y ? -1 : x > y ? 1 : 0;
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
const CONDITIONS = Object.keys(CONDITION_TESTS);

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

	/** @internal checked values (unknown columns and mismatched values: 400) */
	convert(table: N8nTable, row: Record<string, unknown>): Row {
		const types = new Map(table.columns.map((c) => [c.name, c.type]));
		const out: Row = {};
		for (const [key, value] of Object.entries(row)) {
			if (!types.has(key)) throw validation(`unknown column name '${key}'`);
			out[key] = cellValue(value, key, types.get(key));
		}
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
	select(
		table: N8nTable,
		rows: StoredRow[],
		filter: Filter | undefined,
		sortBy?: [string, number],
	): StoredRow[] {
		const types = new Map<string, ColumnType | 'system'>(
			table.columns.map((c) => [c.name, c.type]),
		);
		for (const s of SYSTEM_COLUMNS) types.set(s, 'system');
		const tests = (filter?.filters ?? []).map((f) => {
			if (!types.has(f.columnName)) throw validation(`unknown column name '${f.columnName}'`);
			const type = types.get(f.columnName);
			const systemType = f.columnName === 'id' ? 'number' : 'date';
			const value = cellValue(f.value, f.columnName, type === 'system' ? systemType : type);
			if (value === null && f.condition !== 'eq')
				throw validation(`${f.condition.toUpperCase()} filter value cannot be null or undefined`);
			const name = f.columnName;
			// SQLite compares a date column's text (`2026-01-05 10:00:00.000`) with the filter's ISO text
			// (`2026-01-05T10:00:00.000Z`) as strings: an equal date never matches (verified on 2.41.1)
			const isDate = type === 'date' || (type === 'system' && name !== 'id');
			const stored = (row: StoredRow): CellValue =>
				isDate && typeof row[name] === 'string' ? sqliteDate(row[name]) : row[name];
			return (row: StoredRow) => CONDITION_TESTS[f.condition](stored(row), value);
		});
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
		(m.method === undefined || m.method.toUpperCase() === method) &&
		(m.path === undefined ||
			(typeof m.path === 'string' ? path.includes(m.path) : m.path.test(path)));

	const routes: Array<[string, RegExp, Handler, string[]]> = [];
	/** A route under /api/v1/data-tables (`:id` a table's id), with the query parameters it takes. */
	const route = (method: string, path: string, queryKeys: string[], handler: Handler) =>
		routes.push([
			method,
			new RegExp(`^/api/v1/data-tables${path.replace(':id', '([^/]+)')}$`),
			handler,
			queryKeys,
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
	 * limit (≤ 250, default 100; 0 = all) and cursor (base64 {"limit","offset"}, overrides limit),
	 * checked: the page they ask for, of items each shown as `show` answers it.
	 */
	const paging = (query: Record<string, string>) => {
		let limit = 100;
		let offset = 0;
		if (query.limit !== undefined) {
			limit = Number(query.limit);
			if (query.limit.trim() === '' || Number.isNaN(limit))
				throw bad('request/query/limit must be number');
			if (limit > 250) throw bad('request/query/limit must be <= 250');
		}
		if (query.cursor) {
			let c: unknown;
			try {
				c = JSON.parse(Buffer.from(query.cursor, 'base64').toString());
			} catch {
				// refused below
			}
			if (!isRecord(c) || !('offset' in c)) throw bad('An invalid cursor was provided');
			offset = Number(c.offset);
			limit = Number(c.limit);
		}
		return <T>(items: T[], show: (item: T) => unknown) => ({
			data: (limit ? items.slice(offset, offset + limit) : items.slice(offset)).map(show),
			nextCursor:
				items.length > offset + limit
					? Buffer.from(JSON.stringify({ limit, offset: offset + limit })).toString('base64')
					: null,
		});
	};
	const jsonQuery = (query: Record<string, string>, key: string): unknown => {
		if (query[key] === undefined) return undefined;
		try {
			return JSON.parse(query[key]);
		} catch {
			throw bad(`request/query/${key} must match format "jsonString"`);
		}
	};
	const rowFilter = (raw: unknown): Filter | undefined => {
		if (raw === undefined || raw === '' || raw === null) return undefined;
		const f = filterShape(raw);
		if (!f) throw bad('Invalid filter fields');
		return f;
	};
	const bodyObject = (body: unknown): Record<string, unknown> => {
		if (!isRecord(body)) throw bad('request/body must be object');
		return body;
	};
	const required = (body: Record<string, unknown>, key: string) => {
		if (body[key] === undefined) throw bad(`request/body must have required property '${key}'`);
	};
	/** A column's name and type as n8n checks them (the name's rule, then the type's enum). */
	const columnOf = (c: Record<string, unknown>): { name: string; type: ColumnType } => {
		const name = String(c.name ?? '').trim();
		if (!COLUMN_REGEX.test(name)) throw bad(COLUMN_ERROR);
		if (!['string', 'number', 'boolean', 'date'].includes(c.type as string))
			throw bad(
				`Invalid enum value. Expected 'string' | 'number' | 'boolean' | 'date', received '${String(c.type)}'`,
			);
		return { name, type: c.type as ColumnType };
	};
	const nameFree = (name: string) => {
		if (store.all().some((t) => t.name === name))
			throw new ApiError(409, `Data table with name '${name}' already exists in this project`);
	};
	const dataRecords = (value: unknown, path: string): Array<Record<string, unknown>> => {
		if (!Array.isArray(value)) throw bad(`${path} must be array`);
		for (const r of value) if (!isRecord(r)) throw bad(`${path} must be object`);
		return value as Array<Record<string, unknown>>;
	};

	route('GET', '', ['limit', 'cursor', 'filter', 'sortBy'], ({ query }) => {
		const page = paging(query);
		const raw = jsonQuery(query, 'filter');
		// n8n also filters by id and projectId; the node filters by name alone.
		let filter: { name?: unknown } = {};
		if (raw !== undefined && raw !== '') {
			const names = isRecord(raw) && [raw.name].flat();
			if (
				!names ||
				Object.keys(raw).some((k) => k !== 'name') ||
				names.some((n) => typeof n !== 'string')
			)
				throw bad('Invalid filter fields');
			filter = raw;
		}
		if (query.sortBy !== undefined && !TABLE_SORTS.includes(query.sortBy))
			throw bad(`sortBy must be one of: ${TABLE_SORTS.join(', ')}`);
		let tables = store.all();
		for (const n of [filter.name ?? []].flat() as string[])
			tables = tables.filter((t) => nameHas(t.name, n));
		const [field, dir] = (query.sortBy ?? 'updatedAt:desc').split(':');
		const key = (t: N8nTable) =>
			field === 'name'
				? t.name.toLowerCase()
				: field === 'size'
					? SIZE_BYTES
					: t[field as 'createdAt'];
		tables.sort((a, b) => (dir === 'desc' ? -1 : 1) * compare(key(a), key(b)));
		return { status: 200, body: page(tables, (t) => publicTable(t, false)) };
	});

	route('POST', '', [], ({ body }) => {
		const b = bodyObject(body);
		required(b, 'name');
		required(b, 'columns');
		if (typeof b.name !== 'string') throw bad('request/body/name must be string');
		const columns = dataRecords(b.columns, 'request/body/columns');
		const name = b.name.trim();
		if (name.length < 1) throw bad('String must contain at least 1 character(s)');
		if (name.length > 128) throw bad('String must contain at most 128 character(s)');
		const cols = columns.map((c) => {
			if (String(c.name ?? '').trim().length > 63)
				throw bad('String must contain at most 63 character(s)');
			return columnOf(c);
		});
		if (b.projectId !== undefined && b.projectId !== store['projectId'])
			throw bad(`Project with ID "${String(b.projectId)}" not found`);
		for (const c of cols)
			if (SYSTEM_COLUMNS.some((s) => s.toLowerCase() === c.name.toLowerCase()))
				throw bad(`Column name "${c.name}" is reserved as a system column name.`);
		if (new Set(cols.map((c) => c.name)).size !== cols.length)
			throw new ApiError(500, 'Internal server error');
		nameFree(name);
		return { status: 201, body: publicTable(store.create(name, cols), true) };
	});

	// POST …/columns (2.41.1: dataTableColumn:create)
	route('POST', '/:id/columns', [], ({ params, body }) => {
		const { table } = store.entry(params[0]);
		const b = bodyObject(body);
		required(b, 'name');
		const { name, type } = columnOf(b);
		if (table.columns.some((c) => c.name === name))
			throw new ApiError(409, `A column with the name '${name}' already exists in this data table`);
		return { status: 201, body: store.addColumn(table, name, type) };
	});

	route('GET', '/:id', [], ({ params }) => ({
		status: 200,
		body: publicTable(store.entry(params[0]).table, true),
	}));

	const sortOf = (table: N8nTable, raw: string | undefined): [string, number] | undefined => {
		if (raw === undefined) return undefined;
		if (!raw.includes(':')) throw bad('Invalid sort format, expected <columnName>:<asc/desc>');
		const [column, direction] = raw.split(':');
		const name = column.trim();
		if (name.length > 63) throw bad('String must contain at most 63 character(s)');
		if (!COLUMN_REGEX.test(name)) throw bad(COLUMN_ERROR);
		const dir = direction?.toUpperCase();
		if (dir !== 'ASC' && dir !== 'DESC') throw bad('Invalid sort direction');
		if (!SYSTEM_COLUMNS.includes(name) && !table.columns.some((c) => c.name === name))
			throw new ApiError(500, 'Internal server error');
		return [name, dir === 'ASC' ? 1 : -1];
	};

	route('GET', '/:id/rows', ['limit', 'cursor', 'filter', 'sortBy'], ({ params, query }) => {
		const page = paging(query);
		const filter = rowFilter(jsonQuery(query, 'filter'));
		const entry = store.entry(params[0]);
		const rows = store.select(entry.table, entry.rows, filter, sortOf(entry.table, query.sortBy));
		return { status: 200, body: page(rows, (r) => store.present(entry.table, r)) };
	});

	route('POST', '/:id/rows', [], ({ params, body }) => {
		const b = bodyObject(body);
		required(b, 'data');
		const data = dataRecords(b.data, 'request/body/data');
		if (data.length < 1) throw bad('request/body/data must NOT have fewer than 1 items');
		const returnType = b.returnType ?? 'count';
		if (!['count', 'id', 'all'].includes(returnType as string))
			throw bad(
				'request/body/returnType must be equal to one of the allowed values: count, id, all',
			);
		const entry = store.entry(params[0]);
		roomLeft();
		const added = store.insert(params[0], data);
		if (returnType === 'count')
			return { status: 200, body: { success: true, insertedRows: added.length } };
		if (returnType === 'id') return { status: 200, body: added.map((r) => ({ id: r.id })) };
		return { status: 200, body: added.map((r) => store.present(entry.table, r)) };
	});

	/** filter + data of an upsert: non-empty, known columns, values checked */
	const writeParams = (body: unknown) => {
		const b = bodyObject(body);
		required(b, 'filter');
		required(b, 'data');
		const rawFilter = b.filter as { filters?: unknown };
		if (Array.isArray(rawFilter?.filters) && rawFilter.filters.length === 0)
			throw bad('request/body/filter/filters must NOT have fewer than 1 items');
		const filter = filterShape(b.filter);
		if (!filter) throw bad('Invalid filter fields');
		if (filter.filters.length === 0) throw bad('filter must not be empty');
		if (typeof b.data !== 'object' || b.data === null || Object.keys(b.data).length === 0)
			throw bad('data must not be empty');
		return { filter, data: b.data as Record<string, unknown>, returnData: b.returnData === true };
	};
	// n8n's PATCH …/rows/update, DELETE …/rows/delete, PATCH and DELETE of a table: the node sends none.
	route('POST', '/:id/rows/upsert', [], ({ params: [id], body }) => {
		const { filter, data, returnData } = writeParams(body);
		const entry = store.entry(id);
		roomLeft();
		const changes = store.convert(entry.table, data);
		const hit = store.select(entry.table, entry.rows, filter);
		const now = new Date().toISOString();
		for (const row of hit) Object.assign(row, changes, { updatedAt: now });
		if (hit.length) entry.table.updatedAt = now;
		const shown = (rows: StoredRow[]) =>
			returnData ? rows.map((r) => store.present(entry.table, r)) : true;
		return { status: 200, body: shown(hit.length ? hit : store.insert(id, [data])) };
	});

	const handle = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const query: Record<string, string> = Object.fromEntries(url.searchParams);
		let body: unknown;
		if (raw !== '') {
			try {
				body = JSON.parse(raw);
			} catch {
				body = raw;
			}
		}
		const key = req.headers['x-n8n-api-key'];
		const headers: Record<string, string> = {};
		for (const [k, v] of Object.entries(req.headers))
			if (k !== 'x-n8n-api-key' && v !== undefined)
				headers[k] = Array.isArray(v) ? v.join(', ') : v;
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

		const found = routes.filter(([, pattern]) => pattern.test(url.pathname));
		const hit = found.find(([m]) => m === method);
		// What n8n answers before the route's own checks, in its order.
		const refusal: [number, unknown?] | undefined = !hit
			? [404, { message: found.length ? `${method} method not allowed` : 'not found' }]
			: key === undefined
				? [401, { message: "'X-N8N-API-KEY' header required" }]
				: disabled || key !== options.apiKey
					? [401, { message: 'unauthorized' }]
					: typeof body === 'string'
						? [500]
						: (method === 'POST' || method === 'PATCH') && raw === ''
							? [415, { message: 'unsupported media type undefined' }]
							: undefined;
		if (!hit || refusal) return send(...(refusal ?? [404]));
		try {
			const [, pattern, handler, keys] = hit;
			const unknown = Object.keys(query).find((k) => !keys.includes(k));
			if (unknown) throw bad(`Unknown query parameter '${unknown}'`);
			const params = pattern.exec(url.pathname)!.slice(1);
			// a table's id (every route's only parameter) is checked before anything else of the route
			if (params.length && !/^[A-Za-z0-9_-]+$/.test(params[0]))
				throw bad('request/params/dataTableId must match format "nanoid"');
			const result = handler({ query, body, params });
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
