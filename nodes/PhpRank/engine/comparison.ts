import type { IDataObject } from 'n8n-workflow';

import { checkStates, classify, importanceRank, type ResultClass } from '../report';

/*
 * Compare With Competitors: your page beside each competitor's, from their reports (pure). A gap is
 * their score less yours; a competitor is `ahead` (gap above Tie Within), `behind` (gap below minus
 * Tie Within) or in a `tie` (the gap's size at most Tie Within: with 3, exactly 3 points is a tie and
 * 3.1 is not). Gaps are rounded to hundredths first, so 73.1 − 70 is 3.1, not 3.0999….
 */

/** How many competitors one comparison takes. */
export const MAX_COMPETITORS = 10;

export type Verdict = 'ahead' | 'behind' | 'tie';

/** One URL's report as the step got it: analysed, re-run or reused. */
export interface Analysed {
	url: string;
	record: IDataObject;
	action: string;
}

export interface Contender {
	url: string;
	score: number | null;
	result_class: ResultClass | null;
	link: string;
	/** What was done for it: `created`, `rerun` or `reused` (analysed within Reuse Recent Analysis). */
	action: string;
	analysed_at: string | null;
}

export interface Competitor extends Contender {
	/** Their score less yours; null when either has none. */
	gap: number | null;
	verdict: Verdict | null;
	/** History Store → Data Table: the gap at the previous comparison, and the change since. */
	previous_gap?: number | null;
	gap_change?: number | null;
}

/** A check of the matrix: whether you pass it (null: not in your report) and which competitors do. */
export interface CheckRow {
	check: string;
	importance: string;
	you_pass: boolean | null;
	passed_by: string[];
	failed_by: string[];
}

/** A check one side passes and the other fails, with the competitors on the other side. */
export interface Lead {
	check: string;
	importance: string;
	competitors: string[];
	/** With Search Console Data: your page's clicks and impressions (you fail the check there). */
	clicks_affected?: number;
	impressions_affected?: number;
}

export interface Comparison {
	you: Contender;
	competitors: Competitor[];
	checks: CheckRow[];
	/** Checks at least one competitor passes and you fail, high first, then the most competitors. */
	they_lead_on: Lead[];
	/** Checks you pass and at least one competitor fails, in the same order. */
	you_lead_on: Lead[];
	best_competitor: string | null;
	/** The best competitor's score less yours (positive: they score higher). */
	score_gap: number | null;
	/** Competitors phpRank could not analyse, with why: never counted as a win or a loss. */
	not_comparable: Array<{ url: string; reason: string }>;
	tie_within: number;
	/** History Store → Data Table: competitors now ahead that were not at the previous comparison (`overtakenBy`). */
	overtaken_by?: string[];
	/** With Search Console Data: your page's clicks and impressions, the data's period (null: not given). */
	clicks_affected?: number;
	impressions_affected?: number;
	traffic_period?: string | null;
	/** Whether the data has a row of your page (false: its clicks count 0). */
	traffic_data?: boolean;
}

/** Their score less yours, in hundredths; null when either is unknown. */
export function gapOf(theirs: number | null, yours: number | null): number | null {
	if (theirs === null || yours === null) return null;
	return Math.round((theirs - yours) * 100) / 100;
}

/** Where a competitor stands: a gap whose size is at most `tieWithin` is a tie. */
export function verdictOf(gap: number | null, tieWithin: number): Verdict | null {
	if (gap === null) return null;
	if (Math.abs(gap) <= tieWithin) return 'tie';
	return gap > 0 ? 'ahead' : 'behind';
}

/**
 * Who overtook you since the previous comparison: every competitor ahead now (beyond Tie Within)
 * that was not ahead then, one new to the comparison (no gap then) included, since it is a rival
 * ahead of you you were not told of. None when your page has no comparison before (`comparedBefore`).
 */
export function overtakenBy(
	competitors: Competitor[],
	tieWithin: number,
	comparedBefore: boolean,
): string[] {
	if (!comparedBefore) return [];
	return competitors
		.filter(
			({ verdict, previous_gap }) =>
				verdict === 'ahead' && verdictOf(previous_gap ?? null, tieWithin) !== 'ahead',
		)
		.map(({ url }) => url);
}

function contender({ url, record, action }: Analysed, link: (id: unknown) => string): Contender {
	const { score, result_class } = classify(record.result);
	const at = record.generated_at;
	return {
		url,
		score,
		result_class,
		link: link(record.id),
		action,
		analysed_at: typeof at === 'string' ? at : null,
	};
}

/** Every check any site has, importance first (then as your report lists them), with who passes. */
function matrix(you: Analysed, competitors: Analysed[]): CheckRow[] {
	const mine = checkStates(you.record.results);
	const theirs = competitors.map(({ url, record }) => ({
		url,
		states: checkStates(record.results),
	}));
	const names = [
		...new Set([...mine.keys(), ...theirs.flatMap(({ states }) => [...states.keys()])]),
	];
	const rows = names.map((check) => {
		const importance =
			mine.get(check)?.importance ??
			theirs.find(({ states }) => states.has(check))!.states.get(check)!.importance;
		const on = (passed: boolean) =>
			theirs.filter(({ states }) => states.get(check)?.passed === passed).map(({ url }) => url);
		return {
			check,
			importance,
			you_pass: mine.get(check)?.passed ?? null,
			passed_by: on(true),
			failed_by: on(false),
		};
	});
	return rows.sort((a, b) => importanceRank(a.importance) - importanceRank(b.importance));
}

/** The checks one side leads on: most important first, then the most competitors, then by name. */
function leads(rows: CheckRow[], theyLead: boolean): Lead[] {
	return rows
		.filter((row) => row.you_pass === !theyLead)
		.map(({ check, importance, passed_by, failed_by }) => ({
			check,
			importance,
			competitors: theyLead ? passed_by : failed_by,
		}))
		.filter(({ competitors }) => competitors.length > 0)
		.sort(
			(a, b) =>
				importanceRank(a.importance) - importanceRank(b.importance) ||
				b.competitors.length - a.competitors.length ||
				a.check.localeCompare(b.check),
		);
}

/** Your page beside the competitors phpRank could analyse; `notComparable`: those it could not. */
export function compare(
	you: Analysed,
	competitors: Analysed[],
	notComparable: Array<{ url: string; reason: string }>,
	{ tieWithin, link }: { tieWithin: number; link: (id: unknown) => string },
): Comparison {
	const yours = contender(you, link);
	const theirs = competitors.map((analysed) => {
		const entry = contender(analysed, link);
		const gap = gapOf(entry.score, yours.score);
		return { ...entry, gap, verdict: verdictOf(gap, tieWithin) };
	});
	// The highest score; the first listed among equals.
	const best = theirs.reduce<Competitor | undefined>(
		(top, entry) =>
			entry.score !== null &&
			(top?.score === undefined || top.score === null || entry.score > top.score)
				? entry
				: top,
		undefined,
	);
	const checks = matrix(you, competitors);
	return {
		you: yours,
		competitors: theirs,
		checks,
		they_lead_on: leads(checks, true),
		you_lead_on: leads(checks, false),
		best_competitor: best?.url ?? null,
		score_gap: best ? best.gap : null,
		not_comparable: notComparable,
		tie_within: tieWithin,
	};
}
