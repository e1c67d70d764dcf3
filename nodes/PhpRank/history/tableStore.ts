import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { inputItemCount } from '../transport/n8nInternals';
import type { Run } from '../transport/run';
import { inputProblem } from '../input';
import { pageGroupSettings } from '../site/pageGroups';
import type { SiteSummary } from '../site/types';
import {
	brokenGroupsBefore,
	datedRunOfRow,
	type DatedRun,
	groupRowsOf,
	historyOfRuns,
	isGroupRow,
	type RunRecord,
	rowOf,
	type SiteHistory,
} from './model';
import { isTableProblem } from './n8nApi';
import { type HistoryStore, isProduction, tableChoiceOf, writerOf } from './stores';
import {
	findTable,
	type HistoryTable,
	insertRows,
	readRows,
	type TableChoice,
	upsertRow,
} from './tableApi';
import { forgetWorkflowHistory, workflowHistory } from './workflowStore';

/*
 * History Store → Data Table: a row per site and production run (and with Page Groups one per
 * group) in an n8n data table, through its public API (tableApi.ts). The run's sites' rows are read
 * once, before any phpRank request, and a failed read stops the run; after the audit each site's
 * rows are written, and a failed write leaves the item with `history_saved: false` and
 * `history_error`. A history the node kept in the workflow moves into the table on its first
 * production run (`moveWorkflowRuns`). One Digest reads the same rows the same way (`readTableRuns`).
 */

/** The run's one read of the table. */
interface TableRead {
	table: HistoryTable | null;
	rows: Array<Record<string, unknown>>;
}

/** The run's read: made by the first of `prepare`'s items, the same promise for every later step. */
const runRead = (run: Run, make?: () => Promise<TableRead>): Promise<TableRead> =>
	make ? run.once('history table rows', make) : run.made('history table rows');

/** Each site's runs in the table (its group rows aside), by site: read only, for One Digest. */
export async function readTableRuns(
	ctx: IExecuteSingleFunctions,
	choice: TableChoice,
	sites: readonly string[],
): Promise<Map<string, DatedRun[]> | null> {
	const table = await findTable(ctx, choice, false);
	if (!table) return null;
	const runs = new Map<string, DatedRun[]>(sites.map((site) => [site, []]));
	for (const row of await readRows(ctx, table, sites)) {
		const run = datedRunOfRow(row);
		if (run) runs.get(String(row.site))?.push(run);
	}
	return runs;
}

/** The site's runs among `rows` (but this execution's, which its new record replaces). */
function runsOf(rows: TableRead['rows'], project: string, execution: string): DatedRun[] {
	return rows
		.filter(
			(row) =>
				row.site === project && (execution === '' || String(row.execution_id ?? '') !== execution),
		)
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

/** The newest record of a history: this run's. */
const newest = (history: SiteHistory) => history.records[history.records.length - 1];

export const tableStore: HistoryStore = {
	/** Every site of the run read together, once, by the run's first items; a table that cannot be read stops the item with what to fix. */
	async prepare(ctx, run, project) {
		const choice = tableChoiceOf(ctx);
		const sites = await run.gather(
			'history sites',
			ctx.getItemIndex(),
			project,
			inputItemCount(ctx),
		);
		await runRead(run, async () => {
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
	},

	async past(ctx, run, project) {
		const read = await runRead(run);
		const inTable = runsOf(read.rows, project, writerOf(ctx));
		return {
			history: historyOfRuns([...inTable, ...runsToMove(ctx, project, inTable)]),
			groupsBefore: brokenGroupsBefore(read.rows, project, writerOf(ctx)),
		};
	},

	async keep(ctx, run, site, history) {
		const read = await runRead(run);
		if (!isProduction(ctx) || !read.table) return { saved: false, error: null };
		const table = read.table;
		const execution = writerOf(ctx);
		const ids = { execution, workflow: String(ctx.getWorkflow().id ?? '') };
		const written = async () => {
			await moveWorkflowRuns(
				ctx,
				table,
				site.project,
				runsToMove(ctx, site.project, runsOf(read.rows, site.project, execution)),
			);
			await writeRun(ctx, { ...read, table }, runRows(site, newest(history), ids));
			return { saved: true, error: null };
		};
		return await written().catch((error: unknown) =>
			isTableProblem(error)
				? { saved: false, error: `${error.message}. ${error.description ?? ''}`.trim() }
				: Promise.reject(error),
		);
	},
};
