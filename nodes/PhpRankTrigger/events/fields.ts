import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../../PhpRank/api';
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
