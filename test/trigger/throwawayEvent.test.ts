import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/PhpRankTrigger/events/event';
import { costNotice } from '../../nodes/PhpRankTrigger/events/eventFields';
import { TRIGGER_EVENTS } from '../../nodes/PhpRankTrigger/events/index';
import { PhpRankTrigger, triggerWith } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import {
	keepUncovered,
	oldestFirst,
	readByRounds,
	type RoundMemory,
	decodeRound,
} from '../../nodes/PhpRankTrigger/reports';
import { registerTrigger, runManually } from '../harness/poll';
import { activated, triggerFixture } from './fixture';

/*
 * The trigger's promise (ARCHITECTURE.md, "Adding a trigger event"): an event is one module in
 * events/ and one entry in the list. This one exists only here: Score Reached fires when a watched
 * report's score reaches Reach from below; it keeps each report's last score.
 */
const reachField: INodeProperties = {
	displayName: 'Reach',
	name: 'reach',
	type: 'number',
	default: 90,
	description: 'The score to reach',
};

type Scores = Record<string, number | null>;
type Memory = { scores: Scores } & RoundMemory;

const scoreReached: TriggerEvent<{ reach: number }, Memory, { from: number | null }> = {
	value: 'scoreReached',
	name: 'Score Reached',
	description: 'A report’s score reached Reach',
	subtitle: 'Score reached',
	fields: [reachField, costNotice],
	listByResult: false,
	parameters: (ctx) => ({ reach: ctx.getNodeParameter('reach', 90) as number }),
	watch: ({ reach }) => [reach],
	decode: (stored) => ({
		scores: stored.scores as Scores,
		...decodeRound(stored),
	}),
	encode: (memory) => ({ ...memory }),
	read: readByRounds((records, memory: Partial<Memory>, settings, covered) => {
		const before = memory.scores ?? {};
		const scores = keepUncovered(before, covered);
		const found = [];
		for (const record of oldestFirst(records)) {
			const id = String(record.id);
			const now = typeof record.result === 'number' ? record.result : null;
			scores[id] = now;
			const from = before[id];
			if (
				typeof from === 'number' &&
				from < settings.reach &&
				now !== null &&
				now >= settings.reach
			)
				found.push({ record, detail: { from } });
		}
		return { found, memory: { scores } };
	}),
	item: (_settings, { record, detail }) => ({
		id: record.id,
		from: detail.from,
		to: record.result,
	}),
	reasons: () => ['reached'],
	sample: (settings) => ({ detail: { from: settings.reach - 1 }, madeUp: 'the previous score is' }),
};

const TYPE = 'test.phpRankTriggerWithScoreReached';
registerTrigger(TYPE, triggerWith([...TRIGGER_EVENTS, scoreReached]));

const { fixture, setScore, watch } = triggerFixture('reach');

describe('a trigger event declared outside the package (one module, one entry in the list)', () => {
	it('is offered by the node built from the list, with its field shown for it alone and the shared notice for it too', () => {
		const { description } = triggerWith([...TRIGGER_EVENTS, scoreReached]);
		const byName = (name: string) => description.properties.find((p) => p.name === name)!;
		const events = byName('event').options as INodePropertyOptions[];
		expect(events.map((option) => option.value)).toEqual([
			'newReport',
			'resultChanged',
			'scoreChanged',
			'scoreReached',
		]);
		expect(byName('reach').displayOptions).toEqual({ show: { event: ['scoreReached'] } });
		expect(byName('costNotice').displayOptions).toEqual({
			show: { event: ['resultChanged', 'scoreChanged', 'scoreReached'] },
		});
		expect(description.subtitle).toContain('"scoreReached": "Score reached"');
		// The shipped node is untouched.
		const shipped = new PhpRankTrigger().description;
		expect(shipped.properties.find((p) => p.name === 'reach')).toBeUndefined();
		expect(shipped.subtitle).not.toContain('scoreReached');
	});

	it('polls through n8n’s engine: notes the scores on activation, fires once on reaching, keeps its state', async () => {
		const [low, high, other] = [50, 95, 70].map((result, i) =>
			fixture.server.addReport({ url: `https://example.com/page-${i}`, result }),
		);
		const workflow = watch({ event: 'scoreReached', reach: 90 }, { type: TYPE });

		expect((await workflow.activate()).items).toBeNull();
		expect(workflow.savedState).toEqual({
			version: 1,
			watch: '["scoreReached","","",90]',
			scores: { [low.id]: 50, [high.id]: 95, [other.id]: 70 },
		});

		setScore(low.id, 92);
		setScore(other.id, 85);
		const fired = await workflow.poll();
		const again = await workflow.poll();

		expect(fired.error).toBeUndefined();
		expect(fired.items?.map((item) => item.json)).toEqual([
			{ event: 'scoreReached', id: low.id, from: 50, to: 92 },
		]);
		expect(again.items).toBeNull();
		expect((workflow.savedState.scores as IDataObject)[low.id]).toBe(92);
		expect(fixture.apiRequests().every((request) => request.path === '/api/v1/reports')).toBe(true);
	});

	it('gets Fetch Test Event from the shared sample, its note naming what is made up and its reasons', async () => {
		const report = fixture.server.addReport({ url: 'https://example.com/sample', result: 91 });

		const run = await runManually(
			{ event: 'scoreReached', reach: 90 },
			fixture.credential,
			{},
			TYPE,
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([
			{
				sample: true,
				note: `Sample event built from report #${report.id}: the previous score is made up so you can map them; its reason can be "reached"`,
				event: 'scoreReached',
				id: report.id,
				from: 89,
				to: 91,
			},
		]);
	});

	it('leaves the shipped events working on the same node', async () => {
		fixture.server.addReport({ url: 'https://example.com/old' });
		const workflow = await activated(watch({ event: 'newReport' }, { type: TYPE }));
		const fresh = fixture.server.addReport({ url: 'https://example.com/new' });

		expect((await workflow.poll()).items?.map((item) => item.json.id)).toEqual([fresh.id]);
	});
});
