import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { RESULT_CLASS_RANGES, RESULT_CLASSES, type ResultClass } from '../../api';
import { BOUNDS } from '../../bounds';
import { classify, inScoreRange, type ScoreRange } from '../../report';
import { boundedOption, fail } from '../../input';

/*
 * Report → Get Many's Minimum Score / Maximum Score: phpRank filters by class only (`result`), so
 * the node sends the class the range lies in, when it lies in one, and keeps the reports of the
 * range itself as the pages arrive (`scoreKeep`, the list reader's `keep`: a Limit counts matches).
 */

const { minScore: LOWEST, maxScore: HIGHEST } = BOUNDS;

/** A bound as given (nothing: its default); one that is not a score stops the item, naming the field. */
function scoreBound(
	ctx: IExecuteSingleFunctions,
	filters: IDataObject,
	name: 'minScore' | 'maxScore',
): number {
	const { label, low, high } = BOUNDS[name];
	const value = filters[name];
	return boundedOption(
		ctx,
		name,
		typeof value === 'string' && value.trim() === '' ? undefined : value,
		`Set ${label} under Filters to a score from ${low} to ${high}, or remove it.`,
	);
}

/** The range the Filters set, or undefined when they leave every score in (the defaults). */
function scoreRange(ctx: IExecuteSingleFunctions, filters: IDataObject): ScoreRange | undefined {
	const min = scoreBound(ctx, filters, 'minScore');
	const max = scoreBound(ctx, filters, 'maxScore');
	if (min <= LOWEST.low && max >= HIGHEST.high) return undefined;
	return { min, max };
}

/** What an added Result filter leaves of the range: nothing is an error naming the field to change. */
function conflict(
	range: ScoreRange,
	result: ResultClass,
): { message: string; field: string } | undefined {
	const { label, text } = RESULT_CLASS_RANGES[result];
	const allows = `what Result: ${label} allows (${text})`;
	const index = RESULT_CLASSES.findIndex(({ value }) => value === result);
	const { from, fromIncluded } = RESULT_CLASSES[index];
	const better = RESULT_CLASSES[index - 1];
	if (better && (better.fromIncluded ? range.min >= better.from : range.min > better.from)) {
		return { message: `Minimum Score ${range.min} is above ${allows}`, field: 'Minimum Score' };
	}
	if (index < RESULT_CLASSES.length - 1 && (fromIncluded ? range.max < from : range.max <= from)) {
		return { message: `Maximum Score ${range.max} is below ${allows}`, field: 'Maximum Score' };
	}
	return undefined;
}

/**
 * Report → Get Many: checks Minimum Score and Maximum Score before anything is sent, and sends
 * the class the range lies in (`result`) when the user chose none.
 */
export async function checkScoreRange(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const range = scoreRange(this, this.getNodeParameter('filters', {}) as IDataObject);
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
	if (chosen in RESULT_CLASS_RANGES) {
		const problem = conflict(range, chosen as ResultClass);
		if (problem) {
			fail(
				this,
				problem.message,
				`No report can match both. Change ${problem.field}, or set Result to Any.`,
			);
		}
		return requestOptions;
	}
	const lowest = classify(range.min).result_class;
	if (qs.result === undefined && lowest !== null && lowest === classify(range.max).result_class)
		qs.result = lowest;
	return { ...requestOptions, qs };
}

/** Get Many's filter of the list (the list reader's `keep`): the reports of the range, once checkScoreRange let it through. */
export function scoreKeep(
	ctx: IExecutePaginationFunctions,
): ((record: IDataObject) => boolean) | undefined {
	const range = scoreRange(ctx, ctx.getNodeParameter('filters', {}) as IDataObject);
	return range && ((record) => inScoreRange(range, record));
}
