import type { IDataObject, IExecutePaginationFunctions, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { describeValue, fail } from './input';
import { classify, type ResultClass } from './output';

/*
 * Report → Get Many's Minimum Score / Maximum Score: phpRank filters by class only (`result`), so
 * the node sends the class the range lies in, when it lies in one, and keeps the reports of the
 * range itself as the pages arrive (operations/list.ts hands `scoreKeep` to the paging rule, so a
 * Limit counts matching reports).
 */

export interface ScoreRange {
	min: number;
	max: number;
}

const LOWEST = 0;
const HIGHEST = 100;

/** phpRank's classes as whole scores (its scores are whole numbers), and as the filter's help says them. */
const CLASSES: Record<ResultClass, { label: string; low: number; high: number; text: string }> = {
	bad: { label: 'Bad', low: LOWEST, high: 48, text: 'below 49' },
	decent: { label: 'Decent', low: 49, high: 79, text: '49 to 79' },
	good: { label: 'Good', low: 80, high: HIGHEST, text: 'above 79' },
};

function scoreBound(value: unknown, fallback: number): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return fallback;
	const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
	return Number.isFinite(number) && number >= LOWEST && number <= HIGHEST ? number : undefined;
}

/** The range the Filters set, or undefined when they leave every score in (0 to 100, the defaults). */
export function scoreRange(filters: IDataObject): ScoreRange | undefined {
	const min = scoreBound(filters.minScore, LOWEST);
	const max = scoreBound(filters.maxScore, HIGHEST);
	if (min === undefined || max === undefined || (min <= LOWEST && max >= HIGHEST)) return undefined;
	return { min, max };
}

/** Whether a shaped report lies in the range; one known only by its class, when the range holds that whole class. */
export function inScoreRange(range: ScoreRange, record: IDataObject): boolean {
	if (typeof record.score === 'number') return record.score >= range.min && record.score <= range.max;
	const known = CLASSES[record.result_class as ResultClass];
	return known !== undefined && range.min <= known.low && range.max >= known.high;
}

/** What an added Result filter leaves of the range: nothing is an error naming the field to change. */
function conflict(range: ScoreRange, result: ResultClass): { message: string; field: string } | undefined {
	const { label, text } = CLASSES[result];
	const allows = `what Result: ${label} allows (${text})`;
	const above = { message: `Minimum Score ${range.min} is above ${allows}`, field: 'Minimum Score' };
	const below = { message: `Maximum Score ${range.max} is below ${allows}`, field: 'Maximum Score' };
	if (result === 'bad') return range.min >= 49 ? above : undefined;
	if (result === 'good') return range.max <= 79 ? below : undefined;
	return range.min > 79 ? above : range.max < 49 ? below : undefined;
}

/**
 * Report → Get Many: checks Minimum Score and Maximum Score before anything is sent, and sends
 * the class the range lies in (`result`) when the user chose none.
 */
export async function checkScoreRange(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	for (const [name, label, fallback] of [['minScore', 'Minimum Score', LOWEST], ['maxScore', 'Maximum Score', HIGHEST]] as const) {
		if (scoreBound(filters[name], fallback) === undefined) {
			fail(
				this,
				`${label} must be a number from ${LOWEST} to ${HIGHEST}, not ${describeValue(filters[name])}`,
				`Set ${label} under Filters to a score from ${LOWEST} to ${HIGHEST}, or remove it.`,
			);
		}
	}
	const range = scoreRange(filters);
	if (range === undefined) return requestOptions;
	if (range.min > range.max) {
		fail(
			this,
			`Minimum Score ${range.min} is above Maximum Score ${range.max}`,
			'Set Minimum Score to at most Maximum Score under Filters: both are included in the range.',
		);
	}
	const qs = { ...(requestOptions.qs as IDataObject) };
	const chosen = typeof qs.result === 'string' ? qs.result.toLowerCase() : '';
	if (chosen in CLASSES) {
		const problem = conflict(range, chosen as ResultClass);
		if (problem) {
			fail(this, problem.message, `No report can match both. Change ${problem.field}, or set Result to Any.`);
		}
		return requestOptions;
	}
	const lowest = classify(range.min).result_class;
	if (qs.result === undefined && lowest !== null && lowest === classify(range.max).result_class) qs.result = lowest;
	return { ...requestOptions, qs };
}

/** The list step's filter (operations/list.ts): the reports of the range, once checkScoreRange let it through. */
export function scoreKeep(ctx: IExecutePaginationFunctions): ((record: IDataObject) => boolean) | undefined {
	const range = scoreRange(ctx.getNodeParameter('filters', {}) as IDataObject);
	return range && ((record) => inScoreRange(range, record));
}
