import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../../PhpRank/api';
import { BIGGEST_DROPS } from '../perSite';
import { MAX_REQUESTS_PER_POLL } from '../reports';

/*
 * Fields several events show. The node shows each field object once, for every event that lists
 * it (`show.event` is added there); `show` here holds only the other conditions.
 */

export const onlyWorseField: INodeProperties = {
	displayName: 'Only When Worse',
	name: 'onlyWorse',
	type: 'boolean',
	default: false,
	description:
		'Whether to fire only on drops: a class that drops (good to decent or bad, decent to bad), or a score that drops by Minimum Change (a rise then becomes the point a later drop is measured from)',
};

/** Notify on Recovery, one field for each event it serves (`when`: what a recovery is there). */
export function notifyRecoveryField(when: string, show?: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Notify on Recovery',
		name: 'notifyRecovery',
		type: 'boolean',
		default: false,
		description: `Whether to fire once more, with reason "recovered", when ${when} (whatever the Result filter)`,
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** For the events that read every watched report. One paragraph: n8n shows a notice as one block. */
export const costNotice: INodeProperties = {
	displayName: [
		`Each poll reads up to ${(MAX_REQUESTS_PER_POLL * MAX_PAGE_SIZE).toLocaleString('en-US')} watched reports (${MAX_REQUESTS_PER_POLL} requests).`,
		`phpRank allows ${DEFAULT_RATE_LIMIT} requests a minute per user.`,
		'More reports are read over several polls, so a change may take that many polls to fire.',
		'Pick a project to watch fewer.',
	].join(' '),
	name: 'costNotice',
	type: 'notice',
	default: '',
};

/** Output, for the events that have `siteLine` (perSite.ts groups what they found). */
export const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'One Item per Event',
			value: 'events',
			description: 'An item for each report that changed',
		},
		{
			name: 'One Item per Site',
			value: 'sites',
			description: `One item per site (phpRank project) and poll: the counts by reason, the ${BIGGEST_DROPS} biggest drops with links, the events (Simplify: one line of text each) and summary_text for one message. Sites with most pages dropped first.`,
		},
	],
	default: 'events',
	description:
		'Whether a poll outputs an item per event, or one per site, so that a site-wide change (a theme update that breaks every title) sends one message, not hundreds. The same requests and state either way.',
};
