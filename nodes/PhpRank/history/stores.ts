import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { fail } from '../input';
import type { SiteSummary } from '../site/types';
import type { SiteHistory } from './model';
import type { TableChoice } from './tableApi';

/*
 * The History Store: where a site's runs live between production runs, one interface with two
 * homes, This Workflow (workflowStore.ts: the node's static data) and Data Table (tableStore.ts:
 * a row per site and run in an n8n data table). keep.ts picks the home History Store names and
 * asks it, in this order: `prepare` the run's sites (before any phpRank request), the site's `past`
 * runs, then `keep` this run, which says whether it was kept and, when it could not be, why.
 */

/** What a site's history holds before this run. */
export interface PastRuns {
	/** Its runs so far, oldest first; a record this execution wrote before (Retry On Fail) left out or replaced by `addRun`. */
	history: SiteHistory;
	/** With Page Groups: the groups over budget at the previous production run (null: none known). */
	groupsBefore: string[] | null;
}

/** Whether this run was kept, and what kept it out. */
export interface Kept {
	saved: boolean;
	/** A home that can fail to write (Data Table): what to fix, or null (nothing, e.g. a manual execution). */
	error?: string | null;
}

/** Where a site's runs live. A home that lacks one of these is refused by `tsc` (STORES in keep.ts). */
export interface HistoryStore {
	/** Before any phpRank request: what the run's sites need read (a failure stops the run with what to fix). */
	prepare(ctx: IExecuteSingleFunctions, run: Run, project: string): Promise<void>;
	/** The site's runs so far, and its groups over budget at the run before. */
	past(ctx: IExecuteSingleFunctions, run: Run, project: string): Promise<PastRuns>;
	/** Keeps this run (the newest record of `history`) on a production execution. */
	keep(
		ctx: IExecuteSingleFunctions,
		run: Run,
		site: SiteSummary,
		history: SiteHistory,
	): Promise<Kept>;
}

/** A home's name as History Store stores it. */
export type HistoryStoreName = 'workflow' | 'dataTable';

/** History Store in each operation that has it: its choices and its default. */
export const HISTORY_STORE_CHOICES = {
	/** Create or Re-Run (One Item per Site) keeps a history unless told otherwise. */
	createOrRerun: { choices: ['workflow', 'dataTable'], default: 'workflow' },
	/** One Digest reads the table Create or Re-Run writes, only when told to. */
	digest: { choices: ['none', 'dataTable'], default: 'none' },
	/** Compare With Competitors keeps each compared page's runs only when told to (compare/history.ts). */
	compare: { choices: ['none', 'dataTable'], default: 'none' },
} as const;

type Choices = typeof HISTORY_STORE_CHOICES;

/** History Store as set in this operation (its default when unset or unknown): the one reader of the parameter. */
export function historyStoreOf<O extends keyof Choices>(
	ctx: IExecuteSingleFunctions,
	operation: O,
): Choices[O]['choices'][number] {
	const { choices, default: initial } = HISTORY_STORE_CHOICES[operation];
	const value = ctx.getNodeParameter('historyStore', initial) as string;
	return (
		(choices as readonly string[]).includes(value) ? value : initial
	) as Choices[O]['choices'][number];
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

/** A production execution (a schedule, a webhook, a trigger): the only kind whose run is kept. */
export const isProduction = (ctx: IExecuteSingleFunctions) => ctx.getMode() !== 'manual';

/** The execution this run's record is written by: '' for a manual one, which keeps nothing. */
export const writerOf = (ctx: IExecuteSingleFunctions) =>
	isProduction(ctx) ? String(ctx.getExecutionId() ?? '') : '';
