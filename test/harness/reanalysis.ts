import type { PhpRankServer, ReportRecord } from '../server';

/**
 * A new analysis of a report, as phpRank's database holds it after a re-run elsewhere: the same
 * report (its ID kept) with the score given, the checks in `fail` failing and those in `pass`
 * passing, generated `hours` after the last analysis. The one fixture for "a re-analysed report",
 * in the engine tests and the e2e alike.
 */
export function reanalyse(
	server: Pick<PhpRankServer, 'getReport' | 'deleteReport' | 'addReport'>,
	id: number,
	change: { score: number; fail?: readonly string[]; pass?: readonly string[]; hours?: number },
): ReportRecord {
	const report = server.getReport(id)!;
	const results = structuredClone(report.results);
	for (const check of change.fail ?? []) results[check] = { ...results[check], passed: false };
	for (const check of change.pass ?? []) results[check] = { ...results[check], passed: true };
	const hours = change.hours ?? 1;
	const generated = new Date(Date.parse(report.generated_at) + hours * 3_600_000).toISOString();
	server.deleteReport(id);
	return server.addReport({
		...report,
		result: change.score,
		results,
		generated_at: generated,
		updated_at: generated,
	});
}
