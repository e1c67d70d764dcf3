import type { IDataObject } from 'n8n-workflow';

import { shortList, siteOutput } from '../../site/text';
import type { Branding } from './branding';
import type { FailingCheck, OpenIssue, ResolvedIssue } from './issues';
import {
	accentOf,
	brandingHeader,
	historyChart,
	historyLine,
	issueLines,
	issuesHtml,
} from './render';

/*
 * The site item of Create or Re-Run (One Item per Site) with its history: the site's own fields,
 * then the history and issues; `summary_text` gains the history and issue lines, `summary_html`
 * the agency's header, the chart and the issues. Simplify writes the lists as short text.
 * `summary_html` only with E-Mail HTML: n8n's Table view wraps every cell, so a few kilobytes of
 * HTML make the row thousands of pixels high (scripts/n8n/NOTES.md, "Editor check").
 */

const checkText = ({ check, importance, pages }: FailingCheck) =>
	`${check} (${importance}) ×${pages}`;
const day = (iso: unknown) => String(iso ?? '').slice(0, 10);

/** The history fields flat, for the Table view: each list as one line of text, its first few entries. */
function flatHistory(fields: IDataObject): IDataObject {
	return {
		...fields,
		history: ((fields.history ?? []) as IDataObject[])
			.map((run) => `${day(run.date)} ${String(run.average_score ?? '–')}`)
			.join(', '),
		open_issues: shortList(
			((fields.open_issues ?? []) as OpenIssue[]).map(
				(issue) => `${checkText(issue)} ${issue.age_runs} runs since ${day(issue.failing_since)}`,
			),
			', ',
		),
		new_issues: shortList(((fields.new_issues ?? []) as FailingCheck[]).map(checkText), ', '),
		resolved_issues: shortList(
			((fields.resolved_issues ?? []) as ResolvedIssue[]).map(
				({ check, age_runs }) => `${check} (${age_runs} runs)`,
			),
			', ',
		),
	};
}

/** The site item: the site's figures with `history` fields (from `siteHistory`), as the node outputs it. */
export function siteHistoryOutput(
	site: IDataObject,
	history: IDataObject,
	{ simplify, html: withHtml }: { simplify: boolean; html: boolean },
	branding: Branding,
): IDataObject {
	const { summary_text, summary_html, ...figures } = siteOutput(site, simplify);
	const all = { ...site, ...history };
	const accent = accentOf(branding);
	const html = String(summary_html);
	const open = html.indexOf('>') + 1;
	const text = [summary_text, historyLine(all), ...issueLines(all)].filter(Boolean).join('\n');
	const item = { ...figures, ...(simplify ? flatHistory(history) : history), summary_text: text };
	if (!withHtml) return item;
	// Inside the summary's own box, so that the e-mail keeps one width and font.
	return {
		...item,
		summary_html:
			html.slice(0, open) +
			brandingHeader(branding) +
			html.slice(open, -'</div>'.length) +
			historyChart(all, accent) +
			issuesHtml(all, accent) +
			'</div>',
	};
}
