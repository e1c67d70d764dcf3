import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { shippedCredentials } from '../repoFiles';

const trigger = new PhpRankTrigger();
const { description } = trigger;

function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...allProperties(
			(property.options ?? []).filter(
				(option): option is INodeProperties => 'displayName' in option,
			),
		),
	]);
}

describe('trigger description', () => {
	it('is a polling trigger on the phpRank credential, not an AI tool', () => {
		expect(description).toMatchObject({
			name: 'phpRankTrigger',
			displayName: 'phpRank Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
		});
		expect(description.usableAsTool).toBeUndefined();
		const [{ name }] = shippedCredentials();
		expect(description.credentials).toEqual([{ name, required: true, testedBy: `${name}Test` }]);
		expect(Object.keys(trigger.methods.credentialTest)).toEqual([`${name}Test`]);
		expect(typeof trigger.poll).toBe('function');
		expect(Object.keys(trigger.methods.listSearch)).toEqual(['searchProjects']);
	});

	it('describes every field and option in sentence case', () => {
		for (const property of allProperties(description.properties)) {
			if (property.type === 'notice' || property.type === 'collection') continue;
			expect(property.description).toMatch(/^[A-Z]/);
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				if ('value' in option) expect(option.description).toMatch(/^[A-Z]/);
			}
		}
	});

	it('offers Score Changed with its fields, Notify on Recovery, and the cost notice as one paragraph for both change events', () => {
		const event = description.properties.find((property) => property.name === 'event')!;
		expect(
			(event.options as INodePropertyOptions[]).map((option) => [option.name, option.value]),
		).toContainEqual(['Score Changed', 'scoreChanged']);
		const byName = (name: string) =>
			description.properties.find((property) => property.name === name)!;
		expect(byName('minChange')).toMatchObject({
			displayName: 'Minimum Change',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 0, maxValue: 100 },
		});
		// One Only When Worse for both change events.
		expect(
			description.properties.filter((property) => property.displayName === 'Only When Worse'),
		).toHaveLength(1);
		expect(byName('onlyWorse')).toMatchObject({
			type: 'boolean',
			default: false,
			displayOptions: { show: { event: ['resultChanged', 'scoreChanged'] } },
		});
		expect(byName('belowScore')).toMatchObject({
			displayName: 'Below Score',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, maxValue: 100 },
		});
		for (const name of ['minChange', 'belowScore'])
			expect(byName(name).displayOptions).toEqual({ show: { event: ['scoreChanged'] } });

		const notice = byName('costNotice');
		expect(notice.displayOptions).toEqual({ show: { event: ['resultChanged', 'scoreChanged'] } });
		// One paragraph of sentences: n8n 2.41's notice runs lines joined by <br> together.
		expect(notice.displayName).toBe(
			'Each poll reads up to 1,000 watched reports (10 requests). phpRank allows 60 requests a minute per user. More reports are read over several polls, so a change may take that many polls to fire. Pick a project to watch fewer.',
		);
		expect(notice.displayName).not.toMatch(/<|\.[A-Za-z]/);

		const recovery = description.properties.filter(
			(property) => property.name === 'notifyRecovery',
		);
		expect(
			recovery.map((property) => [
				property.displayName,
				property.type,
				property.default,
				property.displayOptions,
			]),
		).toEqual([
			['Notify on Recovery', 'boolean', false, { show: { event: ['scoreChanged'] } }],
			[
				'Notify on Recovery',
				'boolean',
				false,
				{ show: { event: ['resultChanged'], onlyWorse: [true] } },
			],
		]);
	});
});
