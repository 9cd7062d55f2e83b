/** Idle: founds its company and does nothing (the yardstick: its net worth should stay where it started). */
import type { Strategy } from './common.ts';

export function idleStrategy(): Strategy {
  return { name: 'idle', kind: 'idle', play: async () => {} };
}
