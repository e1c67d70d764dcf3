import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { checkStates, classify, sameUrlKey } from '../../report';
import type { Run } from '../../transport/run';
import { datedRunOfRow, rowOf, type RunRecord } from '../../history/model';
import { isTableProblem } from '../../history/n8nApi';
import { historyStoreOf, isProduction, tableChoiceOf, writerOf } from '../../history/stores';
import { findTable, type HistoryTable, readRows, upsertRow } from '../../history/tableApi';
import { type Analysed, type Comparison, gapOf, overtakenBy } from '../../engine/comparison';

/*
 * Compare With Competitors over time, with History Store → Data Table: each URL compared is a site
 * of the history table like any other, one row per production run (its score as the average of
 * one page). The site is the URL as phpRank stores it with a slash after a bare host
 * (`rival.example.org/`), so a page never shares the rows of a whole site (`rival.example.org`).
 * Only this module's own use of history/'s table store; it changes nothing there. Requests to n8n:
 * the table once per run, one rows read per item, one upsert per URL and production run.
 */

/** A URL's site in the history table. */
export const pageSite = (url: string) => {
	const key = sameUrlKey(url);
	return key.includes('/') ? key : `${key}/`;
};

export interface ComparisonHistory {
	table: HistoryTable | null;
	/** Each site's newest row before this execution, as a run record. */
	previous: Map<string, RunRecord>;
}

/** The rows of this comparison's URLs, read before any phpRank request; undefined without a table. */
export async function readComparisonHistory(
	ctx: IExecuteSingleFunctions,
	run: Run,
	urls: string[],
): Promise<ComparisonHistory | undefined> {
	if (historyStoreOf(ctx, 'compare') !== 'dataTable') return undefined;
	const choice = tableChoiceOf(ctx);
	const production = ctx.getMode() !== 'manual';
	const table = await run.once(`compare history table`, () => findTable(ctx, choice, production));
	const previous = new Map<string, RunRecord>();
	if (!table) return { table, previous };
	const execution = String(ctx.getExecutionId() ?? '');
	// Oldest first: the last row read of a site is its newest.
	for (const row of await readRows(ctx, table, urls.map(pageSite))) {
		const dated = datedRunOfRow(row);
		if (dated && (execution === '' || dated.execution !== execution))
			previous.set(String(row.site), dated.record);
	}
	return { table, previous };
}

/** A page's analysis as a run of a one-page site. */
function pageRun({ record }: Analysed, at: number): RunRecord {
	const { score, result_class } = classify(record.result);
	const failed = [...checkStates(record.results)].filter(([, state]) => !state.passed);
	return {
		at,
		average: score,
		health: failed.some(([, { importance }]) => importance === 'high') ? 0 : 100,
		pages: 1,
		good: result_class === 'good' ? 1 : 0,
		decent: result_class === 'decent' ? 1 : 0,
		bad: result_class === 'bad' ? 1 : 0,
		failing: failed.map(([check]) => check),
	};
}

/** Each comparable URL's row written once per run (production runs only); whether all were written. */
export async function keepComparison(
	ctx: IExecuteSingleFunctions,
	run: Run,
	history: ComparisonHistory,
	analysed: Analysed[],
): Promise<{ history_saved: boolean; history_error?: string }> {
	const { table } = history;
	if (!isProduction(ctx) || !table) return { history_saved: false };
	const ids = { execution: writerOf(ctx), workflow: String(ctx.getWorkflow().id ?? '') };
	const at = Math.floor(Date.now() / 1000);
	const written = async () => {
		await Promise.all(
			analysed.map((page) =>
				run.once(`compare history row ${pageSite(page.url)}`, () =>
					upsertRow(ctx, table, rowOf(pageSite(page.url), pageRun(page, at), [], ids)),
				),
			),
		);
		return { history_saved: true };
	};
	// A table n8n refused to write says what to fix; the comparison still comes out.
	return await written().catch((error: unknown) =>
		isTableProblem(error)
			? {
					history_saved: false,
					history_error: `${error.message}. ${error.description ?? ''}`.trim(),
				}
			: Promise.reject(error),
	);
}

/**
 * `gap_change` of each competitor since the previous comparison (both pages' newest rows before
 * this run), and `overtaken_by` (`overtakenBy`: who is ahead now and was not then, a new competitor included).
 */
export function overTime(c: Comparison, history: ComparisonHistory): Comparison {
	const before = (url: string) => history.previous.get(pageSite(url))?.average ?? null;
	const mine = before(c.you.url);
	const competitors = c.competitors.map((entry) => {
		const previous = gapOf(before(entry.url), mine);
		const change = previous === null || entry.gap === null ? null : gapOf(entry.gap, previous);
		return { ...entry, previous_gap: previous, gap_change: change };
	});
	const overtaken = overtakenBy(competitors, c.tie_within, mine !== null);
	return { ...c, competitors, overtaken_by: overtaken };
}
