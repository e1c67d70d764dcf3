import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS } from '../../bounds';
import { type Branding, brandingOf } from '../../engine/branding';
import { boundedOption, fail, projectName } from '../../input';
import { siteSettings } from '../../site/options';
import { compareWithNames, siteTieWithin } from './compareWith';
import { pageGroupSettings } from '../../site/pageGroups';
import { checkHistoryHome } from '../../history/homes';
import { itemTraffic } from '../../site/traffic';

/** Search Console Data, or the input item's (One Digest: every site's rows in one); none: undefined. */
export const healthTraffic = itemTraffic;

/** Output → One Digest: one item for the whole account (All Projects only). */
export const isDigest = (ctx: IExecuteSingleFunctions) =>
	ctx.getNodeParameter('output', 'projects') === 'digest';

export interface DigestSettings {
	staleAfterDays: number;
	auditedWithinDays: number;
	/** E-Mail HTML: whether the digest carries `summary_html`. */
	html: boolean;
	branding: Branding;
}

/** One Digest's options as set (Stale After, E-Mail HTML, Report Branding); a bad one stops the item naming the field. */
export function digestSettings(ctx: IExecuteSingleFunctions): DigestSettings {
	const options = ctx.getNodeParameter('siteOptions', {}) as IDataObject;
	const { staleAfter } = BOUNDS;
	const staleAfterDays = boundedOption(
		ctx,
		'staleAfter',
		options.staleAfter,
		`Set Stale After under Site Options to how many days without an analysis make a site stale, from ${staleAfter.low} to ${staleAfter.high} (e.g. ${staleAfter.default}: a weekly audit missed once).`,
	);
	const { auditedWithin } = BOUNDS;
	const auditedWithinDays = boundedOption(
		ctx,
		'auditedWithin',
		options.auditedWithin,
		`Set Audited Within under Site Options to how many days a site may go without a run kept in the history table before the digest names it as not audited, from ${auditedWithin.low} to ${auditedWithin.high} (e.g. ${auditedWithin.default} for a weekly audit).`,
	);
	const branding = brandingOf(ctx);
	return { staleAfterDays, auditedWithinDays, html: options.emailHtml === true, branding };
}

/** Project → Get Health: a project (unless All Projects), Page Groups, its site options, One Digest's options, checked before anything is sent. */
export async function checkHealthInput(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const all = this.getNodeParameter('allProjects', false) as boolean;
	pageGroupSettings(this);
	if (isDigest(this)) {
		if (!all)
			fail(
				this,
				'Output is One Digest, but All Projects is off',
				'Turn on All Projects: a digest sums up every project of the account. For one project, set Output to One Item per Project.',
			);
		digestSettings(this);
		healthTraffic(this);
		checkHistoryHome(this, 'digest');
		return requestOptions;
	}
	if (!all) compareWithNames(this, projectName(this));
	if (!all) siteTieWithin(this);
	siteSettings(this);
	healthTraffic(this);
	return requestOptions;
}
