import type { IDataObject } from 'n8n-workflow';

import { classify, type ResultClass } from '../PhpRank/helpers/output';

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
	/** Report Result Changed: the `result` each watched report had at the last poll, by report ID. */
	results?: Record<string, unknown>;
}

/** The state of the current watch, or undefined on the first poll (or after the filters changed). */
export function readState(staticData: IDataObject, watch: string): TriggerState | undefined {
	return staticData.version === 1 && staticData.watch === watch ? (staticData as unknown as TriggerState) : undefined;
}

/** Replaces the stored state; an unchanged state is not written, so n8n has nothing to save. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	if (JSON.stringify(staticData) === JSON.stringify(state)) return;
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, state);
}

const byId = (a: IDataObject, b: IDataObject) => Number(a.id) - Number(b.id);

/** New Report: the reports above the last ID seen, each once, oldest first, and the new highest ID. */
export function newReports(records: IDataObject[], lastId: number): { fresh: IDataObject[]; lastId: number } {
	const unique = new Map(records.map((record) => [Number(record.id), record]));
	const fresh = [...unique.values()].filter((record) => Number(record.id) > lastId).sort(byId);
	return { fresh, lastId: fresh.reduce((max, record) => Math.max(max, Number(record.id)), lastId) };
}

const CLASS_RANK: Record<ResultClass, number> = { bad: 0, decent: 1, good: 2 };

export interface ChangeRule {
	/** Only changes into this class. */
	to?: ResultClass;
	/** Only changes to a worse class. */
	onlyWorse: boolean;
}

export interface ResultChange {
	record: IDataObject;
	/** The report's `result` at the previous poll. */
	previous: unknown;
}

/**
 * Report Result Changed: the reports whose class differs from the last poll's, oldest first, and
 * the results to remember. A report seen for the first time is remembered without firing. A report
 * that was not read is forgotten (deleted) only when `complete`; otherwise it may just have been
 * skipped by a list that moved while it was paged, and its last result is kept.
 */
export function resultChanges(
	records: IDataObject[],
	previous: Record<string, unknown>,
	rule: ChangeRule,
	complete: boolean,
): { changes: ResultChange[]; results: Record<string, unknown> } {
	const results: Record<string, unknown> = complete ? {} : { ...previous };
	const changes: ResultChange[] = [];
	for (const record of [...records].sort(byId)) {
		const id = String(record.id);
		results[id] = record.result ?? null;
		if (!(id in previous)) continue;
		const before = classify(previous[id]).result_class;
		const after = classify(record.result).result_class;
		if (!before || !after || before === after) continue;
		if (rule.to && after !== rule.to) continue;
		if (rule.onlyWorse && CLASS_RANK[after] > CLASS_RANK[before]) continue;
		changes.push({ record, previous: previous[id] });
	}
	return { changes, results };
}
