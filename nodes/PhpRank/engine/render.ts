import { classify } from '../report';
import { escapeHtml, plural, scoreColour, shortList, signed } from '../site/text';
import { type Branding, DEFAULT_ACCENT, hasBranding } from './branding';
import type { SiteHistoryFields } from '../history/historyFields';
import type { HistoryEntry } from '../history/model';
import type { SiteIssues } from '../history/issues';

/*
 * A site's history and issues for people: a line for `summary_text`, and for `summary_html` a bar
 * chart of the runs, the open issues with their age, the new and resolved ones, and the agency's
 * header. E-mail safe: tables and inline styles, no script, no image but the agency's own logo;
 * every value escaped.
 */

const GREY = '#5f6368';
const BAR_HEIGHT = 60;
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

const day = (iso: unknown) => String(iso ?? '').slice(0, 10);
const shortDay = (iso: unknown) => {
	const [, month, date] = day(iso).split('-').map(Number);
	return month ? `${date} ${MONTHS[month - 1]}` : '';
};

/** The history line of `summary_text`: runs, sparkline, change since the first and over 4 runs. */
export function historyLine(site: SiteHistoryFields): string {
	const runs = site.history;
	if (!runs.length || !site.history_text) return '';
	const changes = [
		typeof site.change_since_first === 'number'
			? `${signed(site.change_since_first)} since ${day(site.first_run_at)}`
			: '',
		typeof site.change_4_runs === 'number' ? `${signed(site.change_4_runs)} over 4 runs` : '',
	].filter(Boolean);
	const saved = site.history_saved === false ? ' (this run not saved: manual execution)' : '';
	return `History (${plural(runs.length, 'run')}): ${String(site.history_text)}${changes.length ? `, ${changes.join(', ')}` : ''}${saved}`;
}

/** The issues lines of `summary_text`: open with age (the oldest few), new, resolved (only those there are). */
export function issueLines(site: SiteIssues): string[] {
	const { open_issues: open, new_issues: fresh, resolved_issues: resolved } = site;
	return [
		open.length
			? `Open issues: ${shortList(
					open.map(
						(issue) =>
							`${issue.check} ${plural(issue.age_runs, 'run')} (since ${day(issue.failing_since)}, ${plural(issue.pages, 'page')})`,
					),
					'; ',
				)}`
			: '',
		fresh.length
			? `New: ${shortList(
					fresh.map(({ check }) => check),
					', ',
				)}`
			: '',
		resolved.length
			? `Resolved: ${shortList(
					resolved.map(({ check }) => check),
					', ',
				)}`
			: '',
	].filter(Boolean);
}

/** One column of the chart: the score above its bar, coloured by the score's class. */
function chartColumn(run: HistoryEntry, low: number): string {
	const { score } = classify(run.average_score);
	const height =
		score === null ? 0 : Math.max(2, Math.round(((score - low) / (100 - low)) * BAR_HEIGHT));
	const colour = scoreColour(score);
	const label = score === null ? '–' : String(Math.round(score));
	const title = `${day(run.date)}: ${score ?? 'no score'}, health ${String(run.health_score ?? '–')}, ${String(run.pages)} pages`;
	return (
		`<td valign="bottom" style="vertical-align:bottom;padding:0 2px;text-align:center" title="${escapeHtml(title)}">` +
		`<table role="presentation" cellpadding="0" cellspacing="0" width="100%" style="border-collapse:collapse">` +
		`<tr><td style="font-size:11px;color:${GREY};text-align:center;padding:0 0 2px">${escapeHtml(label)}</td></tr>` +
		`<tr><td height="${height}" style="height:${height}px;background:${colour};font-size:1px;line-height:1px">&nbsp;</td></tr>` +
		`</table></td>`
	);
}

/** The history as a bar chart of table cells, oldest run left, dates below. */
export function historyChart(site: SiteHistoryFields, accent: string): string {
	const runs = site.history;
	if (!runs.length) return '';
	const scores = runs
		.map((run) => classify(run.average_score).score)
		.filter((score): score is number => score !== null);
	const low = scores.length ? Math.max(0, Math.floor((Math.min(...scores) - 10) / 10) * 10) : 0;
	const dates = runs
		.map(
			(run) =>
				`<td style="font-size:10px;color:${GREY};text-align:center;padding:2px 2px 0;white-space:nowrap">${escapeHtml(shortDay(run.date))}</td>`,
		)
		.join('');
	return [
		`<h3 style="font-size:15px;margin:16px 0 4px;color:${accent}">Score over the last ${escapeHtml(plural(runs.length, 'run'))}</h3>`,
		`<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;max-width:${runs.length * 44}px">`,
		`<tr style="height:${BAR_HEIGHT + 16}px">${runs.map((run) => chartColumn(run, low)).join('')}</tr>`,
		`<tr>${dates}</tr></table>`,
		site.history_saved === false
			? `<p style="margin:4px 0 0;font-size:12px;color:${GREY}">Manual execution: this run is shown, not saved.</p>`
			: '',
	].join('');
}

function list(title: string, entries: string[], accent: string): string {
	if (!entries.length) return '';
	const items = entries.map((entry) => `<li style="margin:2px 0">${entry}</li>`).join('');
	return `<h3 style="font-size:15px;margin:16px 0 4px;color:${accent}">${title}</h3><ul style="margin:0;padding-left:20px">${items}</ul>`;
}

/** Open issues oldest first with their age, then what is new and what was resolved since the previous run. */
export function issuesHtml(site: SiteIssues, accent: string): string {
	const open = site.open_issues.map(
		(issue) =>
			`<b>${escapeHtml(issue.check)}</b> (${escapeHtml(issue.importance)}) on ${escapeHtml(plural(issue.pages, 'page'))}: open ${escapeHtml(plural(issue.age_runs, 'run'))}, ${escapeHtml(plural(issue.age_days, 'day'))}, since ${escapeHtml(day(issue.failing_since))}`,
	);
	const fresh = site.new_issues.map(
		(issue) =>
			`${escapeHtml(issue.check)} (${escapeHtml(issue.importance)}) on ${escapeHtml(plural(issue.pages, 'page'))}`,
	);
	const resolved = site.resolved_issues.map(
		(issue) =>
			`${escapeHtml(issue.check)}, open ${escapeHtml(plural(issue.age_runs, 'run'))} since ${escapeHtml(day(issue.failing_since))}`,
	);
	return [
		list('Open issues', open, accent),
		list('New since the last run', fresh, accent),
		list('Resolved since the last run', resolved, accent),
	].join('');
}

/** The agency's header (logo, name, intro text), or '' with no branding. */
export function brandingHeader(branding: Branding): string {
	if (!hasBranding(branding)) return '';
	const accent = branding.accentColor || DEFAULT_ACCENT;
	const logo = branding.logoUrl
		? `<td style="padding:0 12px 0 0;vertical-align:middle"><img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(branding.agencyName || 'Logo')}" height="32" style="display:block;height:32px;border:0"></td>`
		: '';
	const name = branding.agencyName
		? `<td style="vertical-align:middle;font-size:16px;font-weight:bold;color:#202124">${escapeHtml(branding.agencyName)}</td>`
		: '';
	const intro = branding.introText
		? `<p style="margin:12px 0 0">${escapeHtml(branding.introText).replace(/\r?\n/g, '<br>')}</p>`
		: '';
	return `<div style="border-top:4px solid ${accent};padding:12px 0;margin:0 0 12px"><table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse"><tr>${logo}${name}</tr></table>${intro}</div>`;
}

/** The accent colour of the e-mail's headings. */
export const accentOf = (branding: Branding) => branding.accentColor || '#202124';
