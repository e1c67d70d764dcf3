import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { PAGE_SIZES } from '../PhpRank/api';
import type { ResultClass } from '../PhpRank/api';
import { changesBetween } from '../PhpRank/operations/changes';
import { shapeReport } from '../PhpRank/operations/output';
import { checkStates, classify, type ReportChanges } from '../PhpRank/report';
import { phpRankDate, trendScore } from './baseline';
import { noSampleError } from './noSample';
import { scanReports } from './reports';
import type { ScoreChangeReason } from './scoreChanges';
import type { Settings } from './settings';
import type { ResultChangeReason } from './state';

/** What an event says besides the report: the result before (Report Result Changed), or why and what changed (Score Changed). */
export interface EventDetail {
	previous?: unknown;
	reason?: ScoreChangeReason | ResultChangeReason;
	changes?: ReportChanges;
	trend?: number[];
}

const BARS = '▁▂▃▄▅▆▇█';
/** Points the bars span at least, so that a point or two of noise stays nearly flat. */
const MIN_SPAN = 10;

/**
 * The trend as a line of text: the first score, one bar per score, the last score, e.g.
 * "81 ██▅▁ 58". The bars run from the trend's lowest score to its highest (at least MIN_SPAN
 * points, centred on the scores when they lie closer).
 */
export function trendText(trend: readonly number[]): string {
	if (trend.length === 0) return '';
	let [low, high] = [Math.min(...trend), Math.max(...trend)];
	if (high - low < MIN_SPAN)
		[low, high] = [(low + high - MIN_SPAN) / 2, (low + high + MIN_SPAN) / 2];
	const bars = trend
		.map((score) => BARS[Math.round(((score - low) / (high - low)) * (BARS.length - 1))])
		.join('');
	return `${trend[0]} ${bars} ${trend[trend.length - 1]}`;
}

/**
 * One output item: the report as the action node outputs it (Simplify as set), with the event and
 * - Report Result Changed: `reason` ('changed', or 'recovered' with Notify on Recovery),
 *   `previous_score`, `previous_result_class`;
 * - Score Changed: `reason` ('moved', 'belowScore' or 'recovered'), `trend` and `trend_text`, and
 *   `changes`, the object the action node's re-runs output (`changesBetween`): the baseline's
 *   result, class and generated_at, scoreDelta, and the checks failed and fixed since.
 */
export function eventItem(
	settings: Settings,
	record: IDataObject,
	detail: EventDetail = {},
): INodeExecutionData {
	if (settings.event === 'scoreChanged') {
		// The same change columns and `changes` as the action node's re-runs.
		const changed = { ...record, changes: (detail.changes ?? null) as unknown as IDataObject };
		const { changes, ...report } = shapeReport(changed, settings.simplify);
		const trend = detail.trend ?? [];
		return {
			json: {
				event: settings.event,
				reason: detail.reason ?? 'moved',
				...report,
				trend,
				trend_text: trendText(trend),
				...(changes === undefined ? {} : { changes }),
			},
		};
	}
	if (settings.event === 'resultChanged') {
		const before = classify(detail.previous);
		return {
			json: {
				event: settings.event,
				reason: detail.reason ?? 'changed',
				...shapeReport(record, settings.simplify),
				previous_score: before.score,
				previous_result_class: before.result_class,
			},
		};
	}
	return { json: { event: settings.event, ...shapeReport(record, settings.simplify) } };
}

const SAMPLE_SCORE: Record<ResultClass, number> = { good: 85, decent: 65, bad: 35 };
/** For a sample change: a class the report could have come from (a better one where there is one). */
const SAMPLE_PREVIOUS_CLASS: Record<ResultClass, ResultClass> = {
	bad: 'decent',
	decent: 'good',
	good: 'decent',
};
const WEEK_SECONDS = 7 * 24 * 3600;

/** Seven days before the report's analysis, in phpRank's format. */
function weekBefore(generatedAt: unknown): string {
	const time = typeof generatedAt === 'string' ? Date.parse(generatedAt) : Number.NaN;
	const seconds = Math.floor((Number.isFinite(time) ? time : Date.now()) / 1000);
	return phpRankDate(seconds - WEEK_SECONDS);
}

/**
 * Score Changed's sample: the report as if its previous reading had a score Minimum Change
 * points higher (lower when that passes 100), with up to two of its failed checks passing then
 * and one of its passed checks failing, so `changes` has entries in `failed` and `fixed`.
 */
function sampleScoreChange(settings: Settings, record: IDataObject): EventDetail {
	const { score } = classify(record.result);
	const step = settings.minChange > 0 ? settings.minChange : 5;
	const current = score ?? 50;
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

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function orList(words: string[]): string {
	const quoted = words.map((word) => `"${word}"`);
	return quoted.length < 2
		? quoted.join('')
		: `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** The reasons an event of these settings can carry, for the sample's note. */
function reasonsOf(settings: Settings): string[] {
	if (settings.event === 'resultChanged')
		return settings.notifyRecovery ? ['changed', 'recovered'] : ['changed'];
	return [
		...(settings.minChange > 0 ? ['moved'] : []),
		...(settings.belowScore > 0 ? ['belowScore'] : []),
		...(settings.belowScore > 0 && settings.notifyRecovery ? ['recovered'] : []),
	];
}

function sampleDetail(settings: Settings, record: IDataObject): EventDetail {
	if (settings.event === 'resultChanged') {
		const now = classify(record.result).result_class ?? 'decent';
		return { previous: SAMPLE_SCORE[SAMPLE_PREVIOUS_CLASS[now]], reason: 'changed' };
	}
	if (settings.event === 'scoreChanged') return sampleScoreChange(settings, record);
	return {};
}

/**
 * Fetch Test Event (a manual run): an event built from the newest report that matches the
 * filters, every field an event carries filled, marked `sample: true` with a `note` saying which
 * values are made up. The state is left alone: n8n does not save static data after a manual run.
 */
export async function sampleEvent(
	this: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][]> {
	const { project, result } = settings;
	const { records } = await scanReports.call(this, {
		filter: { project, result },
		pageSize: PAGE_SIZES[0],
		maxPages: 1,
	});
	if (records.length === 0) throw noSampleError(this.getNode(), { project, result });
	const record = records[0];
	const made =
		settings.event === 'scoreChanged'
			? 'the previous values and the trend are'
			: 'the previous values are';
	const note =
		settings.event === 'newReport'
			? `Sample event built from report #${String(record.id)}, the newest report that matches the filters`
			: `Sample event built from report #${String(record.id)}: ${made} made up so you can map them; its reason can be ${orList(reasonsOf(settings))}`;
	const { json } = eventItem(settings, record, sampleDetail(settings, record));
	return [[{ json: { sample: true, note, ...json } }]];
}
