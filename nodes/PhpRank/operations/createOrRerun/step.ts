import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { projectOfUrl, sameUrlKey } from '../../report';
import { callerOf, recordLinks } from '../../transport/request';
import type { ResourceSpec } from '../../transport/resource';
import { doneBefore, fingerprintOf, itemFailed, recordDone, runOf } from '../../transport/run';
import { outputChoice } from '../../engine/reportItem';
import { operationRouting, paired } from '../../engine/routes';
import {
	checkRerunOptions,
	confirmDropPoints,
	pagesFromProject,
	reuseHours,
	searchConsoleData,
} from './checks';
import { projectStep } from './project';
import { openSiteHistory } from '../../history/keep';
import { checkHistoryOptions } from './historySettings';
import { pageItem, siteItems } from './items';
import { sharedAnalysis } from '../../engine/analysis';
import { pageGroupSettings } from '../../site/pageGroups';

/*
 * Report → Create or Re-Run: each item's URL analysed by `engine/analysis.ts` (a re-run, a create or
 * a recent report reused; a site's reports read once per run); with Retry On Fail, what an earlier
 * try did is returned, and a failed analysis makes the next try read the site again.
 * ARCHITECTURE.md tells the rest.
 */

async function createOrRerun(
	this: IExecutePaginationFunctions,
	routing: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const run = runOf(this);
	const caller = callerOf(this, run);
	const { spec } = caller;
	try {
		const body = { ...((routing.options as IHttpRequestOptions).body as IDataObject) };
		const bySite = this.getNodeParameter('output', 'pages') !== 'pages';
		// An item that fails before it joins its site (On Error → Continue) is not waited for.
		const leftOut = (error: unknown) => {
			run.itemLeftOut(this.getItemIndex());
			return Promise.reject(error);
		};
		// Page Groups read once for the item.
		const settings = pageGroupSettings(this);
		const traffic = searchConsoleData(this);
		const confirmPoints = confirmDropPoints(this);
		const options = { confirmPoints, reuseHours: reuseHours(this) };
		if (pagesFromProject(this)) {
			const step = projectStep(caller, body, { bySite, settings, analysis: options, traffic });
			return await (bySite ? step.catch(leftOut) : step);
		}
		const url = String(body[spec.createdFrom ?? 'url']);
		const fingerprint = fingerprintOf(['createOrRerun', sameUrlKey(url)]);
		const before = bySite ? undefined : doneBefore(run, this.getItemIndex(), fingerprint);
		if (before) return paired(this, before);
		// History Store → Data Table: the sites' rows read before any phpRank request.
		const project = projectOfUrl(url);
		const history = bySite
			? await openSiteHistory(this, run, project, settings.groups.length > 0).catch(leftOut)
			: undefined;
		const analysis = sharedAnalysis(caller, url, body, options);
		if (history) {
			const pages = [{ url, analysis }];
			return await siteItems(caller, project, pages, {
				settings,
				history,
				wholeSite: false,
				traffic,
			}).catch(leftOut);
		}
		const outcome = await analysis;
		const choice = outputChoice(this, await recordLinks(caller));
		const items = [{ json: pageItem(choice, outcome, confirmPoints, settings.groups, traffic) }];
		recordDone(
			run,
			this.getItemIndex(),
			fingerprint,
			items,
			outcome.action === 'created' ? spec : undefined,
		);
		return paired(this, items);
	} catch (error) {
		return await itemFailed(this, run, error);
	}
}

/** The routing of Create or Re-Run: the input checked like Create's, then the step above. */
export function createOrRerunRoute(
	spec: ResourceSpec,
	preSend: PreSendAction[],
): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend: [...preSend, checkRerunOptions, checkHistoryOptions] },
		operations: { pagination: createOrRerun },
	});
}
