import type { INodeProperties } from 'n8n-workflow';

import { WAIT_OUT_OUTAGES } from './api';

/*
 * Every number option of both nodes: its label, bounds and default, once. `boundedField` is the one
 * builder of such a field (Limit aside: n8n's lint wants its default as a literal) and
 * `readBounded` the one reader of its value, for either node; `boundedNumber` the check beneath.
 */

export interface Bound {
	label: string;
	low: number;
	high: number;
	default: number;
}

export const BOUNDS = {
	minChange: { label: 'Minimum Change', low: 0, high: 100, default: 5 },
	belowScore: { label: 'Below Score', low: 0, high: 100, default: 0 },
	worstPages: { label: 'Worst Pages', low: 1, high: 100, default: 5 },
	dropPoints: { label: 'Drop Points', low: 0, high: 100, default: 5 },
	reuseRecentAnalysis: { label: 'Reuse Recent Analysis', low: 0, high: 8760, default: 0 },
	minScore: { label: 'Minimum Score', low: 0, high: 100, default: 0 },
	maxScore: { label: 'Maximum Score', low: 0, high: 100, default: 100 },
	limit: { label: 'Limit', low: 1, high: Number.MAX_SAFE_INTEGER, default: 50 },
	historyLength: { label: 'History Length', low: 1, high: 104, default: 12 },
	staleAfter: { label: 'Stale After', low: 1, high: 365, default: 8 },
	auditedWithin: { label: 'Audited Within (Days)', low: 1, high: 365, default: 7 },
	minAverageScore: { label: 'Minimum Average Score', low: 0, high: 100, default: 70 },
	minHealthScore: { label: 'Minimum Health Score', low: 0, high: 100, default: 80 },
	maxBadShare: { label: 'Maximum Bad Pages (%)', low: 0, high: 100, default: 10 },
	maxBadPages: { label: 'Maximum Bad Pages', low: 0, high: 1_000_000, default: 0 },
	requiredCheckShare: { label: 'Required Check Share', low: 0, high: 100, default: 100 },
	// Compare With Competitors: its own reuse and tie band. 23 hours, a day less an hour's slack: a daily
	// schedule analyses afresh each day however late it fires, a second comparison within the day reuses.
	reuseHours: { label: 'Reuse Recent Analysis (Hours)', low: 0, high: 8760, default: 23 },
	tieWithin: { label: 'Tie Within (Points)', low: 0, high: 100, default: 3 },
	// One Item per Finding Change: the flood guard, and reminders (0: none).
	maxNewTickets: { label: 'Max New Tickets', low: 1, high: 1000, default: 10 },
	remindAfterDays: { label: 'Remind After (Days)', low: 0, high: 3650, default: 0 },
	// Request Options: how long an item retries while phpRank is down (0: fails at once).
	waitOutOutages: WAIT_OUT_OUTAGES,
} as const satisfies Record<string, Bound>;

/** A number option's parameter name: each is named as its entry of BOUNDS. */
export type BoundName = keyof typeof BOUNDS;

/** A number field: its label, name, bounds and default from BOUNDS, with its description. */
export function boundedField(
	name: BoundName,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	const { label, low, high, default: initial } = BOUNDS[name];
	return {
		displayName: label,
		name,
		type: 'number',
		typeOptions: { minValue: low, maxValue: high },
		default: initial,
		description,
		...extra,
	};
}

/** How a value reads in an error: `"abc"`, `nothing`, `a list`, `an object`. */
export function describeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `"${String(value)}"`;
}

/** The number a parameter holds, or what is wrong with it (the caller raises its node's error). */
export function boundedNumber(
	value: unknown,
	{ label, low, high }: Bound,
): { value: number } | { problem: string } {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number === 'number' && Number.isFinite(number) && number >= low && number <= high)
		return { value: number };
	return {
		problem: `${label} must be a number from ${low} to ${high}, not ${describeValue(value)}`,
	};
}

/**
 * A number option's value (nothing set: its default); a value outside its bounds goes to `raise`,
 * which throws the node's own error with what to enter. `under`: the collection the option is in
 * (its value read from there), named in the problem: `Options → Drop Points must be …`.
 */
export function readBounded(
	name: BoundName,
	value: unknown,
	raise: (problem: string) => never,
	under?: string,
): number {
	const bound = BOUNDS[name];
	const given = value === undefined || value === null ? bound.default : value;
	const label = under === undefined ? bound.label : `${under} → ${bound.label}`;
	const checked = boundedNumber(given, { ...bound, label });
	return 'value' in checked ? checked.value : raise(checked.problem);
}
