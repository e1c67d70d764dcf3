import type {
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../api';
import { projectOfUrl } from '../../report';
import { isToolRun } from '../../transport/n8nInternals';
import { readList } from '../../transport/paging';
import { callerOf, listLink, recordLinks } from '../../transport/request';
import type { ResourceSpec } from '../../transport/resource';
import { itemFailed, runOf } from '../../transport/run';
import { inputProblem, projectName } from '../../input';
import { operationRouting, paired } from '../../engine/routes';
import { siteSettings } from '../../site/options';
import { pageGroupSettings } from '../../site/pageGroups';
import { checkHealthInput, digestSettings, healthTraffic, isDigest } from './checks';
import { readDigestHistory } from './digestHistory';
import { digest } from './digest';
import { digestItem } from './digestItem';
import { healthItem } from './healthItem';
import { compareWithNames, withBeside } from './compareWith';

/*
 * Project → Get Health: a site's health from the report list alone (site/figures.ts
 * says what it counts). One project: its reports read with phpRank's `project` filter,
 * ceil(reports / 100) requests. All Projects: every report read once, one item per project, by
 * name, or with Output → One Digest one item for them all (digest.ts). `reports` is the report
 * resource whose list is read.
 */

/** The reports read, by site (their project, else their URL's). */
function bySite(records: IDataObject[]): Map<string, IDataObject[]> {
	const sites = new Map<string, IDataObject[]>();
	for (const record of records) {
		const site = String(record.project ?? projectOfUrl(String(record.url ?? '')));
		const known = sites.get(site);
		if (known) known.push(record);
		else sites.set(site, [record]);
	}
	return sites;
}

function healthStep() {
	return async function getHealth(
		this: IExecutePaginationFunctions,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const project = (this.getNodeParameter('allProjects', false) as boolean)
				? undefined
				: projectName(this);
			const { worstPages, minChange, worstBy } = siteSettings(this);
			const groups = pageGroupSettings(this);
			const traffic = healthTraffic(this);
			const reports = run.spec;
			const caller = callerOf(this, run);
			const { items } = await readList(
				caller,
				{ ...(project ? { project } : {}), ...reports.newestFirst },
				{ perPage: MAX_PAGE_SIZE },
			);
			const sites = bySite(items);
			if (project !== undefined && !sites.has(project)) {
				throw inputProblem(
					this,
					`There are no reports of project "${project}"`,
					'Project → Get Many lists the projects that have reports: choose one of them, or create a report for a page of this site first.',
				);
			}
			const link = await recordLinks(caller);
			const shape = {
				simplify: this.getNodeParameter('simplify', true) as boolean,
				tool: isToolRun(this),
			};
			if (isDigest(this)) {
				const history = await readDigestHistory(this, [...sites.keys()].sort());
				const list = await listLink(caller);
				const siteLink = (site: string) => list({ project: site });
				const options = { now: Date.now(), reportLink: link, siteLink, groups, traffic };
				const item = digest(sites, history, digestSettings(this), options);
				return paired(this, [{ json: digestItem(item, shape) as IDataObject }]);
			}
			const names = [...sites.keys()].filter((site) => project === undefined || site === project);
			const options = { worstPages, minChange, worstBy, link };
			// Compare With: other projects beside the chosen one (compareWith.ts).
			if (project !== undefined && compareWithNames(this, project).length) {
				const item = healthItem(project, sites.get(project)!, options, shape, groups, traffic);
				const chosen = { project, records: sites.get(project)! };
				return paired(this, [{ json: await withBeside(caller, chosen, item, options, shape) }]);
			}
			return paired(
				this,
				names.sort().map((site) => ({
					json: healthItem(site, sites.get(site)!, options, shape, groups, traffic),
				})),
			);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/** The routing of Get Health: its input checked, then the step above. */
export function healthRoute(reports: ResourceSpec): INodePropertyRouting {
	return operationRouting(reports, {
		request: { method: 'GET', url: reports.path },
		send: { paginate: true, preSend: [checkHealthInput] },
		operations: { pagination: healthStep() },
	});
}
