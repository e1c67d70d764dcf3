import type { IDataObject } from 'n8n-workflow';

import { BOUNDS } from '../../../bounds';
import { sparkline } from '../../../sparkline';
import { type FailingCheck, isoDate, siteIssues } from './issues';
import type { RunRecord, SiteHistory } from './record';

/*
 * A site's history as the site item gives it: the record of this run (from the site's figures)
 * and the fields `history`, `history_text`, `first_run_at`, `change_since_first`,
 * `change_4_runs`. Pure.
 */

/** How many runs `history` lists (History Length under Site Options). */
export const HISTORY_LENGTH = BOUNDS.historyLength;
const DEFAULT_HISTORY_LENGTH: number = HISTORY_LENGTH.default;

const numberOr = (value: unknown, fallback: number) =>
	typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** This run's record from the site's figures; dated by its newest analysis, else `now` (seconds). */
export function runRecord(site: IDataObject, now: number): RunRecord {
	const analysed = typeof site.analysed_to === 'string' ? Date.parse(site.analysed_to) : NaN;
	const failing = (site.failing_checks ?? []) as Array<{ check: string }>;
	return {
		at: Number.isFinite(analysed) ? Math.floor(analysed / 1000) : Math.floor(now),
		average: typeof site.average_score === 'number' ? site.average_score : null,
		health: typeof site.health_score === 'number' ? site.health_score : null,
		pages: numberOr(site.pages, 0),
		good: numberOr(site.good_pages, 0),
		decent: numberOr(site.decent_pages, 0),
		bad: numberOr(site.bad_pages, 0),
		failing: failing.map(({ check }) => check),
	};
}

/** One run as `history` lists it. */
export function historyEntry(record: RunRecord): IDataObject {
	return {
		date: isoDate(record.at),
		average_score: record.average,
		health_score: record.health,
		pages: record.pages,
		good_pages: record.good,
		decent_pages: record.decent,
		bad_pages: record.bad,
	};
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const change = (from: number | null | undefined, to: number | null | undefined) =>
	typeof from === 'number' && typeof to === 'number' ? round1(to - from) : null;

/** The history fields of the site item: the last `length` runs, oldest first, this run last. */
export function historyFields(history: SiteHistory, length = DEFAULT_HISTORY_LENGTH): IDataObject {
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
): IDataObject {
	return {
		...historyFields(history, length),
		history_saved: saved,
		...(siteIssues(history, failing) as unknown as IDataObject),
	};
}
