import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BOUNDS, boundedField, readBounded } from '../../PhpRank/bounds';
import { changesBetween } from '../../PhpRank/engine/changes';
import { shapeReport } from '../../PhpRank/engine/reportItem';
import { checkStates, classify, type ReportChanges } from '../../PhpRank/report';
import { sparkline } from '../../PhpRank/sparkline';
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
import {
	type Below,
	baselineRecord,
	decodeBaseline,
	encodeBaseline,
	phpRankDate,
	TREND_LENGTH,
	trendScore,
	withBelowAndTrend,
} from './scoreBaseline';

interface Parameters {
	/** Points; 0: off. */
	minChange: number;
	/** Only drops fire as "moved". */
	onlyWorse: boolean;
	/** Score; 0: off. */
	belowScore: number;
	/** Fire "recovered" when a report that fired Below Score is back at or above it. */
	notifyRecovery: boolean;
}

interface Memory extends RoundMemory {
	/** The check names the baselines' bitmasks index, in the order first seen (only appended to). */
	checks: string[];
	/** Each watched report's baseline (scoreBaseline.ts), by report ID. */
	baselines: Record<string, string>;
}

export type ScoreChangeReason = 'moved' | 'belowScore' | 'recovered';

interface Detail {
	reason: ScoreChangeReason;
	changes: ReportChanges;
	/** The last up to TREND_LENGTH scores seen, oldest first, this reading's last. */
	trend: number[];
}

type Rule = Settings<Parameters>;

/** What one reading with a score does to a report with a baseline: its reason to fire, if any, and its Below Score mark. */
function judge(
	rule: Rule,
	baseline: { score: number; below: Below },
	score: number,
	resultClass: unknown,
) {
	const isBelow = rule.belowScore > 0 && score < rule.belowScore;
	const wasBelow = baseline.below !== 'no';
	const delta = score - baseline.score;
	const moved =
		rule.minChange > 0 && Math.abs(delta) >= rule.minChange && !(rule.onlyWorse && delta > 0);
	const crossed = isBelow && !wasBelow;
	const inClass = !rule.result || resultClass === rule.result;
	const reason: ScoreChangeReason | undefined =
		crossed && inClass
			? 'belowScore'
			: !isBelow && baseline.below === 'fired' && rule.notifyRecovery
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
	// A new baseline: an event, a reading back at or above Below Score, a rise with Only When Worse.
	const rebase = !!reason || (!isBelow && wasBelow) || (rule.onlyWorse && delta > 0);
	return { reason, below, rebase };
}

/** The events among one round's `records`, oldest first, and the baselines to remember (ARCHITECTURE.md, "Score Changed"). */
export function scoreChanges(
	records: IDataObject[],
	previous: Partial<Memory>,
	rule: Rule,
	covered: Covered,
): { found: Array<Found<Detail>>; memory: Memory } {
	const checks = [...(previous.checks ?? [])];
	const remembered = previous.baselines ?? {};
	const baselines = keepUncovered(remembered, covered);
	const found: Array<Found<Detail>> = [];
	for (const record of oldestFirst(records)) {
		const id = String(record.id);
		const { score, result_class } = classify(record.result);
		const baseline = decodeBaseline(remembered[id], checks);
		if (!baseline || baseline.score === null) {
			// First seen (or its baseline had no score): this reading is the baseline.
			const isBelow = rule.belowScore > 0 && score !== null && score < rule.belowScore;
			baselines[id] = encodeBaseline(record, checks, isBelow ? 'quiet' : 'no');
			continue;
		}
		// A reading without a score says nothing: the baseline stays.
		if (score === null) {
			baselines[id] = remembered[id];
			continue;
		}
		const { reason, below, rebase } = judge(
			rule,
			{ score: baseline.score, below: baseline.below },
			score,
			result_class,
		);
		const seen = trendScore(score);
		const last = baseline.trend[baseline.trend.length - 1];
		const trend = seen === last ? baseline.trend : [...baseline.trend, seen];
		if (reason) {
			const changes = changesBetween(baselineRecord(baseline), record);
			found.push({ record, detail: { reason, changes, trend: trend.slice(-TREND_LENGTH) } });
		}
		baselines[id] = rebase
			? encodeBaseline(record, checks, below, trend)
			: withBelowAndTrend(remembered[id], below, trend);
	}
	return { found, memory: { checks, baselines } };
}

const WEEK_SECONDS = 7 * 24 * 3600;

/** Seven days before the report's analysis, in phpRank's format. */
function weekBefore(generatedAt: unknown): string {
	const time = typeof generatedAt === 'string' ? Date.parse(generatedAt) : Number.NaN;
	const seconds = Math.floor((Number.isFinite(time) ? time : Date.now()) / 1000);
	return phpRankDate(seconds - WEEK_SECONDS);
}

/**
 * The sample: the report as if its previous reading had a score Minimum Change points higher (lower
 * past 100), up to two of its failed checks passing then and one passed check failing.
 */
function sampleDetail(settings: Rule, record: IDataObject): Detail {
	const step = settings.minChange > 0 ? settings.minChange : BOUNDS.minChange.default;
	const current = classify(record.result).score ?? 50;
	let previous = current + step <= 100 ? current + step : Math.max(0, current - step);
	const reason: ScoreChangeReason =
		settings.belowScore > 0 && (current < settings.belowScore || settings.minChange === 0)
			? 'belowScore'
			: 'moved';
	if (reason === 'belowScore') previous = Math.min(100, Math.max(previous, settings.belowScore));
	const states = [...checkStates(record.results)];
	const flipped = [
		...states.filter(([, state]) => !state.passed).slice(0, 2),
		...states.filter(([, state]) => state.passed).slice(0, 1),
	];
	const results: IDataObject = { ...(record.results as IDataObject) };
	for (const [check, state] of flipped)
		results[check] = { ...(results[check] as IDataObject), passed: !state.passed };
	const changes = changesBetween(
		{ result: previous, results, generated_at: weekBefore(record.generated_at) },
		record,
	);
	// A made-up slide from the previous score to this one, in three steps.
	const trend = [0, 1, 2, 3]
		.map((step) => trendScore(previous + ((current - previous) * step) / 3))
		.filter((score, index, all) => index === 0 || score !== all[index - 1]);
	return { reason, changes, trend };
}

const ENTER = {
	minChange:
		'Enter how many points a report’s score must move by to fire, e.g. 5 (analyses are noisy), or 0 to fire on Below Score only.',
	belowScore:
		'Enter the score (1 to 100) a report must fall below to fire, e.g. 50, or 0 to turn Below Score off.',
};

/** A number parameter within its bounds, or a NodeOperationError naming the field and what to enter. */
function bounded(ctx: IPollFunctions, name: keyof typeof ENTER): number {
	return readBounded(name, ctx.getNodeParameter(name, BOUNDS[name].default), (problem) => {
		throw new NodeOperationError(ctx.getNode(), problem, { description: ENTER[name] });
	});
}

export const scoreChanged: TriggerEvent<Parameters, Memory, Detail> = {
	value: 'scoreChanged',
	name: 'Score Changed',
	description:
		'A report’s score moved by at least Minimum Change points, or fell below Below Score, e.g. after it was re-run. Each event says which checks failed and were fixed, and shows the score’s trend.',
	subtitle: 'Score changed',
	fields: [
		onlyWorseField,
		boundedField(
			'minChange',
			'Fire when a report’s score moved by at least this many points (0-100) since the trigger last fired for it, or first saw it, so slow drifts add up. Analyses are noisy: a few points is usually no real change. 0: off (Below Score only).',
		),
		boundedField(
			'belowScore',
			'Also fire once when a report’s score falls below this score (0-100), and again only after it was back at or above it; the event’s changes are measured from a reading at or above it. 0: off. Either this or Minimum Change is enough to fire; the item’s reason says which.',
		),
		notifyRecoveryField('a report that fired Below Score is back at or above it'),
		outputField,
		costNotice,
	],
	resultNote: 'For Score Changed: only reports now in this class.',
	listByResult: false,
	parameters(ctx) {
		const minChange = bounded(ctx, 'minChange');
		const belowScore = bounded(ctx, 'belowScore');
		if (minChange === 0 && belowScore === 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				'Minimum Change and Below Score are both 0, so Score Changed would never fire',
				{
					description:
						'Enter a Minimum Change (e.g. 5 points) or a Below Score (e.g. 50), or both.',
				},
			);
		}
		return {
			minChange,
			belowScore,
			onlyWorse: ctx.getNodeParameter('onlyWorse', false) as boolean,
			notifyRecovery: ctx.getNodeParameter('notifyRecovery', false) as boolean,
		};
	},
	// Below Score's marks hold only for the score they were set for.
	watch: ({ belowScore }) => [belowScore],
	decode: (stored) => ({
		checks: (stored.checks as string[]) ?? [],
		baselines: (stored.baselines as Memory['baselines']) ?? {},
		...decodeRound(stored),
	}),
	encode: (memory) => ({ ...memory }),

	/** A round over every watched report; the first only notes where each report stands. */
	read: readByRounds(scoreChanges),

	item: (settings, { record, detail }) => {
		const changed = { ...record, changes: detail.changes as unknown as IDataObject };
		const { changes, ...report } = shapeReport(changed, settings);
		return {
			reason: detail.reason,
			...report,
			trend: detail.trend,
			trend_text: sparkline(detail.trend),
			...(changes === undefined ? {} : { changes }),
		};
	},
	siteLine: ({ url, previous_score, score, reason }) =>
		`${String(url)}: ${String(previous_score)} → ${String(score)} (${String(reason)})`,
	reasons: ({ minChange, belowScore, notifyRecovery }) => [
		...(minChange > 0 ? ['moved'] : []),
		...(belowScore > 0 ? ['belowScore'] : []),
		...(belowScore > 0 && notifyRecovery ? ['recovered'] : []),
	],
	sample: (settings, record) => ({
		detail: sampleDetail(settings, record),
		madeUp: 'the previous values and the trend are',
	}),
};
