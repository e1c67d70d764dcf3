import type {
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
import type { TriggerEvent } from './events/event';
import { TRIGGER_EVENTS } from './events/index';
import { pollReports } from './poll';

function eventOption(events: readonly TriggerEvent[]): INodeProperties {
	const first = events[0].value;
	return {
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: events.map(({ name, value, description }) => ({ name, value, description })),
		default: first,
		description: 'What in phpRank starts the workflow',
	};
}

/**
 * Each event's fields, each field object once, shown for the events that list it. A field new to
 * the list goes right after the previous field of the same event, so each event keeps its order.
 */
function eventFields(events: readonly TriggerEvent[]): INodeProperties[] {
	const placed: INodeProperties[] = [];
	const shownFor = new Map<INodeProperties, string[]>();
	for (const { value, fields } of events) {
		let at = -1;
		for (const field of fields) {
			if (!shownFor.has(field)) placed.splice(at + 1, 0, field);
			shownFor.set(field, [...(shownFor.get(field) ?? []), value]);
			at = placed.indexOf(field);
		}
	}
	return placed.map((field) => ({
		...field,
		displayOptions: { show: { event: shownFor.get(field), ...field.displayOptions?.show } },
	}));
}

const subtitle = (events: readonly TriggerEvent[]): string => {
	const names = events.map(({ value, subtitle }) => `"${value}": "${subtitle}"`).join(', ');
	return `={{ {${names}}[$parameter["event"]] }}`;
};

const triggerProperties = (events: readonly TriggerEvent[]): INodeProperties[] => [
	eventOption(events),
	...eventFields(events),
	filtersCollection([
		projectLocator({
			description: 'Only reports of this project (the site’s host, e.g. example.com)',
		}),
		resultFilter({
			description: ['Only reports of this result class.', ...events.map((e) => e.resultNote ?? '')]
				.filter(Boolean)
				.join(' '),
		}),
	]),
	simplifyParameter,
];

export class PhpRankTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'phpRank Trigger',
		name: 'phpRankTrigger',
		icon: { light: 'file:../PhpRank/phprank.svg', dark: 'file:../PhpRank/phprank.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: subtitle(TRIGGER_EVENTS),
		description:
			'Starts the workflow when a phpRank report is created, or its result or score changes',
		defaults: { name: 'phpRank Trigger' },
		documentationUrl: docsUrl('trigger'),
		// n8n's loader adds "Poll Times" (every minute by default) to polling nodes.
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phpRankApi', required: true, testedBy: 'phpRankApiTest' }],
		properties: triggerProperties(TRIGGER_EVENTS),
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { phpRankApiTest },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollReports.call(this, TRIGGER_EVENTS);
	}
}

/** The same trigger over another list of events (test/trigger/throwawayEvent.test.ts adds one). */
export function triggerWith(events: readonly TriggerEvent[]): INodeType {
	const shipped = new PhpRankTrigger();
	return {
		description: {
			...shipped.description,
			subtitle: subtitle(events),
			properties: triggerProperties(events),
		},
		methods: shipped.methods,
		async poll(this: IPollFunctions) {
			return await pollReports.call(this, events);
		},
	};
}
