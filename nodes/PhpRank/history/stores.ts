import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { fail } from '../input';
import type { SiteSummary } from '../site/types';
import type { LandedRun } from './claim';
import type { DatedRun, RunRecord, SiteHistory } from './model';
import type { TableChoice } from './tableApi';

/*
 * The History Store: where runs live between production runs. One interface, `HistoryHome`, with
 * a side for each operation that has a history: a site's runs for Create or Re-Run (`sites`), a
 * read-only reader for One Digest (`reader`), page-level keeping for Compare With Competitors
 * (`pages`), the tickets Record Finding Ticket hands back (`tickets`; Create or Re-Run reads them
 * with the site's runs, `OpenSite.tickets`). Two homes, This Workflow (workflowStore.ts) and Data
 * Table (tableStore.ts); homes.ts names them and chooses the item's, once.
 */

/** What a site's history holds before this run. */
export interface PastRuns {
	/** Its runs so far, oldest first; a record this execution wrote before (Retry On Fail) left out or replaced by `addRun`. */
	history: SiteHistory;
	/** With Page Groups: the groups over budget at the previous production run (null: none known). */
	groupsBefore: string[] | null;
	/** With Page Groups: the runs of its groups, each group's failing checks as `group · check` (Ticket Per → Page Group); none kept: undefined. */
	groupHistory?: SiteHistory;
	/** With Ticket Per → Page: the runs of its pages, each page's failing checks as `page · check`; none kept: undefined. */
	pageHistory?: SiteHistory;
}

/** Whether this run was kept, and what kept it out: the one result of every home's keeping. */
export interface Kept {
	saved: boolean;
	/** A home that can fail to write (Data Table): what to fix, or null (nothing, e.g. a manual execution). */
	error?: string | null;
}

/** A run's kept result as the item carries it (the one place `history_saved` and `history_error` are named). */
export const keptFields = ({ saved, error }: Kept) =>
	error === undefined
		? { history_saved: saved }
		: { history_saved: saved, history_error: error as string | null };

/** A site's history in this run, once its home is open: its past runs, then this run kept. */
export interface OpenSite {
	/** The site's runs so far, and its groups over budget at the run before. */
	past(ctx: IExecuteSingleFunctions, project: string): Promise<PastRuns>;
	/** Keeps this run (the newest record of `history`, with Page Groups of `groupHistory`, with Ticket Per → Page of `pageHistory`) on a production execution. */
	keep(
		ctx: IExecuteSingleFunctions,
		site: SiteSummary,
		history: SiteHistory,
		groupHistory?: SiteHistory,
		pageHistory?: SiteHistory,
	): Promise<Kept>;
	/** After `keep` (production, One Item per Finding Change): other executions' runs whose rows landed before this run's since the read (claim.ts); a home that cannot tell has none. */
	landed?(ctx: IExecuteSingleFunctions, project: string): Promise<LandedRun[]>;
	/** The tickets recorded for the site's findings, by finding key, from the same read (none without a `tickets` side). */
	tickets?(ctx: IExecuteSingleFunctions, project: string): ReadonlyMap<string, Ticket>;
}

/** A finding's ticket as a tracker node returned it: text or a number. */
export type Ticket = string | number;

/** Record Finding Ticket: a finding's ticket kept on a production execution; whether it was kept. */
export interface TicketKeeping {
	record(ctx: IExecuteSingleFunctions, run: Run, key: string, ticket: Ticket): Promise<boolean>;
}

/** Create or Re-Run (One Item per Site): the home opened for the item's site before any phpRank request. */
export interface SiteKeeping {
	/** What the run's sites need read (a failure stops the run with what to fix); `groups`: Page Groups set; `pages`: Ticket Per → Page. */
	open(
		ctx: IExecuteSingleFunctions,
		run: Run,
		project: string,
		groups: boolean,
		pages?: boolean,
	): Promise<OpenSite>;
}

/** Each site's runs, by site, and what the digest says about them (null when every site's could be read). */
export interface RunsRead {
	runs: Map<string, DatedRun[]>;
	note: string | null;
}

/** One Digest: read only. */
export interface HistoryReader {
	read(ctx: IExecuteSingleFunctions, sites: readonly string[]): Promise<RunsRead>;
}

/** Compare With Competitors: each page a site of its own, its newest run before this execution's, and this run kept. */
export interface OpenPages {
	previous: Map<string, RunRecord>;
	keep(
		ctx: IExecuteSingleFunctions,
		runs: ReadonlyArray<{ site: string; record: RunRecord }>,
	): Promise<Kept>;
}

export interface PageKeeping {
	open(ctx: IExecuteSingleFunctions, run: Run, sites: readonly string[]): Promise<OpenPages>;
}

/** A home of the History Store: the sides it offers (an operation offers a home only where it has its side). */
export interface HistoryHome {
	/** Its own settings checked before anything is sent (Data Table: History Table chosen). */
	check(ctx: IExecuteSingleFunctions, operation: HistoryOperation): void;
	sites?: SiteKeeping;
	reader?: HistoryReader;
	pages?: PageKeeping;
	tickets?: TicketKeeping;
}

/** The operations that have a History Store, each with the side of a home it uses. */
export const HISTORY_SIDES = {
	createOrRerun: 'sites',
	digest: 'reader',
	compare: 'pages',
	recordTicket: 'tickets',
} as const;
export type HistoryOperation = keyof typeof HISTORY_SIDES;

/** History Table as chosen; an empty one stops the item with an error naming the field. */
export function tableChoiceOf(ctx: IExecuteSingleFunctions, fix: string): TableChoice {
	const locator = ctx.getNodeParameter('historyTable', {}) as IDataObject;
	const value = String(locator.value ?? '').trim();
	const mode = String(locator.mode ?? 'list');
	if (!value) fail(ctx, 'History Store is Data Table, but no History Table is chosen', fix);
	return { mode, value };
}

/** A production execution (a schedule, a webhook, a trigger): the only kind whose run is kept. */
export const isProduction = (ctx: IExecuteSingleFunctions) => ctx.getMode() !== 'manual';

/** Create or Re-Run's Run Key, trimmed ('' when unset, and in the other operations). */
function runKeyOf(ctx: IExecuteSingleFunctions): string {
	if (ctx.getNodeParameter('operation', '') !== 'createOrRerun') return '';
	const key = String(ctx.getNodeParameter('runKey', '') ?? '').trim();
	if (key.length > RUN_KEY_MAX)
		fail(
			ctx,
			`Run Key is ${key.length} characters long; at most ${RUN_KEY_MAX}`,
			'Give the run a short key, e.g. the dispatching execution’s ID or the date.',
		);
	return key;
}
const RUN_KEY_MAX = 100;

/**
 * The run this record is written by: `run:<Run Key>` when set (a second execution of the run
 * replaces the site's record instead of adding one), else the execution; '' for a manual one,
 * which keeps nothing and reads every row.
 */
export function writerOf(ctx: IExecuteSingleFunctions): string {
	const key = runKeyOf(ctx);
	if (!isProduction(ctx)) return '';
	return key ? `run:${key}` : String(ctx.getExecutionId() ?? '');
}
