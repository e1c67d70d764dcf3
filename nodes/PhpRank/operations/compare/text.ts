import type { IDataObject } from 'n8n-workflow';

import type { Branding } from '../../engine/branding';
import { accentOf, brandingHeader } from '../../engine/render';
import { CLASS_COLOURS, escapeHtml, htmlBox, plural, signed, thousands } from '../../site/text';
import type { CheckRow, Comparison, Competitor, Lead } from '../../engine/comparison';

/*
 * A comparison written for people: `summary_text` (chat, an AI tool's answer), `summary_html` (an
 * e-mail body: inline styles, every value from phpRank or the input escaped), and the short text
 * columns of Simplify. Each leads with what to fix first: the most important checks your
 * competitors pass and you fail.
 */

const someone = (c: Comparison) =>
	c.competitors.length === 1
		? { who: 'Your competitor', pass: 'passes' }
		: { who: 'Your competitors', pass: 'pass' };

/** `title (2 of 3)` with several competitors, `title` with one. */
const leadName = (c: Comparison, lead: Lead) =>
	c.competitors.length === 1
		? lead.check
		: `${lead.check} (${lead.competitors.length} of ${c.competitors.length})`;

/** The first line: the most important checks they pass and you fail, or that there are none. */
export function fixFirst(c: Comparison): string {
	const { who, pass } = someone(c);
	if (c.competitors.length === 0) return 'No competitor could be compared.';
	const level = c.they_lead_on[0]?.importance;
	if (level === undefined) return `${who} ${pass} no check your page fails.`;
	const first = c.they_lead_on.filter((lead) => lead.importance === level);
	const names = first.map((lead) => leadName(c, lead)).join(', ');
	const clicks =
		c.clicks_affected === undefined
			? ''
			: ` Your page had ${thousands(c.clicks_affected)} clicks and ${thousands(c.impressions_affected ?? 0)} impressions${c.traffic_period ? ` ${c.traffic_period}` : ''}.`;
	return `${who} ${pass} ${plural(first.length, `${level} check`)} you fail: ${names}.${clicks}`;
}

const scoreOf = (score: number | null) => (score === null ? 'no score' : String(score));

/** `b.com 91, ahead by 19`, `c.com 70, tie (−2)`. */
export function standing(entry: Competitor): string {
	const { gap, verdict } = entry;
	const where =
		gap === null || verdict === null
			? ''
			: verdict === 'tie'
				? `, tie (${signed(gap)})`
				: `, ${verdict} by ${Math.abs(gap)}`;
	const change =
		entry.gap_change === undefined || entry.gap_change === null
			? ''
			: ` (${signed(entry.gap_change)} since the last comparison)`;
	return `${entry.url} ${scoreOf(entry.score)}${where}${change}`;
}

/** History Store → Data Table: who overtook you since the last comparison, and who is new to it and ahead. */
function overtakenLine(c: Comparison): string | undefined {
	const isNew = (url: string) => c.competitors.find((e) => e.url === url)?.previous_gap === null;
	const passed = (c.overtaken_by ?? []).filter((url) => !isNew(url));
	const added = (c.overtaken_by ?? []).filter(isNew);
	const lines = [
		passed.length ? `Overtaken since the last comparison by ${passed.join(', ')}.` : '',
		added.length ? `New to the comparison and ahead of you: ${added.join(', ')}.` : '',
	];
	return lines.filter(Boolean).join(' ') || undefined;
}

/** The best competitor against you, in words. */
function bestLine(c: Comparison): string | undefined {
	const best = c.competitors.find(({ url }) => url === c.best_competitor);
	if (!best || c.score_gap === null) return undefined;
	if (c.score_gap > 0) return `Best competitor: ${best.url}, ${c.score_gap} points above you.`;
	if (c.score_gap === 0) return `Best competitor: ${best.url}, level with you.`;
	return `You score highest, ${Math.abs(c.score_gap)} points above the best competitor, ${best.url}.`;
}

const leadList = (c: Comparison, leads: Lead[]) =>
	leads.map((lead) => `${leadName(c, lead)} [${lead.importance}]`).join(', ');

/** A few lines for chat (and, its first three, an AI tool's answer). */
export function summaryText(c: Comparison, { links = true }: { links?: boolean } = {}): string {
	const first = c.they_lead_on[0]?.importance;
	const more = c.they_lead_on.filter((lead) => lead.importance !== first);
	const lines = [
		fixFirst(c),
		overtakenLine(c),
		`Scores: you ${scoreOf(c.you.score)} (${c.you.url})${c.competitors.map((entry) => `; ${standing(entry)}`).join('')}.`,
		bestLine(c),
		more.length ? `They also lead on: ${leadList(c, more)}.` : undefined,
		c.you_lead_on.length ? `You lead on: ${leadList(c, c.you_lead_on)}.` : undefined,
		c.not_comparable.length
			? `Not comparable: ${c.not_comparable.map(({ url, reason }) => `${url} (${reason})`).join('; ')}.`
			: undefined,
		links
			? `Reports: ${[c.you, ...c.competitors].map(({ url, link }) => `${url} ${link}`).join('; ')}`
			: undefined,
	];
	return lines.filter((line): line is string => line !== undefined).join('\n');
}

/** What an AI model reads aloud: the first lines, no links. */
export const toolText = (c: Comparison) => summaryText(c, { links: false });

const h3 = (text: string, accent: string) =>
	`<h3 style="font-size:15px;margin:16px 0 4px;color:${accent}">${escapeHtml(text)}</h3>`;

function htmlList(title: string, entries: string[], accent: string): string {
	if (!entries.length) return '';
	const items = entries.map((entry) => `<li style="margin:2px 0">${entry}</li>`).join('');
	return `${h3(title, accent)}<ul style="margin:0;padding-left:20px">${items}</ul>`;
}

function scoreRow(entry: Comparison['you'] & Partial<Competitor>, mine: boolean): string {
	const colour = (entry.result_class && CLASS_COLOURS[entry.result_class]) ?? '#5f6368';
	const cell = 'padding:4px 8px;border-bottom:1px solid #e8eaed';
	const gap = entry.gap === undefined || entry.gap === null ? '' : signed(entry.gap);
	const verdict = mine ? 'you' : (entry.verdict ?? '');
	return `<tr${mine ? ' style="font-weight:bold"' : ''}><td style="${cell}"><a href="${escapeHtml(entry.link)}" style="color:#1a73e8">${escapeHtml(entry.url)}</a></td><td style="${cell}"><span style="display:inline-block;background:${colour};color:#ffffff;font-weight:bold;padding:2px 8px;border-radius:10px">${escapeHtml(scoreOf(entry.score))}</span></td><td style="${cell}">${escapeHtml(gap)}</td><td style="${cell}">${escapeHtml(verdict)}</td></tr>`;
}

const leadHtml = (c: Comparison, lead: Lead, side: string) =>
	`<b>${escapeHtml(lead.check)}</b> (${escapeHtml(lead.importance)}): ${escapeHtml(side)} ${escapeHtml(lead.competitors.join(', '))}${c.competitors.length > 1 ? ` (${lead.competitors.length} of ${c.competitors.length})` : ''}`;

/** The e-mail body: the agency's header, what to fix first, the scores as a table, the checks each side leads on. */
export function summaryHtml(c: Comparison, branding: Branding): string {
	const accent = accentOf(branding);
	const head = 'text-align:left;padding:4px 8px;border-bottom:2px solid #dadce0';
	const table = `<table role="presentation" style="border-collapse:collapse;width:100%;margin:8px 0"><tr><th style="${head}">Site</th><th style="${head}">Score</th><th style="${head}">Gap</th><th style="${head}">Verdict</th></tr>${scoreRow(c.you, true)}${c.competitors.map((entry) => scoreRow(entry, false)).join('')}</table>`;
	const best = bestLine(c);
	return htmlBox([
		brandingHeader(branding),
		`<h2 style="font-size:18px;margin:0 0 8px;color:${accent}">${escapeHtml(c.you.url)} beside ${escapeHtml(plural(c.competitors.length, 'competitor'))}</h2>`,
		`<p style="margin:0 0 8px;font-weight:bold">${escapeHtml(fixFirst(c))}</p>`,
		overtakenLine(c)
			? `<p style="margin:0 0 8px;color:#d93025">${escapeHtml(overtakenLine(c))}</p>`
			: '',
		table,
		best ? `<p style="margin:0 0 8px">${escapeHtml(best)}</p>` : '',
		htmlList(
			'Fix first: they pass, you fail',
			c.they_lead_on.map((lead) => leadHtml(c, lead, 'passed by')),
			accent,
		),
		htmlList(
			'You lead on',
			c.you_lead_on.map((lead) => leadHtml(c, lead, 'failed by')),
			accent,
		),
		htmlList(
			'Not comparable',
			c.not_comparable.map(({ url, reason }) => `${escapeHtml(url)}: ${escapeHtml(reason)}`),
			accent,
		),
	]);
}

/** `title (high): you fail, 2 of 3 pass`. */
export function checkLine(row: CheckRow, competitors: number): string {
	const you =
		row.you_pass === null ? 'not checked for you' : row.you_pass ? 'you pass' : 'you fail';
	return `${row.check} (${row.importance}): ${you}, ${row.passed_by.length} of ${competitors} pass`;
}

/** Simplify: each list as one short text column; `checks` only where the sites differ. */
export function simplified(c: Comparison): IDataObject {
	const n = c.competitors.length;
	// A check where every site that has it stands the same (all pass, or all fail) is left out.
	const differs = (row: CheckRow) =>
		new Set([
			...(row.you_pass === null ? [] : [row.you_pass]),
			...(row.passed_by.length ? [true] : []),
			...(row.failed_by.length ? [false] : []),
		]).size > 1;
	const lines = (rows: CheckRow[]) => rows.map((row) => checkLine(row, n)).join('; ');
	const rowOf = (lead: Lead) => c.checks.find(({ check }) => check === lead.check)!;
	return {
		you: `${c.you.url} ${scoreOf(c.you.score)} (${c.you.result_class ?? 'no class'})`,
		you_link: c.you.link,
		competitors: c.competitors.map(standing).join('; '),
		best_competitor: c.best_competitor,
		score_gap: c.score_gap,
		they_lead_on: lines(c.they_lead_on.map(rowOf)),
		you_lead_on: lines(c.you_lead_on.map(rowOf)),
		checks: lines(c.checks.filter(differs)),
		not_comparable: c.not_comparable.map(({ url, reason }) => `${url} (${reason})`).join('; '),
		tie_within: c.tie_within,
		...(c.overtaken_by ? { overtaken_by: c.overtaken_by.join(', ') } : {}),
		...(c.clicks_affected === undefined
			? {}
			: {
					clicks_affected: c.clicks_affected,
					impressions_affected: c.impressions_affected,
					traffic_period: c.traffic_period,
					traffic_data: c.traffic_data,
				}),
	};
}
