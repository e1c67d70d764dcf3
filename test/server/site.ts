import type { PhpRankServer } from './server';
import type { ReportRecord } from './types';

/*
 * A site (one phpRank project) as the test server holds it now: what a run's history record must
 * say (date of the newest analysis, average score, health score, pages). Used by the engine test
 * and the real-n8n history suite alike, and by the digest's expectations (digestAccount.ts).
 */

export interface SiteFigures {
	date: string;
	average_score: number;
	health_score: number;
	pages: number;
}

export function siteFigures(server: PhpRankServer, project: string): SiteFigures {
	return figuresOf(server.listReports().filter((r) => r.project === project));
}

/** The figures of a site's reports: health is the share of pages without a failing high check. */
export function figuresOf(reports: ReportRecord[]): SiteFigures {
	const scores = reports.map((r) => r.result);
	const healthy = reports.filter(
		(r) => !Object.values(r.results).some((check) => !check.passed && check.importance === 'high'),
	);
	const dates = reports.map((r) => Date.parse(r.generated_at)).sort();
	return {
		date: new Date(dates[dates.length - 1]).toISOString().replace('.000Z', 'Z'),
		average_score: Math.round((scores.reduce((s, v) => s + v, 0) / scores.length) * 10) / 10,
		health_score: Math.round((healthy.length / reports.length) * 100),
		pages: reports.length,
	};
}
