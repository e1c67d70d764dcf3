import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { filtersCollection, projectLocator, resultFilter, simplifyParameter } from '../PhpRank/descriptions/common';
import { docsUrl } from '../PhpRank/docs';
import { phpRankApiTest } from '../PhpRank/methods/credentialTest';
import { searchProjects } from '../PhpRank/methods/listSearch';
import { DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../PhpRank/api';
import { MAX_REQUESTS_PER_POLL, pollReports } from './poll';

export class PhpRankTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'phpRank Trigger',
		name: 'phpRankTrigger',
		icon: { light: 'file:../PhpRank/phprank.svg', dark: 'file:../PhpRank/phprank.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] === "resultChanged" ? "Report result changed" : "New report" }}',
		description: 'Starts the workflow when a phpRank report is created or its result changes',
		defaults: { name: 'phpRank Trigger' },
		documentationUrl: docsUrl('trigger'),
		// n8n's loader adds "Poll Times" (every minute by default) to polling nodes.
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phpRankApi', required: true, testedBy: 'phpRankApiTest' }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Report',
						value: 'newReport',
						description: 'A report was created since the last poll',
					},
					{
						name: 'Report Result Changed',
						value: 'resultChanged',
						description:
							'A report’s result moved to another class (good, decent, bad) since the last poll, e.g. after it was re-run',
					},
				],
				default: 'newReport',
				description: 'What in phpRank starts the workflow',
			},
			{
				displayName: 'Only When Worse',
				name: 'onlyWorse',
				type: 'boolean',
				default: false,
				description: 'Whether to fire only when the result drops (good to decent or bad, decent to bad)',
				displayOptions: { show: { event: ['resultChanged'] } },
			},
			{
				displayName: `Each poll reads up to ${(MAX_REQUESTS_PER_POLL * MAX_PAGE_SIZE).toLocaleString('en-US')} of the reports it watches, ${MAX_REQUESTS_PER_POLL} requests (phpRank allows ${DEFAULT_RATE_LIMIT} a minute per user by default); more are read over several polls, so a change may take that many polls to fire. Pick a project to watch fewer.`,
				name: 'costNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { event: ['resultChanged'] } },
			},
			filtersCollection([
					projectLocator({ description: 'Only reports of this project (the site’s host, e.g. example.com)' }),
					resultFilter({
						description:
							'Only reports of this result class. For Report Result Changed: only changes into this class.',
					}),
			]),
			simplifyParameter,
		],
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { phpRankApiTest },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollReports.call(this);
	}
}
