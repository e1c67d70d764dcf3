import type { IDataObject } from 'n8n-workflow';

import { classify, type ResultClass } from './score';

/*
 * What changed between two analyses of one report: the `changes` object of every re-run (Create or
 * Re-Run, Update with Re-Run Analysis) and of the trigger's Score Changed events.
 */

export interface CheckChange {
	check: string;
	importance: string;
}

export interface ReportChanges {
	/** The report as it was before: its score (`result`), class and analysis date. */
	previous: { result: number | null; class: ResultClass | null; generated_at: string | null };
	/** New score minus previous score; null when either is unknown. */
	scoreDelta: number | null;
	/** Checks that passed before and fail now, most important first. */
	failed: CheckChange[];
	/** Checks that failed before and pass now, most important first. */
	fixed: CheckChange[];
}

const IMPORTANCE_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };

/** high before medium before low, then anything else: how checks are listed everywhere. */
export function importanceRank(importance: string): number {
	return IMPORTANCE_ORDER[importance] ?? 3;
}

/** The pass/fail state of each check of a report's `results` (checks without a boolean `passed` left out). */
export function checkStates(results: unknown): Map<string, { passed: boolean; importance: string }> {
	const states = new Map<string, { passed: boolean; importance: string }>();
	if (!results || typeof results !== 'object' || Array.isArray(results)) return states;
	for (const [name, check] of Object.entries(results as Record<string, unknown>)) {
		if (!check || typeof check !== 'object') continue;
		const { passed, importance } = check as IDataObject;
		if (typeof passed !== 'boolean') continue;
		states.set(name, { passed, importance: typeof importance === 'string' ? importance : 'unknown' });
	}
	return states;
}

const byImportance = (a: CheckChange, b: CheckChange) =>
	importanceRank(a.importance) - importanceRank(b.importance) || a.check.localeCompare(b.check);

/**
 * The changes from `before` to `after` (two records of one report, as phpRank answers them). A
 * previous report without results (bad data) gives empty lists, never an error.
 */
export function changesBetween(
	before: { result?: unknown; results?: unknown; generated_at?: unknown },
	after: { result?: unknown; results?: unknown },
): ReportChanges {
	const previous = classify(before.result);
	const current = classify(after.result);
	const was = checkStates(before.results);
	const now = checkStates(after.results);
	const failed: CheckChange[] = [];
	const fixed: CheckChange[] = [];
	for (const [check, state] of now) {
		const old = was.get(check);
		if (!old || old.passed === state.passed) continue;
		(state.passed ? fixed : failed).push({ check, importance: state.importance });
	}
	return {
		previous: {
			result: previous.score,
			class: previous.result_class,
			generated_at: typeof before.generated_at === 'string' ? before.generated_at : null,
		},
		scoreDelta: previous.score !== null && current.score !== null ? round(current.score - previous.score) : null,
		failed: failed.sort(byImportance),
		fixed: fixed.sort(byImportance),
	};
}

function round(value: number): number {
	return Math.round(value * 10) / 10;
}

/** `title (high), load_time (medium)`. */
export function checkList(checks: CheckChange[]): string {
	return checks.map(({ check, importance }) => `${check} (${importance})`).join(', ');
}

/**
 * The changes in words an agent can read aloud: `score 72 → 61; newly failed: title (high),
 * load_time (medium); fixed: favicon (low)`.
 */
export function changesText(changes: ReportChanges, score: number | null): string {
	const parts = [`score ${changes.previous.result ?? 'unknown'} → ${score ?? 'unknown'}`];
	if (changes.failed.length) parts.push(`newly failed: ${checkList(changes.failed)}`);
	if (changes.fixed.length) parts.push(`fixed: ${checkList(changes.fixed)}`);
	if (!changes.failed.length && !changes.fixed.length) parts.push('no check changed');
	return parts.join('; ');
}
