import { RESULT_CLASS_RANGES, RESULT_CLASSES, type ResultClass } from '../api';
import { classify } from '../report';
import {
	type CheckCount,
	type Flatteners,
	type GroupChanges,
	type GroupFigures,
	type SiteGroups,
	type PageEntry,
	type SiteSummary,
	type SiteText,
} from './types';

/*
 * A site’s figures (site/figures.ts) written for people: `summary_text` (a few lines for Slack or
 * Teams), `summary_html` (an e-mail body, inline styles only, every value from phpRank escaped),
 * and the site item as the node outputs it.
 */

/** The worst pages a message names: those below the best class (a good page is nothing to fix). */
const toFix = (pages: PageEntry[]) =>
	pages.filter((page) => page.result_class !== RESULT_CLASSES[0].value);

/** A change as people read it: +3, −2.5, ±0. */
export const signed = (value: number) =>
	value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : '±0';
/** `1 page`, `3 pages`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A few lines for Slack or Teams: broken budgets first, then score and change, pages worse and better, top issues, worst pages with links. */
export function summaryText(site: SiteText): string {
	const lines: string[] = [...trafficLines(site), ...groupLines(site)];
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
	const issues = site.top_issues;
	if (issues.length) lines.push(`Top issues: ${issues.join('; ')}`);
	const worst = toFix(site.worst_pages);
	if (worst.length)
		lines.push(
			`Worst pages: ${worst.map((page) => `${String(page.url)} ${String(page.score)} (${String(page.link)})`).join('; ')}`,
		);
	const drops = site.biggest_drops ?? [];
	if (drops.length)
		lines.push(
			`Biggest drops: ${drops.map((page) => `${String(page.url)} ${signed(Number(page.score_change))} to ${String(page.score)} (${String(page.link)})`).join('; ')}`,
		);
	const failed = site.failed_pages ?? [];
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

/** Each score class's colour, in the e-mails. */
export const CLASS_COLOURS: Record<ResultClass, string> = {
	good: '#1e8e3e',
	decent: '#e37400',
	bad: '#d93025',
};
const NO_CLASS_COLOUR = '#5f6368';

/**
 * The colour of a number on a badge or a bar: the class the number itself falls in (RESULT_CLASSES),
 * grey without one. Every 0-100 figure is coloured so, whatever it is: a score, a site's health.
 */
export const scoreColour = (shown: number | null | undefined): string => {
	const { result_class } = classify(shown);
	return result_class ? CLASS_COLOURS[result_class] : NO_CLASS_COLOUR;
};

function pageLinks<P extends { link: string; url: string | null }>(
	title: string,
	pages: P[],
	detail: (page: P) => string,
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

/** The e-mail body's box: one width and font for everything composed into it. */
export function htmlBox(parts: readonly string[]): string {
	return [
		`<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#202124;max-width:640px">`,
		...parts,
		`</div>`,
	].join('');
}

/**
 * The parts of an e-mail body, in order (`htmlBox` puts them in their box): the score as a badge
 * coloured by its class, the good/decent/bad split as a bar, top issues, worst pages and biggest
 * drops as links. Inline styles only (mail clients drop `<style>`); every value from phpRank escaped.
 */
export function summaryHtmlParts(site: SiteText): string[] {
	const colour = scoreColour(site.average_score);
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
	const issues = site.top_issues
		.map((issue) => `<li style="margin:2px 0">${escapeHtml(issue)}</li>`)
		.join('');
	const failed = (site.failed_pages ?? [])
		.map(
			(page) => `<li style="margin:2px 0">${escapeHtml(page.url)}: ${escapeHtml(page.reason)}</li>`,
		)
		.join('');
	return [
		`<h2 style="font-size:18px;margin:0 0 8px">${escapeHtml(site.project)}</h2>`,
		trafficHtml(site),
		groupsHtml(site),
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
			toFix(site.worst_pages),
			(page) => `${escapeHtml(page.score)} (${escapeHtml(page.result_class)})`,
		),
		pageLinks(
			'Biggest drops',
			site.biggest_drops ?? [],
			(page) => `${escapeHtml(signed(Number(page.score_change)))} to ${escapeHtml(page.score)}`,
		),
		failed
			? `<h3 style="font-size:15px;margin:16px 0 4px">Not analysed</h3><ul style="margin:0;padding-left:20px">${failed}</ul>`
			: '',
	];
}

/** An e-mail body of the site alone. */
export const summaryHtml = (site: SiteText): string => htmlBox(summaryHtmlParts(site));

/** How many entries a list written as text keeps (Simplify, `summary_text`): the rest counted. */
export const SHORT_LIST = 5;

/** A list as one line of text: the first `SHORT_LIST` entries, then how many more there are. */
export function shortList(entries: string[], separator: string): string {
	const rest = entries.length - SHORT_LIST;
	return entries.slice(0, SHORT_LIST).join(separator) + (rest > 0 ? ` (+${rest} more)` : '');
}

/** A check as a list of checks writes it: `title (high) ×3`. */
export const checkText = ({ check, importance, pages }: CheckCount) =>
	`${check} (${importance}) ×${pages}`;
const checkList = (checks: CheckCount[]) => shortList(checks.map(checkText), ', ');
const pageList = (pages: Array<{ url: string | null; score: number | null }>) =>
	pages.map((page) => `${String(page.url)} ${String(page.score)}`).join(', ');

/** A group as a list of groups writes it: `Products 61.2 (240 pages) over budget`. */
const groupText = ({ name, average_score, pages, passed }: GroupFigures) =>
	`${name} ${String(average_score ?? '–')} (${plural(pages, 'page')}) ${passed ? 'within budget' : 'over budget'}`;

/** How Simplify writes the lists of Page Groups. */
const GROUP_FLATTENERS: Flatteners<SiteGroups & GroupChanges> = {
	groups: (groups) => shortList(groups.map(groupText), '; '),
	broken_groups: (names) => names.join(', '),
	breaches: (breaches) =>
		shortList(
			breaches.map(({ text }) => text),
			'; ',
		),
	groups_newly_broken: (names) => names.join(', '),
	groups_recovered: (names) => names.join(', '),
};

/** The lines that lead a site's message when Page Groups are set: the groups over budget and each breach, what changed since the last run. */
function groupLines(site: SiteText): string[] {
	if (!site.groups) return [];
	const broken = site.broken_groups ?? [];
	const changes = [
		site.groups_newly_broken?.length
			? `newly over budget: ${site.groups_newly_broken.join(', ')}`
			: '',
		site.groups_recovered?.length ? `back within budget: ${site.groups_recovered.join(', ')}` : '',
	].filter(Boolean);
	const since = !changes.length
		? ''
		: site.groups_run_before === false
			? ' (no production run before to compare with)'
			: ` (since the last run: ${changes.join('; ')})`;
	if (!broken.length)
		return [
			`${String(site.project)}: all ${plural(site.groups.length, 'page group')} within budget${since}`,
		];
	const breaches = site.breaches ?? [];
	return [
		`${String(site.project)}: ${broken.length} of ${plural(site.groups.length, 'page group')} over budget: ${broken.join(', ')}${since}`,
		...breaches.slice(0, SHORT_LIST).map(({ text }) => `- ${text}`),
		...(breaches.length > SHORT_LIST ? [`- +${breaches.length - SHORT_LIST} more`] : []),
	];
}

/** The e-mail's first part when Page Groups are set: the groups over budget with each breach, or that every group holds. */
function groupsHtml(site: SiteText): string {
	if (!site.groups) return '';
	const [lead, ...breaches] = groupLines(site);
	const broken = (site.broken_groups ?? []).length > 0;
	const colour = broken ? CLASS_COLOURS.bad : CLASS_COLOURS.good;
	const items = breaches
		.map((line) => `<li style="margin:2px 0">${escapeHtml(line.replace(/^- /, ''))}</li>`)
		.join('');
	return [
		`<div style="border-left:4px solid ${colour};padding:4px 12px;margin:0 0 12px">`,
		`<p style="margin:0;font-weight:bold;color:${colour}">${escapeHtml(lead.replace(/^[^:]*: /, ''))}</p>`,
		items ? `<ul style="margin:4px 0 0;padding-left:20px">${items}</ul>` : '',
		`</div>`,
	].join('');
}

/** A number as a message writes it: 18,400. */
export const thousands = (value: number) =>
	String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A check to fix as the lead line says it: `meta_description (high) fails on 212 pages that had 18,400 clicks …`; the period only when the data says it. */
export const fixText = (fix: CheckCount, period?: string | null) =>
	`${fix.check} (${fix.importance}) fails on ${plural(fix.pages, 'page')} that had ${thousands(fix.clicks_affected ?? 0)} clicks and ${thousands(fix.impressions_affected ?? 0)} impressions${period ? ` ${period}` : ''}`;

/** With Search Console Data, what leads a site's message: the fix touching most clicks, then the data's coverage. */
function trafficLines(site: SiteText): string[] {
	if (site.fix_first === undefined) return [];
	const [fix] = site.fix_first;
	const without = site.pages_without_traffic ?? [];
	const coverage = `Search Console data for ${String(site.pages_with_traffic)} of ${plural(site.pages, 'page')} (${String(site.traffic_coverage ?? 0)}%)${without.length ? `; no data (0 clicks): ${shortList(without, ', ')}` : ''}`;
	return [
		fix
			? `${String(site.project)}: fix first: ${fixText(fix, site.traffic_period)}`
			: `${String(site.project)}: no failing check to fix`,
		coverage,
	];
}

/** The e-mail's lead with Search Console Data: the fix touching most clicks, and the coverage. */
function trafficHtml(site: SiteText): string {
	const [lead, coverage] = trafficLines(site);
	if (lead === undefined) return '';
	return [
		`<div style="border-left:4px solid #1a73e8;padding:4px 12px;margin:0 0 12px">`,
		`<p style="margin:0;font-weight:bold">${escapeHtml(lead.replace(/^[^:]*: /, ''))}</p>`,
		`<p style="margin:4px 0 0;color:#5f6368">${escapeHtml(coverage)}</p>`,
		`</div>`,
	].join('');
}

/** How Simplify writes each list of a site (Get Health's, and Create or Re-Run's before its history). */
export const SITE_FLATTENERS: Flatteners<SiteSummary> = {
	...GROUP_FLATTENERS,
	fix_first: (checks) =>
		shortList(
			checks.map((fix) => `${checkText(fix)} ${thousands(fix.clicks_affected)} clicks`),
			', ',
		),
	pages_without_traffic: (urls) => shortList(urls, ', '),
	failing_checks: checkList,
	newly_failing_checks: checkList,
	newly_fixed_checks: checkList,
	top_issues: (issues) => issues.join('; '),
	worst_pages: pageList,
	biggest_drops: pageList,
	failed_pages: (pages) => pages.map((page) => `${page.url} (${page.reason})`).join('; '),
};

/** A site with its message: `summary_text`, and `summary_html` (the e-mail body). */
export type WithSummary<T> = T & { summary_text: string; summary_html: string };

/** A site with `summary_text` and `summary_html`, as Get Health outputs it before Simplify. */
export function withSummary<T extends SiteText>(site: T): WithSummary<T> {
	return { ...site, summary_text: summaryText(site), summary_html: summaryHtml(site) };
}
