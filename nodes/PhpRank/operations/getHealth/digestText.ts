import { type Branding } from '../../engine/branding';
import { accentOf, brandingHeader } from '../../engine/render';
import {
	checkText,
	escapeHtml,
	fixText,
	htmlBox,
	plural,
	scoreColour,
	shortList,
	signed,
	thousands,
} from '../../site/text';
import type { Digest, DigestSite, DigestTotals, Flatteners } from '../../site/types';

/*
 * One Digest written for people: `summary_text` (a chat message of at most SUMMARY_LINES lines,
 * sites worst first, the rest as "+N more") and `summary_html` (an e-mail body: the agency's
 * header, the totals, a table of one row per site with its score line). E-mail safe: tables and
 * inline styles only; every value from phpRank or the table escaped.
 */

/** The most lines `summary_text` has. */
export const SUMMARY_LINES = 40;

const GREY = '#5f6368';
const day = (iso: string | null) => (iso ?? '').slice(0, 10);

type DigestHead = DigestTotals &
	Pick<Digest, 'stale_after_days' | 'history_note' | 'not_audited' | 'audited_within_days'>;

/** The first line: the account in figures. */
function headLine(digest: DigestHead): string {
	const moves =
		digest.worse_sites === null
			? ''
			: `; ${digest.worse_sites} worse, ${String(digest.better_sites)} better than 4 runs ago`;
	const stale = digest.stale_sites
		? `; ${plural(digest.stale_sites, 'site')} stale (no analysis for ${plural(digest.stale_after_days, 'day')})`
		: '';
	const budgets =
		digest.sites_over_budget === undefined
			? ''
			: `; ${plural(digest.sites_over_budget, 'site')} over budget (${plural(digest.broken_groups ?? 0, 'page group')})`;
	const clicks =
		digest.traffic_clicks === undefined
			? ''
			: `; ${thousands(digest.clicks_affected ?? 0)} of ${thousands(digest.traffic_clicks)} clicks on pages with a failing check`;
	return `phpRank: ${plural(digest.total_sites, 'site')}, ${plural(digest.total_pages, 'page')}, average ${String(digest.average_score ?? '–')}${moves}${budgets}${clicks}${stale}`;
}

/** With Search Console Data, the digest's lead: the fix touching most clicks in the account ('' without data). */
function fixFirstLine(digest: DigestHead): string {
	if (digest.fix_first === undefined) return '';
	const [fix] = digest.fix_first;
	return fix
		? `Fix first: ${fix.project}: ${fixText(fix, digest.traffic_period)}`
		: 'Fix first: no failing check on any site';
}

/** A site's clicks in its score line: its first fix and the data's coverage ('' without data). */
function trafficWords(site: DigestSite): string {
	if (site.traffic_coverage === undefined) return '';
	const fix = site.fix_first
		? `fix first ${site.fix_first.check} (${site.fix_first.importance}): ${thousands(site.fix_first.clicks_affected)} clicks`
		: 'no failing check';
	return `; ${fix}; Search Console data for ${String(site.traffic_coverage ?? 0)}% of pages`;
}

/** The sites not audited within Audited Within days, the first few by name and why ('' for none). */
function notAuditedLine(digest: DigestHead): string {
	if (!digest.not_audited.length) return '';
	const sites = shortList(
		digest.not_audited.map(({ project, last_audit }) =>
			last_audit ? `${project} (last run ${last_audit.slice(0, 10)})` : `${project} (never)`,
		),
		', ',
	);
	return `Not audited within ${plural(digest.audited_within_days ?? 0, 'day')}: ${plural(digest.not_audited.length, 'site')}: ${sites}`;
}

/** A site's changes, in words: `−4.1 over 4 runs, +2 in 30 days` ('' without a history). */
function changeWords(site: DigestSite): string {
	return [
		site.change_4_runs === null ? '' : `${signed(site.change_4_runs)} over 4 runs`,
		site.change_30_days === null ? '' : `${signed(site.change_30_days)} in 30 days`,
	]
		.filter(Boolean)
		.join(', ');
}

/** A site's score line: health, score and class, changes, high issues, oldest issue, staleness. */
export function scoreLine(site: DigestSite): string {
	const score =
		site.average_score === null
			? 'no score'
			: `score ${site.average_score} (${String(site.result_class)})`;
	const changes = changeWords(site);
	const oldest =
		site.oldest_issue === null
			? ''
			: `, oldest ${site.oldest_issue} ${plural(site.oldest_issue_days ?? 0, 'day')}`;
	const stale = site.stale
		? `; stale: last analysed ${site.days_since_analysis === null ? 'never' : `${plural(site.days_since_analysis, 'day')} ago`}`
		: '';
	const broken = site.broken_groups?.length
		? `; over budget: ${site.broken_groups.join(', ')}`
		: '';
	return `health ${site.health_score ?? '–'}/100, ${score}${broken}${changes ? `, ${changes}` : ''}; ${plural(site.open_high_issues, 'high issue')}${oldest}${trafficWords(site)}${stale}`;
}

/** `summary_text`: the totals, then one line per site, worst first, within SUMMARY_LINES lines. */
export function digestText(digest: DigestHead, sites: readonly DigestSite[]): string {
	const head = [
		fixFirstLine(digest),
		headLine(digest),
		notAuditedLine(digest),
		digest.history_note ?? '',
	].filter(Boolean);
	const room = SUMMARY_LINES - head.length;
	const shown = sites.length <= room ? sites.length : room - 1;
	const lines = sites
		.slice(0, shown)
		.map((site, index) => `${index + 1}. ${site.project}: ${scoreLine(site)} ${site.link}`);
	const more = sites.length - shown;
	return [...head, ...lines, ...(more > 0 ? [`+${more} more`] : [])].join('\n');
}

const cell = (content: string, extra = '') =>
	`<td style="padding:6px 8px;border-bottom:1px solid #e0e0e0;vertical-align:top${extra}">${content}</td>`;

/** A site's row: its name linked, its score line under it; health as a badge coloured by the health shown. */
function siteRow(site: DigestSite, index: number): string {
	const badge = `<span style="display:inline-block;background:${scoreColour(site.health_score)};color:#ffffff;font-weight:bold;padding:2px 8px;border-radius:8px">${escapeHtml(site.health_score ?? '–')}</span>`;
	const stale = site.stale ? ` <span style="color:#d93025;font-weight:bold">stale</span>` : '';
	const name = `<a href="${escapeHtml(site.link)}" style="color:#1a73e8;font-weight:bold">${escapeHtml(site.project)}</a>${stale}`;
	const line = `<div style="font-size:12px;color:${GREY};margin-top:2px">${escapeHtml(scoreLine(site))}</div>`;
	return `<tr>${cell(escapeHtml(index + 1), ';color:#5f6368')}${cell(badge, ';text-align:center')}${cell(name + line)}${cell(escapeHtml(day(site.last_analysed)), ';white-space:nowrap')}</tr>`;
}

/** `summary_html`: the agency's header, the totals, then a table of one row per site, worst first. */
export function digestHtml(
	digest: DigestHead,
	sites: readonly DigestSite[],
	branding: Branding,
): string {
	const accent = accentOf(branding);
	const head = `<tr>${['#', 'Health', 'Site', 'Last analysed'].map((title) => `<th style="text-align:left;padding:6px 8px;border-bottom:2px solid ${accent};font-size:12px;color:${GREY}">${title}</th>`).join('')}</tr>`;
	const notAudited = notAuditedLine(digest);
	const fix = fixFirstLine(digest);
	return htmlBox([
		brandingHeader(branding),
		`<h2 style="font-size:18px;margin:0 0 8px;color:${accent}">Your sites this week</h2>`,
		fix
			? `<p style="margin:0 0 12px;padding:4px 12px;border-left:4px solid #1a73e8;font-weight:bold">${escapeHtml(fix)}</p>`
			: '',
		`<p style="margin:0 0 12px">${escapeHtml(headLine(digest))}</p>`,
		notAudited
			? `<p style="margin:0 0 12px;color:#d93025;font-weight:bold">${escapeHtml(notAudited)}</p>`
			: '',
		digest.history_note
			? `<p style="margin:0 0 12px;font-size:12px;color:${GREY}">${escapeHtml(digest.history_note)}</p>`
			: '',
		`<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%">${head}${sites.map(siteRow).join('')}</table>`,
	]);
}

/** How Simplify writes the digest's one list: the worst few sites, the rest counted. */
export const DIGEST_FLATTENERS: Flatteners<Digest> = {
	sites: (sites) =>
		shortList(
			sites.map(
				(site) =>
					`${site.project} health ${site.health_score ?? '–'} score ${site.average_score ?? '–'}`,
			),
			'; ',
		),
	fix_first: (fixes) =>
		shortList(
			fixes.map(
				(fix) => `${fix.project}: ${checkText(fix)} ${thousands(fix.clicks_affected)} clicks`,
			),
			'; ',
		),
	not_audited: (sites) =>
		shortList(
			sites.map(({ project }) => project),
			', ',
		),
};
