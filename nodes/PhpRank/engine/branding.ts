import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { describeValue } from '../bounds';
import { fail } from '../input';
import { runOf } from '../transport/run';

/*
 * Report Branding: the agency's name, logo, accent colour and intro text on the site's e-mail.
 * Read and checked here (`readBranding`, pure); `brandingOf` reads it once per item for the
 * operations that have it, a problem stopping the item with the field to fix.
 */

export interface Branding {
	agencyName: string;
	logoUrl: string;
	/** `#rrggbb`; '' for the default. */
	accentColor: string;
	introText: string;
}

export const DEFAULT_ACCENT = '#1a73e8';

export type BrandingCheck = { branding: Branding } | { problem: string; enter: string };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function isWebUrl(value: string): boolean {
	if (!/^https?:\/\//i.test(value)) return false;
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}

/** The branding options as set (`reportBranding`), or the first thing wrong with them. */
export function readBranding(options: IDataObject | undefined): BrandingCheck {
	const raw = options ?? {};
	const branding: Branding = {
		agencyName: text(raw.agencyName),
		logoUrl: text(raw.logoUrl),
		accentColor: text(raw.accentColor),
		introText: text(raw.introText),
	};
	if (branding.logoUrl !== '' && !isWebUrl(branding.logoUrl))
		return {
			problem: `Logo URL must be a web address (http:// or https://), not ${describeValue(raw.logoUrl)}`,
			enter:
				'Set Logo URL under Report Branding to the address of your logo image, e.g. https://agency.example.com/logo.png, or leave it empty.',
		};
	if (branding.accentColor !== '' && !/^#[0-9a-f]{6}$/i.test(branding.accentColor))
		return {
			problem: `Accent Color must be a colour written #rrggbb, not ${describeValue(raw.accentColor)}`,
			enter: `Set Accent Color under Report Branding to six hex digits after #, e.g. ${DEFAULT_ACCENT}, or leave it empty.`,
		};
	return { branding };
}

/** Whether any branding is set (the e-mail then gets a header of its own). */
export const hasBranding = (branding: Branding) =>
	branding.agencyName !== '' || branding.logoUrl !== '' || branding.introText !== '';

/** The item's Report Branding, read once per item and try; a problem stops the item naming the field. */
export const brandingOf = (ctx: IExecuteSingleFunctions): Branding =>
	runOf(ctx).setting(ctx.getItemIndex(), 'reportBranding', () => {
		const read = readBranding(ctx.getNodeParameter('reportBranding', {}) as IDataObject);
		if ('problem' in read) fail(ctx, read.problem, read.enter);
		return read.branding;
	});
