import {
	addRun,
	datedRunOfRow,
	groupHistoryOfRows,
	pageHistoryOfRows,
	type RunRecord,
	RUNS_KEPT,
	type SiteHistory,
} from './model';

/*
 * Each finding's change emitted once when two executions run the same site at once (History Store
 * → Data Table, One Item per Finding Change; a re-sent webhook on two queue workers, two
 * dispatchers): both read the same run before theirs. Once this run's row is written, the site's
 * rows written since the run's read are read back (one request); the runs of other executions
 * whose row landed before this run's are put between, so an execution's events are from the run
 * written just before its own, X→A by one, A→B by the other, none lost. Pure.
 */

/** Another execution's run whose row landed between this run's read and its row, with its groups' run (Page Groups) and its pages' (Ticket Per → Page). */
export interface LandedRun {
	record: RunRecord;
	execution: string;
	groups: RunRecord | null;
	pages: RunRecord | null;
}

/**
 * The runs among `rows` (the site's, written since the run's read, oldest first) that other
 * executions wrote before this run's row, oldest first. None when this run's row is not among
 * them: it was there before the read (Retry On Fail, Run Key), and the try reads as it did.
 */
export function landedRuns(
	rows: ReadonlyArray<Record<string, unknown>>,
	site: string,
	writer: string,
): LandedRun[] {
	const runs = rows.flatMap((row) => {
		const dated = row.site === site ? datedRunOfRow(row) : null;
		// A run moved from This Workflow (no execution) is no one's run of now.
		return dated && dated.execution !== '' ? [{ ...dated, row, id: Number(row.id) }] : [];
	});
	const mine = runs.find(({ execution }) => execution === writer);
	if (!mine) return [];
	return runs
		.filter(({ id, execution }) => id < mine.id && execution !== writer)
		.map(({ record, execution, row }) => ({
			record,
			execution,
			pages: pageHistoryOfRows([row], site, '').records[0] ?? null,
			// Its group rows, written before its own (none: no group run, and the groups read as kept).
			groups:
				groupHistoryOfRows(
					rows.filter((row) => row.execution_id === execution),
					site,
					'',
				).records[0] ?? null,
		}));
}

/** The history with the landed runs, then this run, added: what this run's events are read from. */
export function afterLanded(
	past: SiteHistory,
	landed: ReadonlyArray<{ record: RunRecord; execution: string }>,
	record: RunRecord,
	writer: string,
	kept: number = RUNS_KEPT,
): SiteHistory {
	const add = (history: SiteHistory, run: { record: RunRecord; execution: string }) =>
		addRun(history, run.record, run.execution, kept);
	return add(landed.reduce(add, past), { record, execution: writer });
}
