export type ResultClass = 'good' | 'decent' | 'bad';

const RESULT_CLASSES: readonly string[] = ['good', 'decent', 'bad'];

/**
 * phpRank stores a score from 0 to 100; the seed spec and the list filter speak of classes.
 * good > 79, decent 49-79, bad < 49 (the thresholds of phpRank's own `result` filter).
 */
export function classify(result: unknown): { score: number | null; result_class: ResultClass | null } {
	if (typeof result === 'string' && RESULT_CLASSES.includes(result.toLowerCase())) {
		return { score: null, result_class: result.toLowerCase() as ResultClass };
	}
	const score = typeof result === 'number' ? result : Number.parseFloat(String(result));
	if (result === null || result === '' || !Number.isFinite(score)) return { score: null, result_class: null };
	return { score, result_class: score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad' };
}
