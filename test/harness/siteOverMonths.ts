import type { RunRecord } from '../../nodes/PhpRank/history/model';
import type { PhpRankServer } from '../server';

/*
 * A site over months, the fixture of the history engine tests and the history e2e suites alike: each
 * production run's scripted analyses, a week apart, and the figures of a site item's history.
 */

export const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Five production runs: each page's score and failing checks (the first pages of a site's). title fails in runs 2-4. */
export const MONTHS: Array<{ scores: number[]; failing: string[][] }> = [
	{ scores: [70, 80, 90], failing: [['favicon'], [], []] },
	{ scores: [72, 81, 88], failing: [['favicon', 'title'], [], []] },
	{ scores: [60, 82, 85], failing: [['favicon', 'title'], ['title'], []] },
	{ scores: [75, 90, 86], failing: [['favicon'], ['title'], []] },
	{ scores: [78, 91, 92], failing: [['favicon', 'robots'], [], []] },
];

/**
 * Scripts each page's next analysis of run `run` (fractions between runs allowed): dated `run` weeks after
 * `start`, each page a second after the one before; `failing` per page (none if not given).
 */
export function scriptRun(
	server: PhpRankServer,
	urls: string[],
	o: { start: number; run: number; scores: number[]; failing?: string[][] },
): void {
	urls.forEach((url, index) =>
		server.setNextAnalysis(url, {
			score: o.scores[index],
			failed: o.failing?.[index] ?? [],
			others: 'pass',
			generatedAt: new Date(o.start + o.run * WEEK_MS + index * 1000).toISOString(),
		}),
	);
}

/** A site item's history as the test server's siteFigures says it: date, average, health, pages per run. */
export const historyOf = (site: Record<string, unknown>) =>
	((site.history ?? []) as Array<Record<string, unknown>>).map(
		({ date, average_score, health_score, pages }) => ({
			date,
			average_score,
			health_score,
			pages,
		}),
	);

/** Run `run`'s record as a site history keeps it: `run` weeks after `start` (seconds), its figures moving by run. */
export const recordOf = (start: number, run: number, over: Partial<RunRecord> = {}): RunRecord => ({
	at: start + (run * WEEK_MS) / 1000,
	average: 70 + (run % 10),
	health: 60 + (run % 5),
	pages: 40,
	good: 20,
	decent: 15,
	bad: 5,
	failing: ['title'],
	...over,
});
