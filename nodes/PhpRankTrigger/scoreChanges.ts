import type { IDataObject } from 'n8n-workflow';

import { changesBetween } from '../PhpRank/operations/changes';
import { classify, type ReportChanges, type ResultClass } from '../PhpRank/operations/output';
import { baselineRecord, decodeBaseline, encodeBaseline, withBelowFlag } from './baseline';
import { type Covered, keepUncovered, oldestFirst } from './state';

/*
 * Score Changed. Each watched report has a baseline: the reading the trigger last fired for, or
 * the first one it saw. A reading fires when
 * - "moved": its score is at least Minimum Change points away from the baseline's (so slow drifts
 *   add up and fire once they reach it); with Only When Worse only a drop counts, and a higher
 *   score becomes the baseline quietly (a later drop is measured from the higher score);
 * - "belowScore": its score is below Below Score and the report's last reading was not (a report
 *   first seen below does not fire; one that stays below fires once; it fires again only after a
 *   reading at or above).
 * Either one is enough; when both hold the item's `reason` is 'belowScore'. The Result filter
 * keeps only readings now in that class; a reading it leaves out is no event, so the baseline
 * stays. Every event makes its reading the new baseline.
 */

export interface ScoreRule {
	/** Points; 0: off. */
	minChange: number;
	/** Only drops fire as "moved". */
	onlyWorse: boolean;
	/** Score; 0: off. */
	belowScore: number;
	/** Only reports now in this class. */
	to?: ResultClass;
}

export type ScoreChangeReason = 'moved' | 'belowScore';

export interface ScoreChange {
	record: IDataObject;
	reason: ScoreChangeReason;
	changes: ReportChanges;
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
			baselines[id] = encodeBaseline(record, checks, isBelow);
			continue;
		}
		// A reading without a score says nothing about Below Score: the flag stays.
		const below = score === null ? baseline.below : isBelow;
		const delta = score === null ? 0 : score - baseline.score;
		const moved = rule.minChange > 0 && Math.abs(delta) >= rule.minChange && !(rule.onlyWorse && delta > 0);
		const crossed = below && !baseline.below;
		const fires = (moved || crossed) && (!rule.to || result_class === rule.to);
		if (fires) {
			changes.push({ record, reason: crossed ? 'belowScore' : 'moved', changes: changesBetween(baselineRecord(baseline), record) });
			baselines[id] = encodeBaseline(record, checks, below);
		} else if (rule.onlyWorse && delta > 0) {
			baselines[id] = encodeBaseline(record, checks, below);
		} else {
			baselines[id] = withBelowFlag(remembered[id], below);
		}
	}
	return { changes, memory: { checks, baselines } };
}
