import type { IDataObject } from 'n8n-workflow';

/*
 * One poll at a time per trigger node, in this process: a lease, a generation, and the state of a
 * poll that found none kept until static data has one (ARCHITECTURE.md, "One poll at a time").
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
