import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { inputItemCount } from '../../transport/n8nInternals';
import type { Run } from '../../transport/run';
import { fail, inputProblem } from '../input';
import type { SiteSummary } from '../site/types';
import { runRecord, type SiteHistoryFields, siteHistoryFields } from './historyFields';
import type { FailingCheck } from './issues';
import { isTableProblem } from './n8nApi';
import { addRun, type SiteHistory } from './record';
import { datedRunOfRow, type DatedRun, historyOfRuns, type HistoryRow, rowOf } from './rows';
import { forgetWorkflowHistory, recordRun, workflowHistory } from './store';
import {
	findTable,
	type HistoryTable,
	insertRows,
	readRows,
	type TableChoice,
	upsertRow,
} from './tableStore';

/*
 * Where a site's runs are kept, as History Store says: This Workflow (the node's static data,
 * store.ts) or Data Table (a row per site and production run, tableStore.ts). With a table, the
 * run's sites' rows are read once, before any phpRank request, and a failed read stops the run;
 * after the audit each site's row is written, and a failed write leaves the item with
 * `history_saved: false` and `history_error`. A history the node kept in the workflow moves into
 * the table on its first production run (runs of a date the table has are not written twice).
 */

export type HistoryStore = 'workflow' | 'dataTable';

export function historyStoreOf(ctx: IExecuteSingleFunctions): HistoryStore {
	return ctx.getNodeParameter('historyStore', 'workflow') === 'dataTable'
		? 'dataTable'
		: 'workflow';
}

/** History Table as chosen; an empty one stops the item with an error naming the field. */
export function tableChoiceOf(
	ctx: IExecuteSingleFunctions,
	fix = 'Pick a data table under History Table (From List or By ID), or enter a name (By Name): the node creates that table with its columns on its first production run.',
): TableChoice {
	const locator = ctx.getNodeParameter('historyTable', {}) as IDataObject;
	const value = String(locator.value ?? '').trim();
	const mode = String(locator.mode ?? 'list');
	if (!value) fail(ctx, 'History Store is Data Table, but no History Table is chosen', fix);
	return { mode, value };
}

const isProduction = (ctx: IExecuteSingleFunctions) => ctx.getMode() !== 'manual';

interface TableRead {
	table: HistoryTable | null;
	rows: Array<Record<string, unknown>>;
}

const READ_KEY = 'history table rows';

/**
 * History Store → Data Table: the rows of every site of the run, read once by the run's first
 * items together, before any phpRank request. A table that cannot be read stops the item with
 * what to fix.
 */
export async function readSiteHistories(
	ctx: IExecuteSingleFunctions,
	run: Run,
	project: string,
): Promise<void> {
	if (historyStoreOf(ctx) !== 'dataTable') return;
	const choice = tableChoiceOf(ctx);
	const sites = await run.gather('history sites', ctx.getItemIndex(), project, inputItemCount(ctx));
	await run
		.once<TableRead>(READ_KEY, async () => {
			const table = await findTable(ctx, choice, isProduction(ctx));
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
}

/** The site's runs in the table (but this execution's, which its new record replaces). */
function tableRuns(read: TableRead, project: string, execution: string): DatedRun[] {
	return read.rows
		.filter(
			(row) =>
				row.site === project && (execution === '' || String(row.execution_id ?? '') !== execution),
		)
		.flatMap((row) => datedRunOfRow(row) ?? []);
}

/** The runs this node kept in the workflow that the table lacks (by date): to be moved. */
function runsToMove(kept: SiteHistory, inTable: readonly DatedRun[]): DatedRun[] {
	const dates = new Set(inTable.map(({ record }) => record.at));
	return kept.records
		.filter(({ at }) => !dates.has(at))
		.map((record) => ({ record, execution: '' }));
}

interface Kept {
	history: SiteHistory;
	saved: boolean;
	/** What to fix when the run's row could not be written (Data Table only). */
	error?: string | null;
}

/** Data Table: the site's history with this run, its row (and any history moved) written on production runs. */
async function keepInTable(
	ctx: IExecuteSingleFunctions,
	run: Run,
	project: string,
	record: ReturnType<typeof runRecord>,
	counted: readonly FailingCheck[],
): Promise<Kept> {
	// Read by `readSiteHistories` before the item's first phpRank request.
	const read = await run.made<TableRead>(READ_KEY);
	const execution = String(ctx.getExecutionId() ?? '');
	const inTable = tableRuns(read, project, execution);
	const kept = workflowHistory(ctx, project);
	const moving = runsToMove(kept, inTable);
	const history = addRun(historyOfRuns([...inTable, ...moving]), record, execution);
	if (!isProduction(ctx) || !read.table) return { history, saved: false, error: null };
	const ids = { execution, workflow: String(ctx.getWorkflow().id ?? '') };
	const row = (dated: DatedRun, checks: readonly FailingCheck[]): HistoryRow =>
		rowOf(project, dated.record, checks, { ...ids, execution: dated.execution });
	const table = read.table;
	const written = async (): Promise<Kept> => {
		await insertRows(
			ctx,
			table,
			moving.map((dated) => row(dated, [])),
		);
		// Moved now or by an earlier run whose static data n8n did not save: the table has them all.
		if (kept.records.length > 0) forgetWorkflowHistory(ctx, project);
		await upsertRow(ctx, table, row({ record, execution }, counted));
		return { history, saved: true, error: null };
	};
	return await written().catch((error: unknown) =>
		isTableProblem(error)
			? { history, saved: false, error: `${error.message}. ${error.description ?? ''}`.trim() }
			: Promise.reject(error),
	);
}

/** The site item's history fields, this run kept where History Store says (not on manual runs). */
export async function keepSiteRun(
	ctx: IExecuteSingleFunctions,
	run: Run,
	site: SiteSummary,
	length: number,
): Promise<SiteHistoryFields> {
	const record = runRecord(site, Date.now() / 1000);
	const { project, failing_checks: counted } = site;
	const kept: Kept =
		historyStoreOf(ctx) === 'dataTable'
			? await keepInTable(ctx, run, project, record, counted)
			: recordRun(ctx, project, record);
	const fields = siteHistoryFields(kept.history, kept.saved, counted, length);
	return kept.error === undefined ? fields : { ...fields, history_error: kept.error };
}
