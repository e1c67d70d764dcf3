// What a report is, read the same way everywhere: its URL's identity, its score and class (by
// api.ts's table), its checks by importance. Pure: imports nothing but api.ts.
import type { IDataObject } from 'n8n-workflow';

import { RESULT_CLASS_RANGES, RESULT_CLASSES, type ResultClass } from './api';
export type { ResultClass };

/** How phpRank stores a URL: no scheme, no leading `www.`; compared without a trailing slash, host in lower case. */
export function sameUrlKey(url: string): string {
	const bare = url
		.trim()
		.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
		.replace(/^www\./i, '')
		.replace(/[?#]$/, '')
		.replace(/\/+$/, '');
	const hostEnd = bare.search(/[/?#]/);
	return hostEnd === -1
		? bare.toLowerCase()
		: bare.slice(0, hostEnd).toLowerCase() + bare.slice(hostEnd);
}

/** phpRank's project of a URL: its host without `www.` (and without a port). */
export function projectOfUrl(url: string): string {
	const key = sameUrlKey(url);
	const host = key.split(/[/?#]/)[0];
	return host.replace(/:\d+$/, '');
}

/** A score's class; a record known only by its class (instances that follow the seed spec) keeps it. */
export function classify(result: unknown): {
	score: number | null;
	result_class: ResultClass | null;
} {
	if (typeof result === 'string') {
		const named = RESULT_CLASSES.find(({ value }) => value === result.toLowerCase());
		if (named) return { score: null, result_class: named.value };
	}
	const score = typeof result === 'number' ? result : Number.parseFloat(String(result));
	if (result === null || result === '' || !Number.isFinite(score))
		return { score: null, result_class: null };
	const found = RESULT_CLASSES.find(({ from, fromIncluded }) =>
		fromIncluded ? score >= from : score > from,
	);
	return { score, result_class: (found ?? RESULT_CLASSES[RESULT_CLASSES.length - 1]).value };
}

/** Better classes rank higher: bad 0, decent 1, good 2. */
export function classRank(resultClass: ResultClass): number {
	return RESULT_CLASSES.length - 1 - RESULT_CLASSES.findIndex(({ value }) => value === resultClass);
}

export interface ScoreRange {
	min: number;
	max: number;
}

/** Whether a shaped report lies in the range; one known only by its class, when the range holds that whole class. */
export function inScoreRange(range: ScoreRange, record: IDataObject): boolean {
	if (typeof record.score === 'number')
		return record.score >= range.min && record.score <= range.max;
	const known = RESULT_CLASS_RANGES[record.result_class as ResultClass];
	return known !== undefined && range.min <= known.low && range.max >= known.high;
}

export interface CheckChange {
	check: string;
	importance: string;
}

export interface CheckState {
	passed: boolean;
	importance: string;
	/** phpRank's record of the check (value, errors). */
	detail: IDataObject;
}

const IMPORTANCE_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };

/** high before medium before low, then anything else: how checks are listed everywhere. */
export function importanceRank(importance: string): number {
	return IMPORTANCE_ORDER[importance] ?? 3;
}

/** A report's checks by name; ones without a boolean `passed` left out. */
export function checkStates(results: unknown): Map<string, CheckState> {
	const states = new Map<string, CheckState>();
	if (!results || typeof results !== 'object' || Array.isArray(results)) return states;
	for (const [name, check] of Object.entries(results as Record<string, unknown>)) {
		if (!check || typeof check !== 'object') continue;
		const { passed, importance } = check as IDataObject;
		if (typeof passed !== 'boolean') continue;
		states.set(name, {
			passed,
			importance: typeof importance === 'string' ? importance : 'unknown',
			detail: check as IDataObject,
		});
	}
	return states;
}

export interface ReportChanges {
	/** The report as it was before: its score (`result`), class and analysis date. */
	previous: { result: number | null; class: ResultClass | null; generated_at: string | null };
	scoreDelta: number | null;
	/** Checks that passed before and fail now, most important first. */
	failed: CheckChange[];
	/** Checks that failed before and pass now, most important first. */
	fixed: CheckChange[];
}

// Built without `checkStates`' map: every Simplify row reads it, and Return All's peak memory
// shows each object.
export function failedChecks(results: unknown): Array<CheckChange & { detail: IDataObject }> {
	const failed: Array<CheckChange & { detail: IDataObject }> = [];
	if (!results || typeof results !== 'object' || Array.isArray(results)) return failed;
	for (const [check, detail] of Object.entries(results as Record<string, unknown>)) {
		if (!detail || typeof detail !== 'object') continue;
		const { passed, importance } = detail as IDataObject;
		if (passed !== false) continue;
		const named = typeof importance === 'string' ? importance : 'unknown';
		failed.push({ check, importance: named, detail: detail as IDataObject });
	}
	return failed.sort((a, b) => importanceRank(a.importance) - importanceRank(b.importance));
}
