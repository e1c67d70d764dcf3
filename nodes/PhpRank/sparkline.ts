/*
 * Scores as one line of text, e.g. "71 ▃▄▄▅▆▆▇ 83": the trigger's `trend_text` and a site's
 * `history_text`. Pure.
 */

const BARS = '▁▂▃▄▅▆▇█';
/** Points the bars span at least, so that a point or two of noise stays nearly flat. */
export const MIN_SPAN = 10;

/** Each score as a bar index 0-7, from the lowest score to the highest (at least MIN_SPAN points, centred). */
export function barLevels(scores: readonly number[]): number[] {
	if (scores.length === 0) return [];
	let [low, high] = [Math.min(...scores), Math.max(...scores)];
	if (high - low < MIN_SPAN)
		[low, high] = [(low + high - MIN_SPAN) / 2, (low + high + MIN_SPAN) / 2];
	return scores.map((score) => Math.round(((score - low) / (high - low)) * (BARS.length - 1)));
}

/** The first score in whole points, one bar per score, the last score: '' for none. */
export function sparkline(scores: readonly number[]): string {
	if (scores.length === 0) return '';
	const bars = barLevels(scores)
		.map((level) => BARS[level])
		.join('');
	return `${Math.round(scores[0])} ${bars} ${Math.round(scores[scores.length - 1])}`;
}
