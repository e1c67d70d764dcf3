import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../../bounds';
import { PUBLIC_URL_MAX_LENGTH, publicUrlProblem } from '../../publicUrl';
import { sameUrlKey } from '../../report';
import { type Branding, readBranding } from '../history/branding';
import { historyStoreOf, tableChoiceOf } from '../history/keep';
import { boundedOption, fail, textParameter } from '../input';
import { MAX_COMPETITORS } from './comparison';

/*
 * Compare With Competitors' input, checked before any request: Your URL, Competitor URLs (1 to
 * MAX_COMPETITORS, each http(s), none of them yours as phpRank compares URLs), Public URLs Only,
 * the numbers and Report Branding. Each refusal names the field.
 */

export interface CompareInput {
	yours: string;
	/** Distinct as phpRank compares URLs, in the order given. */
	competitors: string[];
	reuseHours: number;
	tieWithin: number;
	html: boolean;
	branding: Branding;
}

const options = (ctx: IExecuteSingleFunctions) =>
	ctx.getNodeParameter('options', {}) as IDataObject;

/**
 * The competitors as entered: each entry of the list, where an expression may give one URL, several
 * separated by commas, semicolons or new lines, or a list. A comma inside a URL stays (a split needs
 * a space or a new scheme after it).
 */
export function competitorUrls(value: unknown): string[] {
	const entries =
		(value as { competitor?: Array<{ url?: unknown }> } | undefined)?.competitor ?? [];
	const texts = entries.flatMap(({ url }) => (Array.isArray(url) ? url : [url]));
	return texts
		.flatMap((text) =>
			typeof text === 'string' || typeof text === 'number'
				? String(text).split(/\s*[\n;]\s*|,\s+|,(?=[a-z][a-z0-9+.-]*:\/\/)/i)
				: [text],
		)
		.map((text) => (typeof text === 'string' ? text.trim() : text))
		.filter((text) => text !== '' && text !== undefined && text !== null) as string[];
}

function isWebAddress(url: unknown): boolean {
	if (typeof url !== 'string') return false;
	try {
		const parsed = new URL(url);
		return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
	} catch {
		return false;
	}
}

/** An http(s) address, public when Public URLs Only is on; `field` names it in the error. */
function checkUrl(
	ctx: IExecuteSingleFunctions,
	url: unknown,
	field: string,
	example: string,
): void {
	if (!isWebAddress(url))
		fail(
			ctx,
			`${field} must be a full http:// or https:// address, not ${describeValue(url)}`,
			`Enter the page with its scheme, e.g. ${example}.`,
		);
	if (!options(ctx).publicUrlsOnly) return;
	const problem = publicUrlProblem(String(url));
	if (problem === undefined) return;
	const shown = String(url).length > PUBLIC_URL_MAX_LENGTH ? '' : ` ${describeValue(url)}`;
	fail(
		ctx,
		`${field}${shown} ${problem}`,
		`Options → Public URLs Only is on: enter the address of a public web page, e.g. ${example}.`,
	);
}

function readCompetitors(ctx: IExecuteSingleFunctions, yours: string): string[] {
	const given = competitorUrls(ctx.getNodeParameter('competitors', {}));
	if (given.length === 0)
		fail(
			ctx,
			'Competitor URLs has no URL',
			`Add at least one competitor’s page under Competitor URLs (1 to ${MAX_COMPETITORS}), e.g. https://competitor.example/pricing. An expression may give several, separated by commas.`,
		);
	const byKey = new Map<string, string>();
	given.forEach((url, index) => {
		const field = `Competitor URL ${index + 1}`;
		checkUrl(ctx, url, field, 'https://competitor.example/pricing');
		if (sameUrlKey(url) === sameUrlKey(yours))
			fail(
				ctx,
				`${field} (${url}) is Your URL`,
				'phpRank counts URLs that differ only in the scheme, a leading www. or a trailing slash as the same page: remove it from Competitor URLs.',
			);
		if (!byKey.has(sameUrlKey(url))) byKey.set(sameUrlKey(url), url);
	});
	if (byKey.size > MAX_COMPETITORS)
		fail(
			ctx,
			`Competitor URLs has ${byKey.size} URLs, more than the ${MAX_COMPETITORS} a comparison takes`,
			`Keep the ${MAX_COMPETITORS} competitors that matter most, or split them over two Compare With Competitors nodes.`,
		);
	return [...byKey.values()];
}

/** The comparison's input as set; bad input stops the item with an error naming the field. */
export function compareInput(ctx: IExecuteSingleFunctions): CompareInput {
	const yours = textParameter(ctx, 'yourUrl', 'Your URL', ctx.getNodeParameter('yourUrl', ''));
	checkUrl(ctx, yours, 'Your URL', 'https://example.com/pricing');
	const competitors = readCompetitors(ctx, yours);
	const { reuseHours, tieWithin } = BOUNDS;
	const branding = readBranding(ctx.getNodeParameter('reportBranding', {}) as IDataObject);
	if ('problem' in branding) fail(ctx, branding.problem, branding.enter);
	return {
		yours,
		competitors,
		reuseHours: boundedOption(
			ctx,
			'reuseHours',
			ctx.getNodeParameter('reuseHours', reuseHours.default),
			`Set Reuse Recent Analysis to how many hours a report may be reused without a new analysis, from ${reuseHours.low} (always analyse) to ${reuseHours.high} (a year), e.g. ${reuseHours.default}.`,
		),
		tieWithin: boundedOption(
			ctx,
			'tieWithin',
			ctx.getNodeParameter('tieWithin', tieWithin.default),
			`Set Tie Within to how many points apart two scores still count as a tie, from ${tieWithin.low} to ${tieWithin.high}, e.g. ${tieWithin.default}.`,
		),
		html: options(ctx).emailHtml === true,
		branding: branding.branding,
	};
}

/** The preSend check: everything above, before anything is sent. */
export async function checkCompareInput(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	compareInput(this);
	if (historyStoreOf(this) === 'dataTable') tableChoiceOf(this);
	return requestOptions;
}
