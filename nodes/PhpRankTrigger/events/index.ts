import type { TriggerEvent } from './event';
import { newReport } from './newReport';
import { resultChanged } from './resultChanged';
import { scoreChanged } from './scoreChanged';

/** The trigger's events, in the order the Event option lists them. */
export const TRIGGER_EVENTS: readonly TriggerEvent[] = [newReport, resultChanged, scoreChanged];
