import type { IDataObject } from 'n8n-workflow';

import type { ResultClass } from '../PhpRank/api';
import { classify, classRank } from '../PhpRank/report';
import type { PagingCursor } from '../PhpRank/transport/paging';

/**
 * What the trigger keeps in the workflow's static data between polls. n8n stores it as JSON with
 * the workflow (or, with durable poll cursors, commits it together with the execution it started).
 */
export interface TriggerState {
	version: 1;
	/** The event and the filters that decide which reports are listed; when they change, the trigger starts over. */
	watch: string;
	/** New Report: the highest report ID seen. IDs only grow, so every report above it is new. */
	lastId?: number;
	/** Report Result Changed: the `result` each watched report had when it was last read, by report ID. */
	results?: Record<string, unknown>;
	/**
	 * Report Result Changed with Only When Worse: the class a report was in before a drop the
	 * trigger fired for, by report ID, until it is back in that class or better (left out when none).
	 */
	dropped?: Record<string, ResultClass>;
	/**
	 * Score Changed: the check names the baselines' bitmasks index, in the order first seen (only
	 * ever appended to).
	 */
	checks?: string[];
	/** Score Changed: each watched report's baseline as a short string (see baseline.ts), by report ID. */
	baselines?: Record<string, string>;
	/** A read of the list spread over several polls: where the next poll continues it. */
	scan?: {
		cursor: PagingCursor;
		/** New Report: the highest report ID the scan returned; it becomes `lastId` when the scan ends. */
		top?: number;
	};
}

/** A copy of the state of the current watch, or undefined on the first poll (or after the filters changed). */
export function readState(staticData: IDataObject, watch: string): TriggerState | undefined {
	return staticData.version === 1 && staticData.watch === watch
		? (JSON.parse(JSON.stringify(staticData)) as TriggerState)
		: undefined;
}

/** Replaces the stored state; an unchanged state is not written, so n8n has nothing to save. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	if (JSON.stringify(staticData) === JSON.stringify(state)) return;
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, state);
}

const byId = (a: IDataObject, b: IDataObject) => Number(a.id) - Number(b.id);

/** Reports oldest first, and the highest ID among them and `lastId`. */
export function newReports(
	records: IDataObject[],
	lastId: number,
): { fresh: IDataObject[]; lastId: number } {
	const fresh = [...records].sort(byId);
	return { fresh, lastId: fresh.reduce((max, record) => Math.max(max, Number(record.id)), lastId) };
}

export interface ChangeRule {
	/** Only changes into this class. */
	to?: ResultClass;
	/** Only changes to a worse class. */
	onlyWorse: boolean;
	/** With onlyWorse: fire "recovered" when a report that dropped is back in the class it left, or better. */
	notifyRecovery: boolean;
}

export type ResultChangeReason = 'changed' | 'recovered';

export interface ResultChange {
	record: IDataObject;
	/** The report's `result` at the previous poll. */
	previous: unknown;
	reason: ResultChangeReason;
}

/** The IDs a scan read completely: every report among them that existed while it ran was returned. */
export interface Covered {
	from: number;
	below: number;
}

/**
 * What the change events remember of the reports a scan did not cover. A remembered report in
 * `covered` that the scan did not return was deleted: it is left out, so it is forgotten.
 */
export function keepUncovered<T>(
	remembered: Record<string, T>,
	covered: Covered,
): Record<string, T> {
	const kept: Record<string, T> = {};
	for (const [id, value] of Object.entries(remembered)) {
		if (Number(id) < covered.from || Number(id) >= covered.below) kept[id] = value;
	}
	return kept;
}

/** Reports oldest first (events fire in that order). */
export const oldestFirst = (records: IDataObject[]): IDataObject[] => [...records].sort(byId);

/**
 * Report Result Changed: the reports whose class differs from when they were last read, oldest
 * first, and the results to remember. A report seen for the first time is remembered without
 * firing; a deleted one is forgotten (`keepUncovered`). With Only When Worse, a drop that fires
 * is remembered in `dropped` (the class left, the first drop's when several follow) until the
 * report is back in that class or better: with Notify on Recovery that reading fires once as
 * "recovered", whatever the Result filter (it answers an event).
 */
export function resultChanges(
	records: IDataObject[],
	previous: { results?: Record<string, unknown>; dropped?: Record<string, ResultClass> },
	rule: ChangeRule,
	covered: Covered,
): {
	changes: ResultChange[];
	results: Record<string, unknown>;
	dropped: Record<string, ResultClass>;
} {
	const before = previous.results ?? {};
	const results = keepUncovered(before, covered);
	const dropped = keepUncovered(previous.dropped ?? {}, covered);
	const changes: ResultChange[] = [];
	for (const record of oldestFirst(records)) {
		const id = String(record.id);
		results[id] = record.result ?? null;
		const left = previous.dropped?.[id];
		if (left) dropped[id] = left;
		if (!(id in before)) continue;
		const was = classify(before[id]).result_class;
		const now = classify(record.result).result_class;
		if (!was || !now || was === now) continue;
		if (left && classRank(now) >= classRank(left)) {
			delete dropped[id];
			if (rule.onlyWorse && rule.notifyRecovery) {
				changes.push({ record, previous: before[id], reason: 'recovered' });
				continue;
			}
		}
		if (rule.to && now !== rule.to) continue;
		const worse = classRank(now) < classRank(was);
		if (rule.onlyWorse && !worse) continue;
		changes.push({ record, previous: before[id], reason: 'changed' });
		if (rule.onlyWorse && !left) dropped[id] = was;
	}
	return { changes, results, dropped };
}
