import type {
	IDisplayOptions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	filtersCollection,
	projectLocator,
	resultFilter,
	simplifyParameter,
} from '../PhpRank/descriptions/common';
import { docsUrl } from '../PhpRank/docs';
import { phpRankApiTest } from '../PhpRank/methods/credentialTest';
import { searchProjects } from '../PhpRank/methods/listSearch';
import { DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../PhpRank/api';
import { MAX_REQUESTS_PER_POLL, pollReports } from './poll';

/** Notify on Recovery, one field for each event it serves (`when`: what a recovery is there). */
function notifyRecoveryOption(when: string, show: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Notify on Recovery',
		name: 'notifyRecovery',
		type: 'boolean',
		default: false,
		description: `Whether to fire once more, with reason "recovered", when ${when} (whatever the Result filter)`,
		displayOptions: { show },
	};
}

export class PhpRankTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'phpRank Trigger',
		name: 'phpRankTrigger',
		icon: { light: 'file:../PhpRank/phprank.svg', dark: 'file:../PhpRank/phprank.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ {"newReport": "New report", "resultChanged": "Report result changed", "scoreChanged": "Score changed"}[$parameter["event"]] }}',
		description:
			'Starts the workflow when a phpRank report is created, or its result or score changes',
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
					{
						name: 'Score Changed',
						value: 'scoreChanged',
						description:
							'A report’s score moved by at least Minimum Change points, or fell below Below Score, e.g. after it was re-run. Each event says which checks failed and were fixed, and shows the score’s trend.',
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
				description:
					'Whether to fire only on drops: a class that drops (good to decent or bad, decent to bad), or a score that drops by Minimum Change (a rise then becomes the point a later drop is measured from)',
				displayOptions: { show: { event: ['resultChanged', 'scoreChanged'] } },
			},
			{
				displayName: 'Minimum Change',
				name: 'minChange',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 5,
				description:
					'Fire when a report’s score moved by at least this many points (0-100) since the trigger last fired for it, or first saw it, so slow drifts add up. Analyses are noisy: a few points is usually no real change. 0: off (Below Score only).',
				displayOptions: { show: { event: ['scoreChanged'] } },
			},
			{
				displayName: 'Below Score',
				name: 'belowScore',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 0,
				description:
					'Also fire once when a report’s score falls below this score (0-100), and again only after it was back at or above it; the event’s changes are measured from a reading at or above it. 0: off. Either this or Minimum Change is enough to fire; the item’s reason says which.',
				displayOptions: { show: { event: ['scoreChanged'] } },
			},
			notifyRecoveryOption('a report that fired Below Score is back at or above it', {
				event: ['scoreChanged'],
			}),
			notifyRecoveryOption('a report that dropped is back in the class it left or a better one', {
				event: ['resultChanged'],
				onlyWorse: [true],
			}),
			{
				// One paragraph: n8n's notice shows its text as one block, so sentences are joined by a space.
				displayName: [
					`Each poll reads up to ${(MAX_REQUESTS_PER_POLL * MAX_PAGE_SIZE).toLocaleString('en-US')} watched reports (${MAX_REQUESTS_PER_POLL} requests).`,
					`phpRank allows ${DEFAULT_RATE_LIMIT} requests a minute per user.`,
					'More reports are read over several polls, so a change may take that many polls to fire.',
					'Pick a project to watch fewer.',
				].join(' '),
				name: 'costNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { event: ['resultChanged', 'scoreChanged'] } },
			},
			filtersCollection([
				projectLocator({
					description: 'Only reports of this project (the site’s host, e.g. example.com)',
				}),
				resultFilter({
					description:
						'Only reports of this result class. For Report Result Changed: only changes into this class. For Score Changed: only reports now in this class.',
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
