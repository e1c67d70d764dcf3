import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { inputItemCount } from '../transport/n8nInternals';
import type { Run } from '../transport/run';
import { inputProblem } from '../input';
import type { SiteSummary } from '../site/types';
import {
	brokenGroupsBefore,
	datedRunOfRow,
	type DatedRun,
	failingPagesText,
	groupHistoryOfRows,
	groupRowsOf,
	historyOfRuns,
	isGroupRow,
	notWrittenBy,
	pageHistoryOfRows,
	type RunRecord,
	rowOf,
	type SiteHistory,
} from './model';
import { landedRuns } from './claim';
import { isTableProblem } from './n8nApi';
import {
	type HistoryHome,
	type TicketKeeping,
	type HistoryOperation,
	isProduction,
	type Kept,
	type OpenSite,
	tableChoiceOf,
	writerOf,
} from './stores';
import {
	addColumns,
	findTable,
	type HistoryTable,
	insertRows,
	readRows,
	rowsWrittenAfter,
	type TableChoice,
	upsertRow,
} from './tableApi';
import { forgetWorkflowHistory, workflowHistory } from './workflowStore';
import { recordedTickets, TICKET_COLUMNS, ticketRow, ticketsOfRows } from './tickets';

/*
 * History Store → Data Table: a row per site and production run (and with Page Groups one per
 * group) in an n8n data table, through its public API (tableApi.ts). Create or Re-Run: the run's
 * sites' rows are read once, before any phpRank request, and a failed read stops the run; after
 * the audit each site's rows are written, and a failed write leaves the item with
 * `history_saved: false` and `history_error`. A history the node kept in the workflow moves into
 * the table on its first production run (`moveWorkflowRuns`). One Digest reads the same rows the
 * same way, read only; Compare With Competitors keeps each compared page as a site of the table;
 * Record Finding Ticket inserts a row per ticket, which Create or Re-Run reads with the site's runs.
 */

/** What to do about an empty History Table, in each operation. */
const CHOOSE_TABLE: Record<HistoryOperation, string> = {
	createOrRerun:
		'Pick a data table under History Table (From List or By ID), or enter a name (By Name): the node creates that table with its columns on its first production run.',
	digest:
		'Pick the data table Create or Re-Run keeps the sites’ history in under History Table (From List or By ID, or its name By Name), or set History Store to None.',
	compare:
		'Pick a data table under History Table (From List or By ID), or enter a name (By Name): the node creates that table with its columns on its first production run.',
	recordTicket:
		'Pick the data table Create or Re-Run keeps the sites’ history in under History Table (From List or By ID, or its name By Name): the finding’s later items read its ticket there.',
};

const choiceOf = (ctx: IExecuteSingleFunctions, operation: HistoryOperation): TableChoice =>
	tableChoiceOf(ctx, CHOOSE_TABLE[operation]);

/** The run's one read of the table. */
interface TableRead {
	table: HistoryTable | null;
	rows: Array<Record<string, unknown>>;
}

/** A write n8n refused says what to fix (the item still comes out); any other failure is the item's. */
async function kept(write: () => Promise<void>): Promise<Kept> {
	return await write().then(
		(): Kept => ({ saved: true, error: null }),
		(error: unknown) =>
			isTableProblem(error)
				? { saved: false, error: `${error.message}. ${error.description ?? ''}`.trim() }
				: Promise.reject(error),
	);
}

/** The site's runs among `rows` (but this execution's, which its new record replaces). */
function runsOf(rows: TableRead['rows'], project: string, execution: string): DatedRun[] {
	const before = notWrittenBy(execution);
	return rows
		.filter((row) => row.site === project && before(row))
		.flatMap((row) => datedRunOfRow(row) ?? []);
}

/** The runs this node kept of the site in the workflow that the table lacks (by date): to be moved. */
function runsToMove(ctx: IExecuteSingleFunctions, project: string, inTable: readonly DatedRun[]) {
	const dates = new Set(inTable.map(({ record }) => record.at));
	return workflowHistory(ctx, project)
		.records.filter(({ at }) => !dates.has(at))
		.map((record): DatedRun => ({ record, execution: '' }));
}

/** The move from This Workflow: the site's runs kept in the static data written as rows, then forgotten there. */
async function moveWorkflowRuns(
	ctx: IExecuteSingleFunctions,
	table: HistoryTable,
	project: string,
	moving: readonly DatedRun[],
): Promise<void> {
	const workflow = String(ctx.getWorkflow().id ?? '');
	await insertRows(
		ctx,
		table,
		moving.map((dated) =>
			rowOf(project, dated.record, [], { execution: dated.execution, workflow }),
		),
	);
	// Moved now or by an earlier run whose static data n8n did not save: the table has them all.
	if (workflowHistory(ctx, project).records.length > 0) forgetWorkflowHistory(ctx, project);
}

/** The site's run as rows (with Page Groups, its own row says whether every budget held, then one row per group; with Ticket Per → Page, its pages' failing checks). */
function runRows(
	site: SiteSummary,
	record: RunRecord,
	ids: { execution: string; workflow: string },
	pages?: RunRecord,
) {
	const own = {
		...rowOf(site.project, record, site.failing_checks, ids),
		...(pages ? { failing_pages: failingPagesText(pages.failing) } : {}),
	};
	if (!site.groups) return { own, groups: [] };
	return {
		own: {
			...own,
			page_group: null,
			budget_passed: site.budgets_passed ?? null,
			breaches: (site.breaches ?? []).map(({ text }) => text).join('; '),
		},
		groups: groupRowsOf(site.project, record.at, site.groups, ids),
	};
}

/**
 * This execution's rows: its groups' inserted in one request (upserted when an earlier try wrote
 * them), then the site's upserted, last: a run whose own row is there is there whole (claim.ts).
 */
async function writeRun(
	ctx: IExecuteSingleFunctions,
	read: TableRead & { table: HistoryTable },
	{ own, groups }: ReturnType<typeof runRows>,
): Promise<void> {
	const retried = read.rows.some(
		(row) => row.site === own.site && isGroupRow(row) && row.execution_id === own.execution_id,
	);
	if (!retried) await insertRows(ctx, read.table, groups);
	else for (const row of groups) await upsertRow(ctx, read.table, row);
	await upsertRow(ctx, read.table, own);
}

/** The newest record of a history: this run's. */
const newest = (history: SiteHistory) => history.records[history.records.length - 1];

/** The site's history over the run's one read: past runs (this execution's left out), then this run kept. */
function openSite(read: TableRead): OpenSite {
	return {
		async past(ctx, project) {
			const writer = writerOf(ctx);
			const inTable = runsOf(read.rows, project, writer);
			return {
				history: historyOfRuns([...inTable, ...runsToMove(ctx, project, inTable)]),
				groupsBefore: brokenGroupsBefore(read.rows, project, writer),
				// The group rows are the groups' runs: nothing more is kept for them.
				groupHistory: groupHistoryOfRows(read.rows, project, writer),
				// Likewise the site's own rows with `failing_pages` are its pages' runs.
				pageHistory: pageHistoryOfRows(read.rows, project, writer),
			};
		},
		async keep(ctx, site, history, _groups, pages) {
			const table = read.table;
			if (!isProduction(ctx) || !table) return { saved: false, error: null };
			const execution = writerOf(ctx);
			const ids = { execution, workflow: String(ctx.getWorkflow().id ?? '') };
			return await kept(async () => {
				const moving = runsToMove(ctx, site.project, runsOf(read.rows, site.project, execution));
				await moveWorkflowRuns(ctx, table, site.project, moving);
				const rows = runRows(site, newest(history), ids, pages && newest(pages));
				await writeRun(ctx, { ...read, table }, rows);
			});
		},
		// One request: the site's rows written since the read (an n8n that cannot answer: none landed).
		async landed(ctx, project) {
			if (!isProduction(ctx) || !read.table) return [];
			const since = read.rows.reduce((max, row) => Math.max(max, Number(row.id) || 0), 0);
			const rows = await rowsWrittenAfter(ctx, read.table, project, since).catch(
				(error: unknown) => (isTableProblem(error) ? [] : Promise.reject(error)),
			);
			return landedRuns(rows, project, writerOf(ctx));
		},
		// Rows of the run's one read; those kept in the workflow before the move to the table first.
		tickets: (ctx, project) =>
			new Map([...recordedTickets(ctx, project), ...ticketsOfRows(read.rows, project)]),
	};
}

/** Create or Re-Run: every site of the run read together, once, by the run's first items; a table that cannot be read stops the item with what to fix. */
async function openTableSite(
	ctx: IExecuteSingleFunctions,
	run: Run,
	project: string,
	groups: boolean,
	pages = false,
): Promise<OpenSite> {
	const choice = choiceOf(ctx, 'createOrRerun');
	const sites = await run.gather('history sites', ctx.getItemIndex(), project, inputItemCount(ctx));
	const read = await run
		.once('history table rows', async (): Promise<TableRead> => {
			const table = await findTable(ctx, choice, isProduction(ctx), groups, pages);
			const rows = table ? await readRows(ctx, table, [...new Set(sites.values())].sort()) : [];
			return { table, rows };
		})
		// Each item's own error (not `fail`, which stops the run as if by another item): the step
		// stops the run with the first, and says so in the others.
		.catch((error: unknown) =>
			Promise.reject(
				isTableProblem(error)
					? inputProblem(
							ctx,
							`${error.message}. Nothing was sent to phpRank.`,
							error.description ?? '',
						)
					: error,
			),
		);
	return openSite(read);
}

/** One Digest: each site's runs in the table (its group rows aside), read only; a table not made yet is said. */
async function readTableRuns(ctx: IExecuteSingleFunctions, sites: readonly string[]) {
	const choice = choiceOf(ctx, 'digest');
	const runs = new Map<string, DatedRun[]>(sites.map((site) => [site, []]));
	const table = await findTable(ctx, choice, false);
	if (!table)
		return {
			runs,
			note: `The history table "${choice.value}" does not exist yet: Create or Re-Run (One Item per Site, History Store → Data Table) makes it on its first production run.`,
		};
	for (const row of await readRows(ctx, table, sites)) {
		const dated = datedRunOfRow(row);
		if (dated) runs.get(String(row.site))?.push(dated);
	}
	return { runs, note: null };
}

/**
 * Compare With Competitors: the table once per run, the pages' rows read before any phpRank
 * request (each page's newest run before this execution's), then one upsert per page and
 * production run.
 */
async function openTablePages(ctx: IExecuteSingleFunctions, run: Run, sites: readonly string[]) {
	const choice = choiceOf(ctx, 'compare');
	const table = await run.once(`compare history table`, () =>
		findTable(ctx, choice, isProduction(ctx)),
	);
	const previous = new Map<string, RunRecord>();
	const before = notWrittenBy(writerOf(ctx));
	// Oldest first: the last row read of a site is its newest.
	for (const row of table ? await readRows(ctx, table, sites) : []) {
		const dated = datedRunOfRow(row);
		if (dated && before(row)) previous.set(String(row.site), dated.record);
	}
	return {
		previous,
		async keep(
			ctx: IExecuteSingleFunctions,
			runs: ReadonlyArray<{ site: string; record: RunRecord }>,
		): Promise<Kept> {
			if (!isProduction(ctx) || !table) return { saved: false };
			const ids = { execution: writerOf(ctx), workflow: String(ctx.getWorkflow().id ?? '') };
			const { error } = await kept(async () => {
				await Promise.all(
					runs.map(({ site, record }) =>
						run.once(`compare history row ${site}`, () =>
							upsertRow(ctx, table, rowOf(site, record, [], ids)),
						),
					),
				);
			});
			return error === null ? { saved: true } : { saved: false, error };
		},
	};
}

/** Record Finding Ticket's table, once per run: made by name when missing, its ticket columns added when it lacks them. */
async function ticketTable(ctx: IExecuteSingleFunctions): Promise<HistoryTable> {
	const choice = choiceOf(ctx, 'recordTicket');
	const table = (await findTable(ctx, choice, true))!;
	const lacking = (found: HistoryTable | null) =>
		TICKET_COLUMNS.filter(({ name }) => !found?.columns?.some((column) => column.name === name));
	// Two executions adding a column at once: n8n refuses the later one, which finds it added.
	for (const column of lacking(table))
		await addColumns(ctx, table.id, [column]).catch(async (error: unknown) => {
			const again = lacking(await findTable(ctx, choice, true));
			if (again.some(({ name }) => name === column.name)) throw error;
		});
	return table;
}

/** Record Finding Ticket: one row inserted per ticket (a production execution only), never one overwritten. */
const tableTickets: TicketKeeping = {
	async record(ctx, run, key, ticket) {
		if (!isProduction(ctx)) return false;
		const table = await run.once('ticket history table', () => ticketTable(ctx));
		await insertRows(ctx, table, [ticketRow(key, ticket, String(ctx.getWorkflow().id ?? ''))]);
		return true;
	},
};

export const tableHome: HistoryHome = {
	check(ctx, operation) {
		choiceOf(ctx, operation);
	},
	sites: { open: openTableSite },
	reader: { read: readTableRuns },
	pages: { open: openTablePages },
	tickets: tableTickets,
};
