import type { IDataObject } from 'n8n-workflow';

/*
 * n8n starts a poll on every tick of Poll Times whether or not the node's previous poll has ended
 * (n8n-core's TriggersAndPollers.runPollFunction only counts overlaps), and without durable poll
 * cursors every poll of a node shares one static data object: two polls that read the same state
 * would both fire its events. Per trigger node, in this process:
 * - a lease: a poll that starts while another one holds an unexpired lease returns nothing (the
 *   running poll reports the same events). It lasts the poll's time budget, so a poll that hangs
 *   does not silence the trigger;
 * - a generation: a poll that ends after another one committed (its lease had expired) drops its
 *   result and leaves the state alone; the next poll starts from the newer state.
 * It also bridges the activation poll under durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED):
 * n8n runs that poll as a test and does not commit what it staged (n8n-core's PollTriggerExecutor
 * commits only when `!testingTrigger`), so the first scheduled poll would find no state and take
 * its own starting point, losing what was created in between. The state of a poll that found none
 * is kept here until the static data has one.
 */

interface Lease {
	holder?: object;
	expiresAt: number;
	generation: number;
	/** The state a poll that found none wrote, until a poll finds one in static data. */
	baseline?: IDataObject;
}

const leases = new Map<string, Lease>();

export interface PollTurn {
	key: string;
	holder: object;
	generation: number;
}

/** A poll's turn on the node `key`, or undefined while another poll holds one. */
export function beginPoll(key: string, leaseMs: number, now = Date.now()): PollTurn | undefined {
	const lease = leases.get(key) ?? { expiresAt: 0, generation: 0 };
	leases.set(key, lease);
	if (lease.holder && lease.expiresAt > now) return undefined;
	lease.holder = {};
	lease.expiresAt = now + leaseMs;
	return { key, holder: lease.holder, generation: lease.generation };
}

/** Whether the poll may write its state and emit: no other poll committed since it began. */
export function commitPoll(turn: PollTurn): boolean {
	const lease = leases.get(turn.key);
	if (!lease || lease.generation !== turn.generation) return false;
	lease.generation++;
	return true;
}

export function endPoll(turn: PollTurn): void {
	const lease = leases.get(turn.key);
	if (lease?.holder === turn.holder) lease.holder = undefined;
}

/** The kept state for `watch`, as a copy. */
export function recallBaseline(key: string, watch: string): IDataObject | undefined {
	const baseline = leases.get(key)?.baseline;
	return baseline?.watch === watch
		? (JSON.parse(JSON.stringify(baseline)) as IDataObject)
		: undefined;
}

export function keepBaseline(key: string, state: IDataObject | undefined): void {
	const lease = leases.get(key);
	if (lease) lease.baseline = state && (JSON.parse(JSON.stringify(state)) as IDataObject);
}
