import { BOUNDS } from '../../bounds';

/*
 * A site's history: one record per production run of Create or Re-Run (One Item per Site), the
 * newest RUNS_KEPT kept, and where each check's current failing streak began. Pure.
 */

/** Runs kept per site: two years of weekly runs. */
export const RUNS_KEPT = BOUNDS.historyLength.high;

/** One run of a site, as its history keeps it. */
export interface RunRecord {
	/** When the run's pages were analysed: seconds since 1970. */
	at: number;
	/** One decimal; null when no page had a score. */
	average: number | null;
	health: number | null;
	pages: number;
	good: number;
	decent: number;
	bad: number;
	/** The checks that failed on at least one page. */
	failing: string[];
}

/** Where a failing streak began: the run's number (1 = the site's first run) and date. */
export interface StreakStart {
	ordinal: number;
	at: number;
}

export interface SiteHistory {
	/** Runs recorded since the first: the number of the newest record. */
	runs: number;
	/** The execution that wrote the newest record: a later try in it replaces the record. */
	execution: string;
	/** The site's first run ever (kept when its record is dropped). */
	first: { at: number; average: number | null } | null;
	/** Oldest first, at most RUNS_KEPT. */
	records: RunRecord[];
	/** Streaks failing in the oldest record that began before it, by check. */
	carried: Map<string, StreakStart>;
}

export const emptyHistory = (): SiteHistory => ({
	runs: 0,
	execution: '',
	first: null,
	records: [],
	carried: new Map(),
});

/** The run number of `records[index]`. */
export const ordinalOf = (history: SiteHistory, index: number): number =>
	history.runs - history.records.length + 1 + index;

/** Drops the oldest record, carrying the start of each streak that goes on in the next one. */
function dropOldest(history: SiteHistory): void {
	const [oldest, next] = history.records;
	const carried = new Map<string, StreakStart>();
	const still = new Set(next?.failing ?? []);
	for (const check of oldest.failing) {
		if (still.has(check))
			carried.set(
				check,
				history.carried.get(check) ?? { ordinal: ordinalOf(history, 0), at: oldest.at },
			);
	}
	history.records.shift();
	history.carried = carried;
}

/**
 * The history with this run's record added, or, when the newest record was written by the same
 * execution (Retry On Fail, a second try), replaced. Returns a new history; `history` is unchanged.
 */
export function addRun(
	history: SiteHistory,
	record: RunRecord,
	execution: string,
	kept = RUNS_KEPT,
): SiteHistory {
	const next: SiteHistory = {
		...history,
		records: [...history.records],
		carried: new Map(history.carried),
	};
	record = { ...record, failing: [...new Set(record.failing)].sort() };
	const replace = execution !== '' && execution === history.execution && next.records.length > 0;
	if (replace) next.records[next.records.length - 1] = record;
	else {
		next.records.push(record);
		next.runs += 1;
	}
	next.execution = execution;
	if (next.first === null || next.runs === 1)
		next.first = { at: record.at, average: record.average };
	while (next.records.length > kept) dropOldest(next);
	return next;
}
