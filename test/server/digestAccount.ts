import type { PhpRankServer } from './server';
import { figuresOf } from './site';
import type { ReportRecord } from './types';

/*
 * An agency's account for Get Health's One Digest: 12 projects (one named `<script>…`), 3 of them
 * not analysed for 10 days, and four weeks of history for 9 of them as the rows Create or Re-Run
 * writes to its data table. `expectedDigest` works out what the digest must say from the server's
 * reports and the table's rows as they are: it shares no code with the node. Used by the engine
 * test (test/digest.test.ts) and the real-n8n suite (scripts/n8n/e2e/digest.e2e.ts).
 */

const DAY = 24 * 3600 * 1000;
export const SCRIPT_PROJECT = '<script>alert(1)</script>';
const NAMES = [
	'alpha.example.com',
	'bakery.example.com',
	'cars.example.net',
	'dental.example.org',
	'events.example.com',
	'florist.example.com',
	'garage.example.net',
	'hotel.example.com',
	'insure.example.org',
	'jewels.example.com',
	'kitchen.example.net',
	SCRIPT_PROJECT,
];
/** Not analysed for 10 days (Stale After's default is 8). */
export const STALE = new Set([2, 7, 11]);
/** Sites with history in the table: the first 9 (two of them stale). */
const WITH_HISTORY = 9;

export type Row = Record<string, string | number | boolean | null>;

export interface Account {
	/** The rows of the history table, to seed it with. */
	rows: Row[];
}

const whole = (ms: number) => Math.floor(ms / 1000) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The site's pages: 3 to 8, scores spread so the sites rank apart. */
function seedSite(server: PhpRankServer, index: number, now: number): void {
	const name = NAMES[index];
	const host = name === SCRIPT_PROJECT ? 'xss.example.com' : name;
	const pages = 3 + (index % 6);
	const last = whole(now - (STALE.has(index) ? 10 * DAY : (1 + (index % 3)) * DAY) - 3600_000);
	for (let page = 0; page < pages; page++)
		server.addReport({
			url: `https://${host}/page-${page}`,
			...(name === SCRIPT_PROJECT ? { project: name } : {}),
			result: 25 + ((index * 37 + page * 17) % 71),
			generated_at: iso(last - page * 60_000),
		});
}

const failingNow = (reports: ReportRecord[]) =>
	[
		...new Set(
			reports.flatMap((r) =>
				Object.entries(r.results)
					.filter(([, check]) => !check.passed)
					.map(([check]) => check),
			),
		),
	].sort();

/** A site's rows: weekly for four weeks before its newest analysis (twice a week for the first site). */
function siteRows(server: PhpRankServer, index: number): Row[] {
	const project = NAMES[index];
	const reports = server.listReports().filter((r) => r.project === project);
	const newest = Math.max(...reports.map((r) => Date.parse(r.generated_at)));
	const failing = failingNow(reports);
	const average = reports.reduce((sum, r) => sum + r.result, 0) / reports.length;
	const runs = index === 0 ? 8 : 4;
	const step = index === 0 ? 3.5 * DAY : 7 * DAY;
	const rows: Row[] = [];
	for (let k = runs; k >= 1; k--) {
		// Half the sites were better a month ago, half worse; the first failing check fails throughout.
		const drift = (index % 2 === 0 ? 1 : -1) * (k * 2 + index);
		rows.push({
			site: project,
			run_date: iso(newest - k * step),
			average_score: Math.round((average + drift) * 10) / 10,
			health_score: 50,
			pages: reports.length,
			good_pages: 0,
			decent_pages: reports.length,
			bad_pages: 0,
			failing_checks: [failing[0], k <= 2 ? failing[1] : 'doctype']
				.filter(Boolean)
				.map((check) => `${check} (1 page)`)
				.join(', '),
			execution_id: `${index}-${k}`,
			workflow_id: 'wf-audit',
		});
	}
	// The second site's newest analysis was written by Create or Re-Run too: its row is that analysis.
	if (index === 1)
		rows.push({ ...rows[rows.length - 1], run_date: iso(newest), execution_id: '1-0' });
	return rows;
}

/** Seeds the server with the account's reports; the table's rows to seed. `now` in milliseconds. */
export function accountFixture(server: PhpRankServer, now: number): Account {
	NAMES.forEach((_, index) => seedSite(server, index, now));
	const rows: Row[] = [];
	for (let index = 0; index < WITH_HISTORY; index++) rows.push(...siteRows(server, index));
	return { rows };
}

// ----------------------------------------------------------------- what the digest must say

const RANK: Record<string, number> = { high: 0, medium: 1, low: 2 };
const round1 = (value: number) => Math.round(value * 10) / 10;
const classOf = (score: number) => (score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad');
const isoSeconds = (seconds: number) =>
	new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

interface Run {
	at: number;
	average: number | null;
	failing: string[];
}

const runOfRow = (row: Row): Run => ({
	at: Math.floor(Date.parse(String(row.run_date)) / 1000),
	average: typeof row.average_score === 'number' ? row.average_score : null,
	failing: String(row.failing_checks ?? '')
		.split(',')
		.map((entry) => entry.replace(/\(\d+ pages?\)/, '').trim())
		.filter(Boolean),
});

type Check = { check: string; importance: string; pages: number };

function checksOf(reports: ReportRecord[]): Check[] {
	const checks = new Map<string, Check>();
	for (const report of reports)
		for (const [check, result] of Object.entries(report.results)) {
			if (result.passed) continue;
			const known = checks.get(check) ?? { check, importance: result.importance, pages: 0 };
			known.pages += 1;
			if (RANK[result.importance] < RANK[known.importance]) known.importance = result.importance;
			checks.set(check, known);
		}
	return [...checks.values()];
}

/** The check failing longest (most runs in a row up to now; then importance, pages, name) and since when. */
function oldestIssue(runs: Run[], checks: Check[]) {
	const streaks = checks.map((check) => {
		let start = runs.length - 1;
		while (start > 0 && runs[start - 1].failing.includes(check.check)) start--;
		return { ...check, runs: runs.length - start, at: runs[start].at };
	});
	streaks.sort(
		(a, b) =>
			b.runs - a.runs ||
			RANK[a.importance] - RANK[b.importance] ||
			b.pages - a.pages ||
			a.check.localeCompare(b.check),
	);
	return streaks[0];
}

function historyOf(rows: Row[], current: Run, checks: Check[], now: number) {
	const runs = [...rows.map(runOfRow).filter((run) => run.at < current.at), current].sort(
		(a, b) => a.at - b.at,
	);
	const diff = (from: Run | undefined) =>
		from && from !== current && from.average !== null && current.average !== null
			? round1(current.average - from.average)
			: null;
	const oldest = oldestIssue(runs, checks);
	return {
		change_4_runs: diff(runs[runs.length - 5]),
		change_30_days: diff(runs.find((run) => run.at >= (now - 30 * DAY) / 1000)),
		oldest_issue: oldest ? `${oldest.check} (${oldest.importance})` : null,
		oldest_issue_since: oldest ? isoSeconds(oldest.at) : null,
		oldest_issue_days: oldest ? Math.floor((current.at - oldest.at) / 86400) : null,
	};
}

const NO_HISTORY = {
	change_4_runs: null,
	change_30_days: null,
	oldest_issue: null,
	oldest_issue_since: null,
	oldest_issue_days: null,
};

/** The newest row's createdAt to the second, and whether within Audited Within's default 7 days; null without a history. */
function auditOf(rows: Row[], history: boolean, now: number) {
	if (!history) return { last_audit: null, audited: null };
	const written = rows.map((row) => whole(Date.parse(String(row.createdAt))));
	if (!written.length) return { last_audit: null, audited: false };
	const newest = Math.max(...written);
	return { last_audit: iso(newest), audited: now - newest < 7 * DAY };
}

function expectedSite(
	project: string,
	reports: ReportRecord[],
	rows: Row[],
	serverUrl: string,
	now: number,
	history: boolean,
) {
	const { average_score: average, health_score, pages } = figuresOf(reports);
	const checks = checksOf(reports);
	const last = reports.map((r) => r.generated_at).sort((a, b) => Date.parse(a) - Date.parse(b));
	const lastAt = Date.parse(last[last.length - 1]);
	const days = Math.floor((now - lastAt) / DAY);
	const current: Run = {
		at: Math.floor(lastAt / 1000),
		average,
		failing: checks.map(({ check }) => check),
	};
	return {
		project,
		health_score,
		average_score: average,
		result_class: classOf(average),
		pages,
		...(rows.length ? historyOf(rows, current, checks, now) : NO_HISTORY),
		open_high_issues: checks.filter(({ importance }) => importance === 'high').length,
		last_analysed: last[last.length - 1],
		days_since_analysis: days,
		stale: days >= 8,
		...auditOf(rows, history, now),
		link: `${serverUrl}/reports?project=${encodeURIComponent(project)}`,
	};
}

export type ExpectedSite = ReturnType<typeof expectedSite>;

/** The digest's sites, worst first, and its totals, from the reports and rows as they are now. */
export function expectedDigest(
	reports: ReportRecord[],
	rows: Row[],
	serverUrl: string,
	now: number,
) {
	const projects = [...new Set(reports.map((r) => r.project))];
	const history = rows.length > 0;
	const sites = projects
		.map((project) =>
			expectedSite(
				project,
				reports.filter((r) => r.project === project),
				rows.filter((row) => row.site === project),
				serverUrl,
				now,
				history,
			),
		)
		.sort(
			(a, b) =>
				a.health_score - b.health_score ||
				a.average_score - b.average_score ||
				a.project.localeCompare(b.project),
		);
	const moved = (sign: number) =>
		history ? sites.filter((site) => Math.sign(site.change_4_runs ?? 0) === sign).length : null;
	return {
		sites,
		totals: {
			total_sites: sites.length,
			total_pages: reports.length,
			average_score: round1(reports.reduce((s, r) => s + r.result, 0) / reports.length),
			worse_sites: moved(-1),
			better_sites: moved(1),
			stale_sites: sites.filter((site) => site.stale).length,
			not_audited_sites: history ? sites.filter((site) => site.audited === false).length : null,
		},
	};
}
