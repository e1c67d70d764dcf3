import type { IDataObject } from 'n8n-workflow';

import { newestPerUrl, type SiteOptions, siteHealth } from '../../site/figures';
import { withGroups } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { SITE_FLATTENERS, summaryText, withSummary } from '../../site/text';
import { flatten } from '../../site/types';
import { type SearchConsoleRows, siteTraffic } from '../../site/traffic';

/** One site's health as Get Health outputs it (with its page groups when Page Groups are set, its clicks with Search Console Data); an AI model reads the summary's few lines, not the numbers. */
export function healthItem(
	site: string,
	records: IDataObject[],
	options: SiteOptions,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
	groups: PageGroupSettings,
	traffic?: SearchConsoleRows,
): IDataObject {
	const pages = newestPerUrl(records);
	const figures = siteHealth(pages, options);
	const plain = { project: site, ...figures, ...withGroups(pages, figures, groups, options) };
	const health = traffic
		? { ...plain, ...siteTraffic(pages, traffic, plain, groups.groups, options) }
		: plain;
	if (simplify && tool) return { project: site, health: summaryText(health) };
	return simplify ? flatten(withSummary(health), SITE_FLATTENERS) : withSummary(health);
}
