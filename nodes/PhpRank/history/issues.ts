import { isoDate, ordinalOf, type SiteHistory, type StreakStart } from './model';

/*
 * How long each check has been failing on a site, from its history: a check's streak is the
 * unbroken run of records, up to the newest, in which it failed on at least one page. Pure.
 */

const DAY_SECONDS = 24 * 3600;

/** A check as the newest run counts it (the site summary's `failing_checks`). */
export type FailingCheck = {
	check: string;
	importance: string;
	pages: number;
};

export type OpenIssue = FailingCheck & {
	/** The first run of the current streak, as an ISO date. */
	failing_since: string;
	/** Runs in the streak, this one included. */
	age_runs: number;
	/** Whole days from the streak's first run to this one. */
	age_days: number;
};

export type ResolvedIssue = {
	check: string;
	/** The first run of the streak that ended with the previous run. */
	failing_since: string;
	/** Runs it failed in. */
	age_runs: number;
};

export type SiteIssues = {
	new_issues: FailingCheck[];
	resolved_issues: ResolvedIssue[];
	open_issues: OpenIssue[];
};

/** Where the streak of `check` that includes record `end` began. */
export function streakStart(history: SiteHistory, check: string, end: number): StreakStart {
	let index = end;
	while (index > 0 && history.records[index - 1].failing.includes(check)) index--;
	const carried = index === 0 ? history.carried.get(check) : undefined;
	return carried ?? { ordinal: ordinalOf(history, index), at: history.records[index].at };
}

/**
 * The newest run's issues: each failing check (`failing`, as the run counts them) with its age,
 * oldest first; those new since the previous run; those the previous run had and this one has not.
 */
export function siteIssues(history: SiteHistory, failing: readonly FailingCheck[]): SiteIssues {
	const last = history.records.length - 1;
	if (last < 0) return { new_issues: [], resolved_issues: [], open_issues: [] };
	const newest = history.records[last];
	const before = last > 0 ? new Set(history.records[last - 1].failing) : undefined;
	const ordinal = ordinalOf(history, last);
	const open = failing.map((entry, order) => {
		const start = streakStart(history, entry.check, last);
		return {
			order,
			issue: {
				...entry,
				failing_since: isoDate(start.at),
				age_runs: ordinal - start.ordinal + 1,
				age_days: Math.floor((newest.at - start.at) / DAY_SECONDS),
			},
		};
	});
	open.sort((a, b) => b.issue.age_runs - a.issue.age_runs || a.order - b.order);
	const now = new Set(failing.map(({ check }) => check));
	const resolved = [...(before ?? [])]
		.filter((check) => !now.has(check))
		.map((check) => {
			const start = streakStart(history, check, last - 1);
			return {
				check,
				failing_since: isoDate(start.at),
				age_runs: ordinal - start.ordinal,
			};
		});
	return {
		new_issues: before ? failing.filter(({ check }) => !before.has(check)) : [],
		resolved_issues: resolved,
		open_issues: open.map(({ issue }) => issue),
	};
}
