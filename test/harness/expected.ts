/*
 * What a report item should say, worked out from the test server's own record, apart from the
 * node's code: the tests compare the node's output with these.
 */

const RANK: Record<string, number> = { high: 0, medium: 1, low: 2 };

/** `top_failed_checks` of a record's `results`: the three most important failed checks, ties in the record's order. */
export function expectedTopFailed(
	results: Record<string, { passed: boolean; importance: string }>,
): string {
	return Object.entries(results)
		.filter(([, check]) => check.passed === false)
		.map(([name, check], order) => ({ name, importance: check.importance, order }))
		.sort((a, b) => (RANK[a.importance] ?? 3) - (RANK[b.importance] ?? 3) || a.order - b.order)
		.slice(0, 3)
		.map(({ name, importance }) => `${name} (${importance})`)
		.join(', ');
}

/** `link`: the report's page on the instance the credential names (`instance` without `/api/v1`). */
export function expectedLink(instance: string, id: number | string): string {
	return `${instance.replace(/\/+$/, '')}/reports/${String(id)}`;
}
