import {
	type CheckChange,
	checkStates,
	classify,
	importanceRank,
	type ReportChanges,
} from '../report';

/*
 * What changed between two analyses of one report: the `changes` object of every re-run (Create or
 * Re-Run, Update with Re-Run Analysis) and of the trigger's Score Changed events.
 */

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
		scoreDelta:
			previous.score !== null && current.score !== null
				? round(current.score - previous.score)
				: null,
		failed: failed.sort(byImportance),
		fixed: fixed.sort(byImportance),
	};
}

function round(value: number): number {
	return Math.round(value * 10) / 10;
}
