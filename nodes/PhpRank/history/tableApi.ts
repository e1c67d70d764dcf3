import type { IDataObject } from 'n8n-workflow';

import { n8nApi, type N8nApiContext, tableProblem } from './n8nApi';
import {
	type ColumnType,
	columnsToAdd,
	GROUP_COLUMNS,
	HISTORY_COLUMNS,
	type HistoryRow,
	missingColumns,
	PAGE_COLUMNS,
} from './model';

/*
 * History Store → Data Table: the table found (by ID, or by name and created with its columns
 * when missing), the run's sites' rows read, a run's row upserted on site and execution ID, rows
 * inserted, a site's rows written since read back. Every call goes through n8n's public API
 * (n8nApi.ts). Requests per run: one for the table, one per 250 rows of the run's sites, one per
 * site written (One Item per Finding Change: and one per site read back, claim.ts).
 */

/** n8n's public API answers at most this many rows a page. */
const ROWS_PER_PAGE = 250;
/**
 * Characters of a row filter's JSON: n8n takes any number of OR conditions, but answers 431 once the
 * request line passes 16 KB (scripts/n8n/NOTES.md); encoded, 6,000 characters stay far below.
 */
const FILTER_CHARACTERS = 6_000;

export interface TableChoice {
	/** `list` and `id`: a table ID; `name`: a table name, the table made when missing. */
	mode: string;
	value: string;
}

export interface HistoryTable {
	id: string;
	name: string;
	/** Its columns when it was found. */
	columns?: ReadonlyArray<{ name: string; type: string }>;
}

interface TableAnswer {
	id: string;
	name: string;
	columns?: Array<{ name: string; type: string }>;
}

interface Page<T> {
	data: T[];
	nextCursor?: string | null;
}

/** The table as chosen; its columns checked. `null` when it has yet to be made (By Name, not `create`). */
export async function findTable(
	ctx: N8nApiContext,
	choice: TableChoice,
	create: boolean,
	groupColumns = false,
	pageColumns = false,
): Promise<HistoryTable | null> {
	let table: TableAnswer | undefined;
	if (choice.mode === 'name') {
		table = await tableNamed(ctx, choice.value);
		if (!table && !create) return null;
		table ??= await createTable(ctx, choice.value);
	} else {
		table = await tableById(ctx, choice.value);
	}
	const missing = missingColumns(table.columns ?? []);
	if (missing.length > 0)
		throw tableProblem(
			ctx,
			`The history table "${table.name}" lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
			'Add them in n8n’s Data Tables view, or enter a new name under History Table (By Name): the node creates that table with every column it needs.',
		);
	// A table made before Page Groups: their columns added, its rows kept (production runs only).
	// A table made before Ticket Per → Page: `failing_pages` added likewise.
	const wanted = [...(groupColumns ? GROUP_COLUMNS : []), ...(pageColumns ? PAGE_COLUMNS : [])];
	if (create) await addLacking(ctx, table, wanted);
	return { id: table.id, name: table.name, columns: table.columns ?? [] };
}

/** The columns of `wanted` a table lacks added; two executions adding one at once: n8n refuses the later, which finds it added. */
async function addLacking(
	ctx: N8nApiContext,
	table: TableAnswer,
	wanted: ReadonlyArray<{ name: string; type: ColumnType }>,
): Promise<void> {
	for (const column of columnsToAdd(wanted, table.columns ?? []))
		await addColumns(ctx, table.id, [column]).catch(async (error: unknown) => {
			const again = await tableById(ctx, table.id);
			if (columnsToAdd([column], again.columns ?? []).length > 0) throw error;
		});
}

/** The table of this ID, with its columns. */
async function tableById(ctx: N8nApiContext, id: string): Promise<TableAnswer> {
	return await n8nApi<TableAnswer>(ctx, 'GET', `/data-tables/${encodeURIComponent(id)}`);
}

/** The table of exactly this name (n8n's name filter is a substring match), if there is one. */
async function tableNamed(ctx: N8nApiContext, name: string): Promise<TableAnswer | undefined> {
	const { data } = await n8nApi<Page<TableAnswer>>(ctx, 'GET', '/data-tables', {
		qs: { filter: JSON.stringify({ name }), limit: ROWS_PER_PAGE },
	});
	return data.find((table) => table.name === name);
}

/**
 * The table made with its columns. Many sites' first runs at once (one execution per site on
 * queue-mode workers) all find no table and all create it: n8n answers the later ones 409 (or
 * 500, its unique index), so when creating fails, the table another run just made is used.
 */
async function createTable(ctx: N8nApiContext, name: string): Promise<TableAnswer> {
	return await n8nApi<TableAnswer>(ctx, 'POST', '/data-tables', {
		body: {
			name,
			columns: [...HISTORY_COLUMNS, ...GROUP_COLUMNS].map((column) => ({ ...column })),
		},
	}).catch(async (error: unknown) => (await tableNamed(ctx, name)) ?? Promise.reject(error));
}

/** Columns added to a table, one request each. */
export async function addColumns(
	ctx: N8nApiContext,
	id: string,
	columns: ReadonlyArray<{ name: string; type: string }>,
): Promise<void> {
	for (const column of columns)
		await n8nApi(ctx, 'POST', `/data-tables/${encodeURIComponent(id)}/columns`, {
			body: { ...column },
		});
}

const eq = (columnName: string, value: string | null) => ({ columnName, condition: 'eq', value });

/** The sites in groups whose OR filter stays within FILTER_CHARACTERS: usually one. */
function filterGroups(sites: readonly string[]): string[][] {
	const groups: string[][] = [];
	let length = Infinity;
	for (const site of sites) {
		const size = JSON.stringify(eq('site', site)).length + 1;
		if (length + size > FILTER_CHARACTERS) {
			groups.push([]);
			length = 0;
		}
		groups[groups.length - 1].push(site);
		length += size;
	}
	return groups;
}

/** Every row of these sites, oldest first. */
export async function readRows(
	ctx: N8nApiContext,
	table: HistoryTable,
	sites: readonly string[],
): Promise<Array<Record<string, unknown>>> {
	const rows: Array<Record<string, unknown>> = [];
	for (const group of filterGroups(sites)) {
		const filter = { type: 'or', filters: group.map((site) => eq('site', site)) };
		let cursor: string | undefined;
		do {
			const qs: IDataObject = {
				filter: JSON.stringify(filter),
				sortBy: 'run_date:asc',
				limit: ROWS_PER_PAGE,
			};
			if (cursor) qs.cursor = cursor;
			const page = await n8nApi<Page<Record<string, unknown>>>(
				ctx,
				'GET',
				`/data-tables/${encodeURIComponent(table.id)}/rows`,
				{ qs },
			);
			rows.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
	}
	return rows;
}

/** A site's rows written after the row `id` (n8n numbers rows as written), oldest first: one request, one page. */
export async function rowsWrittenAfter(
	ctx: N8nApiContext,
	table: HistoryTable,
	site: string,
	id: number,
): Promise<Array<Record<string, unknown>>> {
	const after = { columnName: 'id', condition: 'gt', value: id };
	const filter = { type: 'and', filters: [eq('site', site), after] };
	const qs = { filter: JSON.stringify(filter), sortBy: 'id:asc', limit: ROWS_PER_PAGE };
	const page = await n8nApi<Page<Record<string, unknown>>>(
		ctx,
		'GET',
		`/data-tables/${encodeURIComponent(table.id)}/rows`,
		{ qs },
	);
	return page.data;
}

/** A run's row, written once however often its execution writes it (Retry On Fail). */
export async function upsertRow(
	ctx: N8nApiContext,
	table: HistoryTable,
	row: HistoryRow,
): Promise<void> {
	await n8nApi(ctx, 'POST', `/data-tables/${encodeURIComponent(table.id)}/rows/upsert`, {
		body: {
			filter: {
				type: 'and',
				// A run's rows: the site's own (page_group null) and one per page group.
				filters: [
					eq('site', row.site),
					eq('execution_id', row.execution_id),
					...('page_group' in row ? [eq('page_group', row.page_group ?? null)] : []),
				],
			},
			data: { ...row },
			returnData: false,
		},
	});
}

/** Rows added in one request (a history moved from This Workflow, a finding's ticket). */
export async function insertRows(
	ctx: N8nApiContext,
	table: HistoryTable,
	rows: readonly IDataObject[],
): Promise<void> {
	if (rows.length === 0) return;
	await n8nApi(ctx, 'POST', `/data-tables/${encodeURIComponent(table.id)}/rows`, {
		body: { data: rows.map((row) => ({ ...row })), returnType: 'count' },
	});
}

/** The instance's tables for the History Table picker, searched by name. */
export async function listTables(
	ctx: N8nApiContext,
	filter: string | undefined,
	cursor: string | undefined,
): Promise<{ tables: HistoryTable[]; cursor?: string }> {
	const qs: IDataObject = { limit: 100, sortBy: 'name:asc' };
	if (filter?.trim()) qs.filter = JSON.stringify({ name: filter.trim() });
	if (cursor) qs.cursor = cursor;
	const page = await n8nApi<Page<TableAnswer>>(ctx, 'GET', '/data-tables', { qs });
	return {
		tables: page.data.map(({ id, name }) => ({ id, name })),
		cursor: page.nextCursor ?? undefined,
	};
}
