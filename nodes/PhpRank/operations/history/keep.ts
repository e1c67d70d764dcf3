import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { inputItemCount } from '../../transport/n8nInternals';
import type { Run } from '../../transport/run';
import { fail, inputProblem } from '../input';
import { groupChanges } from '../site/groups';
import { pageGroupSettings } from '../site/pageGroups';
import type { SiteSummary } from '../site/types';
import { runRecord, type SiteHistoryFields, siteHistoryFields } from './historyFields';
import { isTableProblem } from './n8nApi';
import { addRun, type RunRecord, type SiteHistory } from './record';
import {
	brokenGroupsBefore,
	datedRunOfRow,
	type DatedRun,
	groupRowsOf,
	historyOfRuns,
	isGroupRow,
	rowOf,
} from './rows';
import { forgetWorkflowHistory, keepGroupStates, recordRun, workflowHistory } from './store';
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
			const groups = pageGroupSettings(ctx).groups.length > 0;
			const table = await findTable(ctx, choice, isProduction(ctx), groups);
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
	/** Page Groups: the groups over budget at the previous production run (null: none known). */
	groupsBefore?: string[] | null;
}

/** The site's run as rows (with Page Groups, its own row says whether every budget held, then one row per group). */
function runRows(
	site: SiteSummary,
	record: RunRecord,
	ids: { execution: string; workflow: string },
) {
	const own = rowOf(site.project, record, site.failing_checks, ids);
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

/** This execution's rows: the site's upserted; its groups' inserted in one request, or upserted when an earlier try wrote them. */
async function writeRun(
	ctx: IExecuteSingleFunctions,
	read: TableRead & { table: HistoryTable },
	{ own, groups }: ReturnType<typeof runRows>,
): Promise<void> {
	await upsertRow(ctx, read.table, own);
	const retried = read.rows.some(
		(row) => row.site === own.site && isGroupRow(row) && row.execution_id === own.execution_id,
	);
	if (!retried) return await insertRows(ctx, read.table, groups);
	for (const row of groups) await upsertRow(ctx, read.table, row);
}

/** Data Table: the site's history with this run, its rows (and any history moved) written on production runs. */
async function keepInTable(
	ctx: IExecuteSingleFunctions,
	run: Run,
	site: SiteSummary,
	record: RunRecord,
): Promise<Kept> {
	const { project } = site;
	// Read by `readSiteHistories` before the item's first phpRank request.
	const read = await run.made<TableRead>(READ_KEY);
	const execution = String(ctx.getExecutionId() ?? '');
	const inTable = tableRuns(read, project, execution);
	const kept = workflowHistory(ctx, project);
	const moving = runsToMove(kept, inTable);
	const history = addRun(historyOfRuns([...inTable, ...moving]), record, execution);
	const groupsBefore = site.groups ? brokenGroupsBefore(read.rows, project, execution) : undefined;
	const unsaved: Kept = { history, saved: false, error: null, groupsBefore };
	if (!isProduction(ctx) || !read.table) return unsaved;
	const table = read.table;
	const workflow = String(ctx.getWorkflow().id ?? '');
	const written = async (): Promise<Kept> => {
		await insertRows(
			ctx,
			table,
			moving.map((dated) =>
				rowOf(project, dated.record, [], { execution: dated.execution, workflow }),
			),
		);
		// Moved now or by an earlier run whose static data n8n did not save: the table has them all.
		if (kept.records.length > 0) forgetWorkflowHistory(ctx, project);
		await writeRun(ctx, { ...read, table }, runRows(site, record, { execution, workflow }));
		return { ...unsaved, saved: true };
	};
	return await written().catch((error: unknown) =>
		isTableProblem(error)
			? { ...unsaved, error: `${error.message}. ${error.description ?? ''}`.trim() }
			: Promise.reject(error),
	);
}

/** This Workflow: the run in the static data, and with Page Groups the groups' state. */
function keepInWorkflow(ctx: IExecuteSingleFunctions, site: SiteSummary, record: RunRecord): Kept {
	const stored = recordRun(ctx, site.project, record);
	if (!site.groups) return stored;
	return { ...stored, groupsBefore: keepGroupStates(ctx, site.project, site.broken_groups ?? []) };
}

/** The site item's history fields, this run kept where History Store says (not on manual runs). */
export async function keepSiteRun(
	ctx: IExecuteSingleFunctions,
	run: Run,
	site: SiteSummary,
	length: number,
): Promise<SiteHistoryFields> {
	const record = runRecord(site, Date.now() / 1000);
	const kept: Kept =
		historyStoreOf(ctx) === 'dataTable'
			? await keepInTable(ctx, run, site, record)
			: keepInWorkflow(ctx, site, record);
	const fields = {
		...siteHistoryFields(kept.history, kept.saved, site.failing_checks, length),
		...(site.groups && kept.groupsBefore !== undefined
			? groupChanges(kept.groupsBefore, {
					groups: site.groups,
					broken_groups: site.broken_groups ?? [],
					budgets_passed: site.budgets_passed ?? true,
					breaches: site.breaches ?? [],
				})
			: {}),
	};
	return kept.error === undefined ? fields : { ...fields, history_error: kept.error };
}
