import type { IDataObject } from 'n8n-workflow';

import { newestPerUrl, type SiteOptions, siteHealth } from '../site/figures';
import { SITE_FLATTENERS, summaryText, withSummary } from '../site/text';
import { flatten } from '../site/types';

/** One site's health as Get Health outputs it; an AI model reads the summary's few lines, not the numbers. */
export function healthItem(
	site: string,
	records: IDataObject[],
	options: SiteOptions,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
): IDataObject {
	const health = { project: site, ...siteHealth(newestPerUrl(records), options) };
	if (simplify && tool) return { project: site, health: summaryText(health) };
	return simplify ? flatten(withSummary(health), SITE_FLATTENERS) : withSummary(health);
}
