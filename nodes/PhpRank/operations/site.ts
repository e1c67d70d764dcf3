import type { IDataObject } from 'n8n-workflow';

import { RESULT_CLASS_RANGES, RESULT_CLASSES, type ResultClass } from '../api';
import {
	type CheckChange,
	checkStates,
	classify,
	importanceRank,
	type ReportChanges,
	sameUrlKey,
} from '../report';

/*
 * A whole site (one phpRank project) at a glance, from its reports alone: Project → Get Health, and
 * the site summary of a Create or Re-Run run (Output: One Item per Site). What it counts:
 * - pages: the site's URLs, each by its newest report (a URL re-created keeps one page);
 * - health_score: the share of pages, 0-100, with no failed high-importance check (as Ahrefs'
 *   Health Score counts pages without an error-level issue);
 * - failing_checks: every check that fails on at least one page, high before medium before low,
 *   then most pages first; top_issues: the first three in words;
 * - worst_pages: the lowest scores, each with a link to its report in phpRank.
 * `summary_text` (a few lines for Slack or Teams) and `summary_html` (an e-mail body, inline styles
 * only) say it for people; every value from phpRank in the HTML is escaped.
 */

export interface SiteOptions {
	/** How many worst pages (and biggest drops) to list, 1-100. */
	worstPages: number;
	/** Points a page's score must move to count as worse or better. */
	minChange: number;
	/** A report's page in phpRank, from its ID. */
	link: (id: unknown) => string;
}

export interface CheckCount extends CheckChange {
	pages: number;
}

/** One page of a Create or Re-Run run, as the run ended for it. */
export interface RunPage {
	url: string;
	action?: 'created' | 'rerun';
	record?: IDataObject;
	changes?: ReportChanges | null;
	/** Why phpRank could not analyse it (a page the run lost, not the audit). */
	failure?: string;
	/** Confirm Drops: false when a suspected drop was noise (it is then not counted as worse). */
	confirmed?: boolean;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function mean(values: number[]): number | null {
	return values.length
		? round1(values.reduce((sum, value) => sum + value, 0) / values.length)
		: null;
}

function median(values: number[]): number | null {
	if (!values.length) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return round1(sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
}

/** Each URL's newest report (by ID), in the order first seen. */
export function newestPerUrl(records: IDataObject[]): IDataObject[] {
	const byUrl = new Map<string, IDataObject>();
	for (const record of records) {
		const key = sameUrlKey(String(record.url ?? ''));
		const known = byUrl.get(key);
		if (!known || Number(record.id) > Number(known.id)) byUrl.set(key, record);
	}
	return [...byUrl.values()];
}

/** Checks by how many pages they concern, most important first, then most pages, then by name. */
function countChecks(lists: CheckChange[][]): CheckCount[] {
	const counts = new Map<string, CheckCount>();
	for (const list of lists) {
		for (const { check, importance } of list) {
			const known = counts.get(check);
			if (!known) counts.set(check, { check, importance, pages: 1 });
			else {
				known.pages += 1;
				if (importanceRank(importance) < importanceRank(known.importance))
					known.importance = importance;
			}
		}
	}
	return [...counts.values()].sort(
		(a, b) =>
			importanceRank(a.importance) - importanceRank(b.importance) ||
			b.pages - a.pages ||
			a.check.localeCompare(b.check),
	);
}

function failedOf(record: IDataObject): CheckChange[] {
	return [...checkStates(record.results)]
		.filter(([, state]) => !state.passed)
		.map(([check, { importance }]) => ({ check, importance }));
}

/** A page as lists of pages show it: ID, URL, score, class and its report's link. */
function pageEntry(record: IDataObject, options: SiteOptions): IDataObject {
	const { score, result_class } = classify(record.result);
	return {
		id: record.id ?? null,
		url: record.url ?? null,
		score,
		result_class,
		link: options.link(record.id),
	};
}

/** The health of the pages `records` (one record per page), as Get Health and the site summary give it. */
export function siteHealth(records: IDataObject[], options: SiteOptions): IDataObject {
	const classified = records.map((record) => ({ record, ...classify(record.result) }));
	const scores = classified
		.map(({ score }) => score)
		.filter((score): score is number => score !== null);
	const average = mean(scores);
	const byClass = (value: ResultClass) =>
		classified.filter(({ result_class }) => result_class === value).length;
	const failing = countChecks(records.map(failedOf));
	const healthy = records.filter(
		(record) => !failedOf(record).some(({ importance }) => importance === 'high'),
	).length;
	const dates = records
		.map((record) => record.generated_at)
		.filter((date): date is string => typeof date === 'string')
		.sort();
	const worst = classified
		.filter(({ score }) => score !== null)
		.sort((a, b) => a.score! - b.score! || Number(a.record.id) - Number(b.record.id))
		.slice(0, options.worstPages)
		.map(({ record }) => pageEntry(record, options));
	return {
		pages: records.length,
		average_score: average,
		median_score: median(scores),
		result_class: classify(average).result_class,
		health_score: records.length ? Math.round((healthy / records.length) * 100) : null,
		good_pages: byClass('good'),
		decent_pages: byClass('decent'),
		bad_pages: byClass('bad'),
		failing_checks: failing as unknown as IDataObject[],
		top_issues: failing
			.slice(0, 3)
			.map(
				({ check, importance, pages }) =>
					`${check} (${importance}) on ${pages} of ${records.length} pages`,
			),
		worst_pages: worst,
		analysed_from: dates[0] ?? null,
		analysed_to: dates[dates.length - 1] ?? null,
	};
}

/**
 * The summary of one site's pages in a Create or Re-Run run: what was created and re-run, how the
 * scores moved (re-run pages only: a created page has no score before), which checks newly failed
 * or were fixed and on how many pages, the biggest drops, the pages phpRank could not analyse, and
 * the health of the pages the run analysed.
 */
export function siteSummary(project: string, pages: RunPage[], options: SiteOptions): IDataObject {
	const analysed = pages.filter(
		(page): page is RunPage & { record: IDataObject } => page.record !== undefined,
	);
	const rerun = analysed.filter((page) => page.action === 'rerun' && page.changes);
	const deltas = rerun
		.map(({ changes }) => changes!.scoreDelta)
		.filter((delta): delta is number => delta !== null);
	const previous = rerun
		.map(({ changes }) => changes!.previous.result)
		.filter((score): score is number => score !== null);
	// With Confirm Drops, a drop that did not hold in the second analysis is not worse.
	const moved = (sign: 1 | -1) =>
		rerun.filter(({ changes, confirmed }) => {
			const delta = changes!.scoreDelta;
			return (
				delta !== null &&
				delta * sign >= Math.max(options.minChange, Number.EPSILON) &&
				!(sign < 0 && confirmed === false)
			);
		}).length;
	const drops = rerun
		.filter(({ changes }) => changes!.scoreDelta !== null && changes!.scoreDelta < 0)
		.sort(
			(a, b) =>
				a.changes!.scoreDelta! - b.changes!.scoreDelta! ||
				Number(a.record.id) - Number(b.record.id),
		)
		.slice(0, options.worstPages)
		.map(({ record, changes }) => {
			const { id, url, score, link } = pageEntry(record, options);
			return { id, url, score, score_change: changes!.scoreDelta, link };
		});
	const health = siteHealth(newestPerUrl(analysed.map(({ record }) => record)), options);
	return {
		project,
		pages: health.pages,
		created: analysed.filter((page) => page.action === 'created').length,
		rerun: rerun.length,
		previous_average_score: mean(previous),
		average_score: health.average_score,
		average_change: mean(deltas),
		worse_pages: moved(-1),
		better_pages: moved(1),
		newly_failing_checks: countChecks(
			rerun.map(({ changes }) => changes!.failed),
		) as unknown as IDataObject[],
		newly_fixed_checks: countChecks(
			rerun.map(({ changes }) => changes!.fixed),
		) as unknown as IDataObject[],
		biggest_drops: drops,
		...health,
		failed_pages: pages
			.filter((page) => page.failure !== undefined)
			.map(({ url, failure }) => ({ url, reason: failure })),
	};
}

/** The worst pages a message names: those below the best class (a good page is nothing to fix). */
const toFix = (pages: IDataObject[]) =>
	pages.filter((page) => page.result_class !== RESULT_CLASSES[0].value);

const signed = (value: number) =>
	value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : '±0';
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A few lines for Slack or Teams: score and change, pages worse and better, top issues, worst pages with links. */
export function summaryText(site: IDataObject): string {
	const lines: string[] = [];
	const change =
		typeof site.average_change === 'number'
			? `, ${signed(site.average_change)} since the last run`
			: '';
	const score =
		site.average_score === null
			? 'no score'
			: `score ${String(site.average_score)} (${String(site.result_class)})${change}`;
	lines.push(`${String(site.project)}: ${score}, health ${site.health_score ?? '–'}/100`);
	const split = `${String(site.good_pages)} good, ${String(site.decent_pages)} decent, ${String(site.bad_pages)} bad`;
	const moves =
		site.worse_pages === undefined
			? ''
			: `; ${String(site.worse_pages)} worse, ${String(site.better_pages)} better`;
	lines.push(`${plural(Number(site.pages), 'page')} (${split})${moves}`);
	const issues = site.top_issues as string[];
	if (issues.length) lines.push(`Top issues: ${issues.join('; ')}`);
	const worst = toFix(site.worst_pages as IDataObject[]);
	if (worst.length)
		lines.push(
			`Worst pages: ${worst.map((page) => `${String(page.url)} ${String(page.score)} (${String(page.link)})`).join('; ')}`,
		);
	const drops = (site.biggest_drops ?? []) as IDataObject[];
	if (drops.length)
		lines.push(
			`Biggest drops: ${drops.map((page) => `${String(page.url)} ${signed(Number(page.score_change))} to ${String(page.score)} (${String(page.link)})`).join('; ')}`,
		);
	const failed = (site.failed_pages ?? []) as IDataObject[];
	if (failed.length)
		lines.push(
			`Not analysed: ${failed.map((page) => `${String(page.url)} (${String(page.reason)})`).join('; ')}`,
		);
	return lines.join('\n');
}

/** Text from phpRank (URLs, check names, reasons) as HTML text: `<script>` and quotes show as themselves. */
export function escapeHtml(value: unknown): string {
	return String(value ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const CLASS_COLOURS: Record<ResultClass, string> = {
	good: '#1e8e3e',
	decent: '#e37400',
	bad: '#d93025',
};
const NO_CLASS_COLOUR = '#5f6368';

function pageLinks(
	title: string,
	pages: IDataObject[],
	detail: (page: IDataObject) => string,
): string {
	if (!pages.length) return '';
	const items = pages
		.map(
			(page) =>
				`<li style="margin:2px 0"><a href="${escapeHtml(page.link)}" style="color:#1a73e8">${escapeHtml(page.url)}</a> ${detail(page)}</li>`,
		)
		.join('');
	return `<h3 style="font-size:15px;margin:16px 0 4px">${title}</h3><ul style="margin:0;padding-left:20px">${items}</ul>`;
}

/**
 * An e-mail body: the score as a badge coloured by its class, the good/decent/bad split as a bar,
 * top issues, worst pages and biggest drops as links. Inline styles only (mail clients drop
 * `<style>`); every value from phpRank escaped.
 */
export function summaryHtml(site: IDataObject): string {
	const colour = CLASS_COLOURS[site.result_class as ResultClass] ?? NO_CLASS_COLOUR;
	const pages = Number(site.pages) || 0;
	const bar = [...RESULT_CLASSES]
		.map(({ value }) => ({ value, count: Number(site[`${value}_pages`]) || 0 }))
		.filter(({ count }) => count > 0)
		.map(
			({ value, count }) =>
				`<td style="background:${CLASS_COLOURS[value]};width:${Math.round((count / pages) * 100)}%;height:12px;padding:0" title="${count} ${RESULT_CLASS_RANGES[value].label}"></td>`,
		)
		.join('');
	const change =
		typeof site.average_change === 'number'
			? ` <span style="color:#5f6368">${escapeHtml(signed(site.average_change))} since the last run</span>`
			: '';
	const moves =
		site.worse_pages === undefined
			? ''
			: ` · ${escapeHtml(site.worse_pages)} worse, ${escapeHtml(site.better_pages)} better`;
	const issues = (site.top_issues as string[])
		.map((issue) => `<li style="margin:2px 0">${escapeHtml(issue)}</li>`)
		.join('');
	const failed = ((site.failed_pages ?? []) as IDataObject[])
		.map(
			(page) => `<li style="margin:2px 0">${escapeHtml(page.url)}: ${escapeHtml(page.reason)}</li>`,
		)
		.join('');
	return [
		`<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#202124;max-width:640px">`,
		`<h2 style="font-size:18px;margin:0 0 8px">${escapeHtml(site.project)}</h2>`,
		`<p style="margin:0 0 8px"><span style="display:inline-block;background:${colour};color:#ffffff;font-weight:bold;font-size:20px;padding:4px 12px;border-radius:12px">${escapeHtml(site.average_score ?? '–')}</span> `,
		`<span style="font-weight:bold">${escapeHtml(site.result_class ?? 'no score')}</span>${change}</p>`,
		`<p style="margin:0 0 4px">Health ${escapeHtml(site.health_score ?? '–')}/100 · ${escapeHtml(plural(pages, 'page'))}: ${escapeHtml(site.good_pages)} good, ${escapeHtml(site.decent_pages)} decent, ${escapeHtml(site.bad_pages)} bad${moves}</p>`,
		bar
			? `<table role="presentation" style="width:100%;border-collapse:collapse;border-radius:6px;overflow:hidden"><tr>${bar}</tr></table>`
			: '',
		issues
			? `<h3 style="font-size:15px;margin:16px 0 4px">Top issues</h3><ul style="margin:0;padding-left:20px">${issues}</ul>`
			: '',
		pageLinks(
			'Worst pages',
			toFix(site.worst_pages as IDataObject[]),
			(page) => `${escapeHtml(page.score)} (${escapeHtml(page.result_class)})`,
		),
		pageLinks(
			'Biggest drops',
			(site.biggest_drops ?? []) as IDataObject[],
			(page) => `${escapeHtml(signed(Number(page.score_change)))} to ${escapeHtml(page.score)}`,
		),
		failed
			? `<h3 style="font-size:15px;margin:16px 0 4px">Not analysed</h3><ul style="margin:0;padding-left:20px">${failed}</ul>`
			: '',
		`</div>`,
	].join('');
}

/**
 * A site as the node outputs it: with `summary_text` and `summary_html`. Simplify keeps it flat for
 * the Table view (the lists as short text, `failing_checks` as a count); off, the lists as arrays.
 */
export function siteOutput(site: IDataObject, simplify: boolean): IDataObject {
	const full = { ...site, summary_text: summaryText(site), summary_html: summaryHtml(site) };
	if (!simplify) return full;
	const flat: IDataObject = {};
	for (const [name, value] of Object.entries(full)) {
		if (!Array.isArray(value)) flat[name] = value;
		else if (name === 'top_issues') flat[name] = (value as string[]).join('; ');
		else if (name === 'failed_pages')
			flat[name] = (value as IDataObject[])
				.map((page) => `${String(page.url)} (${String(page.reason)})`)
				.join('; ');
		else if (name.endsWith('_checks'))
			flat[name] = (value as CheckCount[])
				.map(({ check, importance, pages }) => `${check} (${importance}) ×${pages}`)
				.join(', ');
		else
			flat[name] = (value as IDataObject[])
				.map((page) => `${String(page.url)} ${String(page.score)}`)
				.join(', ');
	}
	return flat;
}
