import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { checkStates, classify, sameUrlKey } from '../../report';
import type { Run } from '../../transport/run';
import { historyHomeOf } from '../../history/homes';
import { runRecord, type RunRecord } from '../../history/model';
import { keptFields, type OpenPages } from '../../history/stores';
import { type Analysed, type Comparison, gapOf, overtakenBy } from '../../engine/comparison';

/*
 * Compare With Competitors over time, with a History Store (Data Table): each URL compared is a
 * site of the history like any other, one run per production run (its score as the average of one
 * page), kept through the home's page side (`pages` of history/stores.ts). The site is the URL as
 * phpRank stores it with a slash after a bare host (`rival.example.org/`), so a page never shares
 * the runs of a whole site (`rival.example.org`).
 */

/** A URL's site in the history. */
export const pageSite = (url: string) => {
	const key = sameUrlKey(url);
	return key.includes('/') ? key : `${key}/`;
};

export type ComparisonHistory = OpenPages;

/** The runs of this comparison's URLs, read before any phpRank request; undefined with History Store None. */
export async function readComparisonHistory(
	ctx: IExecuteSingleFunctions,
	run: Run,
	urls: string[],
): Promise<ComparisonHistory | undefined> {
	return await historyHomeOf(ctx, 'compare')?.pages.open(ctx, run, urls.map(pageSite));
}

/** A page's analysis as a run of a one-page site. */
function pageRun({ record }: Analysed, at: number): RunRecord {
	const { score, result_class } = classify(record.result);
	const failed = [...checkStates(record.results)].filter(([, state]) => !state.passed);
	const pages = (of: string) => (result_class === of ? 1 : 0);
	return runRecord(
		{
			analysed_to: null,
			average_score: score,
			health_score: failed.some(([, { importance }]) => importance === 'high') ? 0 : 100,
			pages: 1,
			good_pages: pages('good'),
			decent_pages: pages('decent'),
			bad_pages: pages('bad'),
			failing_checks: failed.map(([check]) => ({ check })),
		},
		at,
	);
}

/** Each comparable URL's run kept once per run (production runs only); whether all were kept. */
export async function keepComparison(
	ctx: IExecuteSingleFunctions,
	history: ComparisonHistory,
	analysed: Analysed[],
) {
	const at = Math.floor(Date.now() / 1000);
	const runs = analysed.map((page) => ({ site: pageSite(page.url), record: pageRun(page, at) }));
	return keptFields(await history.keep(ctx, runs));
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
