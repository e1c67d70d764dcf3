import type {
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { connectionOf, instanceUrl } from '../transport/connection';
import { isToolRun } from '../transport/n8nInternals';
import { readList } from '../transport/paging';
import { recordPath } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import { itemFailed, runOf } from '../transport/run';
import { checkHealthInput, inputProblem, projectName, siteSettings } from './input';
import { projectOfUrl } from '../report';
import { operationRouting, paired } from './routes';
import { newestPerUrl, type SiteOptions, siteHealth, siteOutput, summaryText } from './site';

/*
 * Project → Get Health: a site's health from the report list alone (operations/site.ts says what
 * it counts). One project: its reports read with phpRank's `project` filter, ceil(reports / 100)
 * requests. All Projects: every report read once, ceil(all reports / 100) requests, one item per
 * project, by name. `reports` is the report resource whose list is read.
 */

function healthStep(reports: ResourceSpec) {
	return async function getHealth(
		this: IExecutePaginationFunctions,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const project = (this.getNodeParameter('allProjects', false) as boolean)
				? undefined
				: projectName(this);
			const { worstPages, minChange } = siteSettings(this);
			const { items } = await readList(
				this,
				reports,
				{ ...(project ? { project } : {}), ...reports.newestFirst },
				{ perPage: MAX_PAGE_SIZE },
				run,
			);
			const bySite = new Map<string, IDataObject[]>();
			for (const record of items) {
				const site = String(record.project ?? projectOfUrl(String(record.url ?? '')));
				const records = bySite.get(site);
				if (records) records.push(record);
				else bySite.set(site, [record]);
			}
			if (project !== undefined && !bySite.has(project)) {
				throw inputProblem(
					this,
					`There are no reports of project "${project}"`,
					'Project → Get Many lists the projects that have reports: choose one of them, or create a report for a page of this site first.',
				);
			}
			const instance = instanceUrl(await connectionOf(this));
			const options: SiteOptions = {
				worstPages,
				minChange,
				link: (id) => `${instance}${recordPath(reports, id)}`,
			};
			const simplify = this.getNodeParameter('simplify', true) as boolean;
			const sites = [...bySite.keys()]
				.filter((site) => project === undefined || site === project)
				.sort();
			return paired(
				this,
				sites.map((site) => {
					const health = { project: site, ...siteHealth(newestPerUrl(bySite.get(site)!), options) };
					// An AI model reads the summary's few lines, not the numbers behind them.
					if (simplify && isToolRun(this))
						return { json: { project: site, health: summaryText(health) } };
					return { json: siteOutput(health, simplify) };
				}),
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
		operations: { pagination: healthStep(reports) },
	});
}
