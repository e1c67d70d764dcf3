/*
 * Every number option of both nodes: its label, bounds and default, once. Descriptions show the
 * default from here; `boundedNumber` is the one check of such a value, for either node.
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
} as const satisfies Record<string, Bound>;

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
