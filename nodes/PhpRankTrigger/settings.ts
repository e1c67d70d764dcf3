import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ResultClass } from '../PhpRank/api';
import type { ReportFilter } from './reports';

export type TriggerEvent = 'newReport' | 'resultChanged' | 'scoreChanged';

export interface Settings {
	event: TriggerEvent;
	project?: string;
	result?: ResultClass;
	/** The change events: only drops fire (a class that drops; a score that drops by Minimum Change). */
	onlyWorse: boolean;
	/** Score Changed: points; 0 off. */
	minChange: number;
	/** Score Changed: score; 0 off. */
	belowScore: number;
	/** Score Changed: fire "recovered" after Below Score; Report Result Changed (Only When Worse): after a drop. */
	notifyRecovery: boolean;
	simplify: boolean;
}

/** A number parameter within 0-100, or a NodeOperationError naming the field and what to enter. */
function scoreParameter(
	ctx: IPollFunctions,
	name: string,
	label: string,
	fallback: number,
	enter: string,
): number {
	const raw = ctx.getNodeParameter(name, fallback) as unknown;
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100)
		return value;
	throw new NodeOperationError(
		ctx.getNode(),
		`${label} must be a number from 0 to 100, not ${JSON.stringify(raw)}`,
		{
			description: enter,
		},
	);
}

/** The node's parameters, checked before any request is sent. */
export function settingsOf(ctx: IPollFunctions): Settings {
	const event = ctx.getNodeParameter('event') as TriggerEvent;
	const project = String(
		ctx.getNodeParameter('filters.project', '', { extractValue: true }) ?? '',
	).trim();
	// '' (a Result filter added without a value) is no filter.
	const result = ctx.getNodeParameter('filters.result', '') as ResultClass | '';
	const scoreChanged = event === 'scoreChanged';
	const minChange = scoreChanged
		? scoreParameter(
				ctx,
				'minChange',
				'Minimum Change',
				5,
				'Enter how many points a report’s score must move by to fire, e.g. 5 (analyses are noisy), or 0 to fire on Below Score only.',
			)
		: 0;
	const belowScore = scoreChanged
		? scoreParameter(
				ctx,
				'belowScore',
				'Below Score',
				0,
				'Enter the score (1 to 100) a report must fall below to fire, e.g. 50, or 0 to turn Below Score off.',
			)
		: 0;
	if (scoreChanged && minChange === 0 && belowScore === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Minimum Change and Below Score are both 0, so Score Changed would never fire',
			{
				description: 'Enter a Minimum Change (e.g. 5 points) or a Below Score (e.g. 50), or both.',
			},
		);
	}
	const onlyWorse = event !== 'newReport' && (ctx.getNodeParameter('onlyWorse', false) as boolean);
	return {
		event,
		project: project || undefined,
		result: result || undefined,
		onlyWorse,
		minChange,
		belowScore,
		notifyRecovery:
			(scoreChanged || (event === 'resultChanged' && onlyWorse)) &&
			(ctx.getNodeParameter('notifyRecovery', false) as boolean),
		simplify: ctx.getNodeParameter('simplify', true) as boolean,
	};
}

/**
 * What the state is kept for: when it changes, the trigger starts over quietly. The change events
 * read every report of the project whatever the Result filter; Score Changed's Below Score flags
 * hold only for the score they were set for.
 */
export function watchOf({ event, project, result, belowScore }: Settings): string {
	const watch = [event, project ?? '', event === 'newReport' ? (result ?? '') : ''];
	return JSON.stringify(event === 'scoreChanged' ? [...watch, belowScore] : watch);
}

/** The list each event reads. The change events filter by class themselves, after comparing. */
export function listFilter({ event, project, result }: Settings): ReportFilter {
	return event === 'newReport' ? { project, result } : { project };
}
