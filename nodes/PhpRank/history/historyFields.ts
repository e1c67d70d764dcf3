import { BOUNDS } from '../bounds';
import { sparkline } from '../sparkline';
import type { GroupChanges } from '../site/types';
import { type FailingCheck, siteIssues, type SiteIssues } from './issues';
import { type HistoryEntry, historyEntry, isoDate, type SiteHistory } from './model';

/*
 * A site's history as the site item gives it: the record of this run (from the site's figures)
 * and the fields `history`, `history_text`, `first_run_at`, `change_since_first`,
 * `change_4_runs`. Pure.
 */

/** How many runs `history` lists (History Length under Site Options). */
export const HISTORY_LENGTH = BOUNDS.historyLength;
const DEFAULT_HISTORY_LENGTH: number = HISTORY_LENGTH.default;

/** The site item's history fields. */
export type HistoryFields = {
	history: HistoryEntry[];
	history_text: string;
	runs_recorded: number;
	first_run_at: string | null;
	change_since_first: number | null;
	change_4_runs: number | null;
};

/** Everything the site item gains from its history: the fields, whether this run was kept, the issues. */
export type SiteHistoryFields = HistoryFields & {
	history_saved: boolean;
	/** History Store → Data Table only: what kept the run's row out of the table, or null. */
	history_error?: string | null;
} & SiteIssues &
	Partial<GroupChanges>;

const round1 = (value: number) => Math.round(value * 10) / 10;
const change = (from: number | null | undefined, to: number | null | undefined) =>
	typeof from === 'number' && typeof to === 'number' ? round1(to - from) : null;

/** The history fields of the site item: the last `length` runs, oldest first, this run last. */
export function historyFields(
	history: SiteHistory,
	length = DEFAULT_HISTORY_LENGTH,
): HistoryFields {
	const shown = history.records.slice(-length);
	const newest = history.records[history.records.length - 1];
	const fourBefore = history.records[history.records.length - 5];
	const scores = shown
		.map(({ average }) => average)
		.filter((score): score is number => score !== null);
	return {
		history: shown.map(historyEntry),
		history_text: sparkline(scores),
		runs_recorded: history.runs,
		first_run_at: history.first ? isoDate(history.first.at) : null,
		change_since_first: change(history.first?.average, newest?.average),
		change_4_runs: change(fourBefore?.average, newest?.average),
	};
}

/** Everything the site item gains: the history fields, `history_saved`, and the issues with their age. */
export function siteHistoryFields(
	history: SiteHistory,
	saved: boolean,
	failing: readonly FailingCheck[],
	length = DEFAULT_HISTORY_LENGTH,
): SiteHistoryFields {
	return {
		...historyFields(history, length),
		history_saved: saved,
		...siteIssues(history, failing),
	};
}
