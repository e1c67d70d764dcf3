import type { IDataObject } from 'n8n-workflow';

import type { ResultClass } from '../../PhpRank/api';
import { shapeReport } from '../../PhpRank/engine/reportItem';
import { classify, classRank } from '../../PhpRank/report';
import {
	type Covered,
	keepUncovered,
	oldestFirst,
	readByRounds,
	type RoundMemory,
	decodeRound,
} from '../reports';
import type { Found, Settings, TriggerEvent } from './event';
import { costNotice, notifyRecoveryField, onlyWorseField, outputField } from './eventFields';

interface Parameters {
	onlyWorse: boolean;
	/** With onlyWorse: fire "recovered" when a report that dropped is back in the class it left, or better. */
	notifyRecovery: boolean;
}

interface Memory extends RoundMemory {
	/** The `result` each watched report had when it was last read, by report ID. */
	results: Record<string, unknown>;
	/** With Only When Worse: the class a report left in a drop that fired, until it is back there. */
	dropped?: Record<string, ResultClass>;
}

export type ResultChangeReason = 'changed' | 'recovered';

interface Detail {
	/** The report's `result` at the previous poll. */
	previous: unknown;
	reason: ResultChangeReason;
}

/**
 * The reports whose class differs from when they were last read, oldest first (ARCHITECTURE.md,
 * "Report Result Changed"), and what to remember.
 */
export function resultChanges(
	records: IDataObject[],
	previous: Partial<Memory>,
	rule: Settings<Parameters>,
	covered: Covered,
): { found: Array<Found<Detail>>; memory: Memory } {
	const before = previous.results ?? {};
	const results = keepUncovered(before, covered);
	const dropped = keepUncovered(previous.dropped ?? {}, covered);
	const found: Array<Found<Detail>> = [];
	const fire = (record: IDataObject, reason: ResultChangeReason) =>
		found.push({ record, detail: { previous: before[String(record.id)], reason } });
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
				fire(record, 'recovered');
				continue;
			}
		}
		if (rule.result && now !== rule.result) continue;
		if (rule.onlyWorse && classRank(now) >= classRank(was)) continue;
		fire(record, 'changed');
		if (rule.onlyWorse && !left) dropped[id] = was;
	}
	return { found, memory: { results, ...(Object.keys(dropped).length > 0 ? { dropped } : {}) } };
}

const SAMPLE_SCORE: Record<ResultClass, number> = { good: 85, decent: 65, bad: 35 };
/** A class the sample's report could have come from (a better one where there is one). */
const SAMPLE_PREVIOUS_CLASS: Record<ResultClass, ResultClass> = {
	bad: 'decent',
	decent: 'good',
	good: 'decent',
};

export const resultChanged: TriggerEvent<Parameters, Memory, Detail> = {
	value: 'resultChanged',
	name: 'Report Result Changed',
	description:
		'A report’s result moved to another class (good, decent, bad) since the last poll, e.g. after it was re-run',
	subtitle: 'Report result changed',
	fields: [
		onlyWorseField,
		notifyRecoveryField('a report that dropped is back in the class it left or a better one', {
			onlyWorse: [true],
		}),
		outputField,
		costNotice,
	],
	resultNote: 'For Report Result Changed: only changes into this class.',
	listByResult: false,
	parameters(ctx) {
		const onlyWorse = ctx.getNodeParameter('onlyWorse', false) as boolean;
		return {
			onlyWorse,
			notifyRecovery: onlyWorse && (ctx.getNodeParameter('notifyRecovery', false) as boolean),
		};
	},
	decode: (stored) => ({
		results: (stored.results as Memory['results']) ?? {},
		...(stored.dropped ? { dropped: stored.dropped as Memory['dropped'] } : {}),
		...decodeRound(stored),
	}),
	encode: (memory) => ({ ...memory }),

	/** A round over every watched report; the first only notes where each report stands. */
	read: readByRounds(resultChanges),

	item: (settings, { record, detail }) => {
		const before = classify(detail.previous);
		return {
			reason: detail.reason,
			...shapeReport(record, settings),
			previous_score: before.score,
			previous_result_class: before.result_class,
		};
	},
	siteLine: (item) =>
		`${String(item.url)}: ${String(item.previous_result_class)} ${String(item.previous_score)} → ${String(item.result_class)} ${String(item.score)} (${String(item.reason)})`,
	reasons: ({ notifyRecovery }) => (notifyRecovery ? ['changed', 'recovered'] : ['changed']),
	sample: (_settings, record) => {
		const now = classify(record.result).result_class ?? 'decent';
		return {
			detail: { previous: SAMPLE_SCORE[SAMPLE_PREVIOUS_CLASS[now]], reason: 'changed' },
			madeUp: 'the previous values are',
		};
	},
};
