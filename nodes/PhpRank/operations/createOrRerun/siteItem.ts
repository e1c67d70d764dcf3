import {
	checkText,
	htmlBox,
	SITE_FLATTENERS,
	shortList,
	summaryHtmlParts,
	summaryText,
} from '../../site/text';
import { type Flat, type Flatteners, flatten, type SiteSummary } from '../../site/types';
import type { Branding } from '../../engine/branding';
import type { SiteHistoryFields } from '../../history/historyFields';
import {
	accentOf,
	brandingHeader,
	historyChart,
	historyLine,
	issueLines,
	issuesHtml,
} from '../../engine/render';

/*
 * The site item of Create or Re-Run (One Item per Site) with its history: the site's own fields,
 * then the history and issues; `summary_text` gains the history and issue lines, `summary_html`
 * the agency's header, the chart and the issues, composed into the summary's box. Simplify writes
 * the lists as short text. `summary_html` only with E-Mail HTML: n8n's Table view wraps every
 * cell, so a few kilobytes of HTML make the row thousands of pixels high (scripts/n8n/NOTES.md,
 * "Editor check").
 */

const day = (iso: string) => iso.slice(0, 10);

/** How Simplify writes each list of the history fields. */
const HISTORY_FLATTENERS: Flatteners<SiteHistoryFields> = {
	history: (runs) =>
		runs.map((run) => `${day(run.date)} ${String(run.average_score ?? '–')}`).join(', '),
	open_issues: (issues) =>
		shortList(
			issues.map(
				(issue) => `${checkText(issue)} ${issue.age_runs} runs since ${day(issue.failing_since)}`,
			),
			', ',
		),
	new_issues: (issues) => shortList(issues.map(checkText), ', '),
	groups_newly_broken: (names) => names.join(', '),
	groups_recovered: (names) => names.join(', '),
	resolved_issues: (issues) =>
		shortList(
			issues.map(({ check, age_runs }) => `${check} (${age_runs} runs)`),
			', ',
		),
};

/** Create or Re-Run's site item (One Item per Site): flat with Simplify, `summary_html` with E-Mail HTML. */
export type SiteItem = (
	| (SiteSummary & SiteHistoryFields)
	| (Flat<SiteSummary> & Flat<SiteHistoryFields>)
) & { summary_text: string; summary_html?: string };

/** The site item: the site's figures with its history fields (from `keepSiteRun`), as the node outputs it. */
export function siteHistoryOutput(
	site: SiteSummary,
	history: SiteHistoryFields,
	{ simplify, html }: { simplify: boolean; html: boolean },
	branding: Branding,
): SiteItem {
	const all = { ...site, ...history };
	const summary_text = [summaryText(all), historyLine(all), ...issueLines(all)]
		.filter(Boolean)
		.join('\n');
	const item = simplify
		? {
				...flatten(site, SITE_FLATTENERS),
				...flatten(history, HISTORY_FLATTENERS),
				summary_text,
			}
		: { ...all, summary_text };
	if (!html) return item;
	const accent = accentOf(branding);
	return {
		...item,
		summary_html: htmlBox([
			brandingHeader(branding),
			...summaryHtmlParts(all),
			historyChart(all, accent),
			issuesHtml(all, accent),
		]),
	};
}
