import {
	emptyHistory,
	groupCheck,
	ofGroupCheck,
	type RunRecord,
	type SiteHistory,
	type StreakStart,
} from './model';

/*
 * A site's history as one short string in the workflow's static data (n8n saves it with the
 * workflow after each production run): `1|runs|execution|first|carried|records`. The records are
 * numbers written one after the other, each in base 32 with its last digit from another alphabet
 * (so no separators): per record the date's change less the previous change, the average (in
 * tenths) and health less the previous ones, the pages without a score, good, decent and bad less
 * the previous ones, and the checks whose failing changed (their indexes in the node's check
 * table). Measured: ARCHITECTURE.md, "A site's history".
 */

const VERSION = '1';
/** Digits of a number, all but its last; `LAST` has the last digit. JSON keeps both as they are. */
const MORE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz_-';
const LAST = '0123456789abcdefghijklmnopqrstuv';

const b36 = (value: number) => value.toString(36);
const int36 = (text: string) => (/^-?[0-9a-z]+$/.test(text) ? Number.parseInt(text, 36) : NaN);
const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);
const unzigzag = (value: number) => (value % 2 ? -(value + 1) / 2 : value / 2);

function writeNumber(value: number): string {
	let text = LAST[value % 32];
	for (let rest = Math.floor(value / 32); rest > 0; rest = Math.floor(rest / 32))
		text = MORE[rest % 32] + text;
	return text;
}

/** Reads the numbers of `text` in order; NaN once it runs out or meets a stranger. */
function numberReader(text: string): { next: () => number; done: () => boolean } {
	let position = 0;
	return {
		next() {
			let value = 0;
			while (position < text.length) {
				const char = text[position++];
				const last = LAST.indexOf(char);
				if (last !== -1) return value * 32 + last;
				const more = MORE.indexOf(char);
				if (more === -1) break;
				value = value * 32 + more;
			}
			position = text.length;
			return NaN;
		},
		done: () => position >= text.length,
	};
}

/** A check's index in the node's check table; a new check is appended (the table only ever grows). */
function indexOf(check: string, table: string[]): number {
	const index = table.indexOf(check);
	return index === -1 ? table.push(check) - 1 : index;
}

/** A value that may be null, as a change from the one before: 0 for null, else the change's zigzag plus 1. */
const nullable = (value: number | null, before: number | null) =>
	value === null ? 0 : zigzag(value - (before ?? 0)) + 1;

function encodeRecords(records: readonly RunRecord[], table: string[]): string {
	let previous: RunRecord | undefined;
	let step = 0;
	let failing = new Set<number>();
	const numbers: number[] = [];
	for (const record of records) {
		const at = Math.round(record.at);
		const gap = previous ? at - Math.round(previous.at) : at;
		const tenths = (average: number | null) => (average === null ? null : Math.round(average * 10));
		const unscored = (run?: RunRecord) => (run ? run.pages - run.good - run.decent - run.bad : 0);
		const now = new Set(record.failing.map((check) => indexOf(check, table)));
		const toggled = [...new Set([...now, ...failing])]
			.filter((index) => now.has(index) !== failing.has(index))
			.sort((a, b) => a - b);
		numbers.push(
			zigzag(gap - step),
			nullable(tenths(record.average), previous ? tenths(previous.average) : null),
			nullable(record.health, previous ? previous.health : null),
			zigzag(unscored(record) - unscored(previous)),
			zigzag(record.good - (previous?.good ?? 0)),
			zigzag(record.decent - (previous?.decent ?? 0)),
			zigzag(record.bad - (previous?.bad ?? 0)),
			toggled.length,
			...toggled.map((index, order) => index - (order ? toggled[order - 1] + 1 : 0)),
		);
		[previous, step, failing] = [record, gap, now];
	}
	return numbers.map(writeNumber).join('');
}

/** The history as its static-data string; new check names are appended to `table` (the node's check table, changed in place). */
export function encodeHistory(history: SiteHistory, table: string[]): string {
	const first = history.first
		? `${b36(history.first.at)},${history.first.average === null ? '_' : b36(Math.round(history.first.average * 10))}`
		: '';
	const groups = new Map<string, string[]>();
	for (const [check, { ordinal, at }] of history.carried) {
		const key = `${b36(ordinal)},${b36(at)}`;
		groups.set(key, [...(groups.get(key) ?? []), check]);
	}
	const carried = [...groups]
		.map(([key, checks]) => `${key},${checks.map((check) => b36(indexOf(check, table))).join('.')}`)
		.join(';');
	const execution = history.execution.replace(/[|;,]/g, '');
	return [
		VERSION,
		b36(history.runs),
		execution,
		first,
		carried,
		encodeRecords(history.records, table),
	].join('|');
}

function decodeRecords(text: string, table: readonly string[]): RunRecord[] | undefined {
	const records: RunRecord[] = [];
	const read = numberReader(text);
	let step = 0;
	const failing = new Set<number>();
	const back = (code: number, before: number | null) =>
		code === 0 ? null : (before ?? 0) + unzigzag(code - 1);
	while (!read.done()) {
		const previous = records[records.length - 1];
		const gap = unzigzag(read.next()) + step;
		const before = previous && previous.average !== null ? Math.round(previous.average * 10) : null;
		const average = back(read.next(), before);
		const health = back(read.next(), previous ? previous.health : null);
		const unscored =
			unzigzag(read.next()) +
			(previous ? previous.pages - previous.good - previous.decent - previous.bad : 0);
		const [good, decent, bad] = [previous?.good, previous?.decent, previous?.bad].map(
			(before) => unzigzag(read.next()) + (before ?? 0),
		);
		const toggles = read.next();
		let index = -1;
		for (let count = 0; count < toggles; count++) {
			index += read.next() + 1;
			if (failing.has(index)) failing.delete(index);
			else failing.add(index);
		}
		const values = [gap, unscored, good, decent, bad, toggles, index, average ?? 0, health ?? 0];
		if (values.some(Number.isNaN) || [...failing].some((at) => at >= table.length))
			return undefined;
		records.push({
			at: (previous?.at ?? 0) + gap,
			average: average === null ? null : average / 10,
			health,
			pages: unscored + good + decent + bad,
			good,
			decent,
			bad,
			failing: [...failing].map((at) => table[at]).sort(),
		});
		step = gap;
	}
	return records;
}

function decodeCarried(
	text: string,
	table: readonly string[],
): Map<string, StreakStart> | undefined {
	const carried = new Map<string, StreakStart>();
	for (const group of text === '' ? [] : text.split(';')) {
		const [ordinal, at, indexes] = group.split(',');
		const checks = (indexes ?? '').split('.').map((index) => table[int36(index)]);
		if (
			checks.some((check) => check === undefined) ||
			Number.isNaN(int36(ordinal)) ||
			Number.isNaN(int36(at))
		)
			return undefined;
		for (const check of checks) carried.set(check, { ordinal: int36(ordinal), at: int36(at) });
	}
	return carried;
}

/** A history read back from static data; an empty one when there is none or it cannot be read. */
export function decodeHistory(encoded: unknown, table: readonly string[]): SiteHistory {
	if (typeof encoded !== 'string') return emptyHistory();
	const parts = encoded.split('|');
	if (parts.length !== 6 || parts[0] !== VERSION) return emptyHistory();
	const [, runsText, execution, firstText, carriedText, recordsText] = parts;
	const records = decodeRecords(recordsText, table);
	const carried = decodeCarried(carriedText, table);
	const runs = int36(runsText);
	if (!records || !carried || !(runs >= records.length)) return emptyHistory();
	const [firstAt, firstAverage] = firstText.split(',');
	const first =
		firstText === ''
			? null
			: {
					at: int36(firstAt),
					average: firstAverage === '_' ? null : int36(firstAverage) / 10,
				};
	if (first && (Number.isNaN(first.at) || Number.isNaN(first.average))) return emptyHistory();
	return { runs, execution, first, records, carried };
}

/**
 * Ticket Per → Page: the history of a site's pages (each record's checks `page · check` pairs) as
 * `[history, page, checks, page, checks, …]`: the history string above over the site's own table of
 * the pairs it names (rebuilt at each write, so a page fixed long ago leaves it with its last
 * record), each page written once and its checks as indexes in the node's check table (`table`,
 * grown in place).
 */
export function encodePageHistory(history: SiteHistory, table: string[]): string[] {
	const named = [...history.records.flatMap(({ failing }) => failing), ...history.carried.keys()];
	const byPage = new Map<string, string[]>();
	for (const pair of [...new Set(named)].sort()) {
		const { group: page, check } = ofGroupCheck(pair);
		byPage.set(page, [...(byPage.get(page) ?? []), check]);
	}
	const pairs = [...byPage].flatMap(([page, checks]) => checks.map((c) => groupCheck(page, c)));
	const pages = [...byPage].flatMap(([page, checks]) => [
		page,
		checks.map((check) => b36(indexOf(check, table))).join('.'),
	]);
	return [encodeHistory(history, pairs), ...pages];
}

/** A site's pages' history read back (an empty one when there is none or it cannot be read). */
export function decodePageHistory(stored: unknown, table: readonly string[]): SiteHistory {
	if (!Array.isArray(stored) || stored.some((part) => typeof part !== 'string'))
		return emptyHistory();
	const [runs, ...pages] = stored as string[];
	const pairs: string[] = [];
	for (let at = 0; at + 1 < pages.length; at += 2)
		for (const index of pages[at + 1].split('.')) {
			const check = table[int36(index)];
			if (check === undefined) return emptyHistory();
			pairs.push(groupCheck(pages[at], check));
		}
	return decodeHistory(runs, pairs);
}
