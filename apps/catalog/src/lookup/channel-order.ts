/**
 * Failover order of a model's channels: higher `priority` first; inside one priority a weighted random
 * order (sampling without replacement), so traffic splits by weight and a failed pick still falls over to
 * its peers before dropping to the next priority. Weight 0 marks a standby: tried last in its priority.
 */
import type { Channel } from '@unigate/contracts';
import type { RandomSource } from './random';

export function orderChannels(channels: readonly Channel[], random: RandomSource): Channel[] {
  const priorities = [...new Set(channels.map((c) => c.priority))].sort((a, b) => b - a);
  const ordered: Channel[] = [];
  for (const priority of priorities) {
    const tier = channels.filter((c) => c.priority === priority);
    ordered.push(
      ...weightedOrder(
        tier.filter((c) => c.weight > 0),
        random,
      ),
      ...tier.filter((c) => c.weight <= 0),
    );
  }
  return ordered;
}

function weightedOrder(pool: readonly Channel[], random: RandomSource): Channel[] {
  const left = [...pool];
  const out: Channel[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, c) => sum + c.weight, 0);
    const target = random() * total;
    let index = left.length - 1; // guards against a source that returns exactly 1 or rounding at the top end
    let cumulative = 0;
    for (let i = 0; i < left.length; i++) {
      cumulative += left[i].weight;
      if (target < cumulative) {
        index = i;
        break;
      }
    }
    out.push(left[index]);
    left.splice(index, 1);
  }
  return out;
}
