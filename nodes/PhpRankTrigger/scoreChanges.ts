import type { IDataObject } from 'n8n-workflow';

import { changesBetween } from '../PhpRank/operations/changes';
import { classify, type ReportChanges, type ResultClass } from '../PhpRank/report';
import {
	type Below,
	baselineRecord,
	decodeBaseline,
	encodeBaseline,
	TREND_LENGTH,
	trendScore,
	withBelowAndTrend,
} from './baseline';
import { type Covered, keepUncovered, oldestFirst } from './state';

/*
 * Score Changed. Each watched report has a baseline: the reading the trigger last fired for, or
 * the first one it saw. A reading fires when
 * - "moved": its score is at least Minimum Change points away from the baseline's (so slow drifts
 *   add up and fire once they reach it); with Only When Worse only a drop counts, and a higher
 *   score becomes the baseline quietly (a later drop is measured from the higher score);
 * - "belowScore": its score is below Below Score and the report's last reading was not (a report
 *   first seen below does not fire; one that stays below fires once; it fires again only after a
 *   reading at or above);
 * - "recovered" (Notify on Recovery): it is at or above Below Score and the report's last reading
 *   was below after a Below Score event; once, whatever the Result filter (it answers an event).
 * The reason is the first that holds of belowScore, recovered, moved. The Result filter keeps
 * only readings now in that class; a reading it leaves out is no event, so the baseline stays.
 * Every event makes its reading the new baseline, and so does a reading back at or above Below
 * Score after readings below it: a Below Score event is measured from a reading at or above the
 * score, never from an older one below it.
 * The trend: each reading whose score differs from the last one seen adds its score (re-reading
 * the same analysis adds nothing); an event shows the last TREND_LENGTH.
 */

export interface ScoreRule {
	/** Points; 0: off. */
	minChange: number;
	/** Only drops fire as "moved". */
	onlyWorse: boolean;
	/** Score; 0: off. */
	belowScore: number;
	/** Fire "recovered" when a report that fired Below Score is back at or above it. */
	notifyRecovery: boolean;
	/** Only reports now in this class. */
	to?: ResultClass;
}

export type ScoreChangeReason = 'moved' | 'belowScore' | 'recovered';

export interface ScoreChange {
	record: IDataObject;
	reason: ScoreChangeReason;
	changes: ReportChanges;
	/** The last up to TREND_LENGTH scores seen, oldest first, this reading's last. */
	trend: number[];
}

export interface ScoreMemory {
	checks: string[];
	baselines: Record<string, string>;
}

/** The events among `records` (one scan), oldest first, and the baselines to remember. */
export function scoreChanges(
	records: IDataObject[],
	previous: Partial<ScoreMemory>,
	rule: ScoreRule,
	covered: Covered,
): { changes: ScoreChange[]; memory: ScoreMemory } {
	const checks = [...(previous.checks ?? [])];
	const remembered = previous.baselines ?? {};
	const baselines = keepUncovered(remembered, covered);
	const changes: ScoreChange[] = [];
	for (const record of oldestFirst(records)) {
		const id = String(record.id);
		const { score, result_class } = classify(record.result);
		const baseline = decodeBaseline(remembered[id], checks);
		const isBelow = rule.belowScore > 0 && score !== null && score < rule.belowScore;
		if (!baseline || baseline.score === null) {
			// First seen (or its baseline had no score): this reading is the baseline.
			baselines[id] = encodeBaseline(record, checks, isBelow ? 'quiet' : 'no');
			continue;
		}
		if (score === null) {
			// A reading without a score says nothing: the baseline, its Below Score mark and trend stay.
			baselines[id] = remembered[id];
			continue;
		}
		const seen = trendScore(score);
		const trend =
			seen === baseline.trend[baseline.trend.length - 1]
				? baseline.trend
				: [...baseline.trend, seen];
		const wasBelow = baseline.below !== 'no';
		const delta = score - baseline.score;
		const moved =
			rule.minChange > 0 && Math.abs(delta) >= rule.minChange && !(rule.onlyWorse && delta > 0);
		const crossed = isBelow && !wasBelow;
		const rearmed = !isBelow && wasBelow;
		const inClass = !rule.to || result_class === rule.to;
		const reason: ScoreChangeReason | undefined =
			crossed && inClass
				? 'belowScore'
				: rearmed && baseline.below === 'fired' && rule.notifyRecovery
					? 'recovered'
					: moved && inClass
						? 'moved'
						: undefined;
		const below: Below = !isBelow
			? 'no'
			: crossed
				? reason === 'belowScore'
					? 'fired'
					: 'quiet'
				: baseline.below;
		if (reason) {
			changes.push({
				record,
				reason,
				changes: changesBetween(baselineRecord(baseline), record),
				trend: trend.slice(-TREND_LENGTH),
			});
		}
		baselines[id] =
			reason || rearmed || (rule.onlyWorse && delta > 0)
				? encodeBaseline(record, checks, below, trend)
				: withBelowAndTrend(remembered[id], below, trend);
	}
	return { changes, memory: { checks, baselines } };
}
