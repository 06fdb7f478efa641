// Budget (issue 2): the graph and the update path of any channel take under 1 ms each on
// average, over every channel of the largest shared catalog.
import { join } from 'node:path';
import { sharedCatalogs } from './support/catalog-files';
import { fmt, median, time } from './support/measure';
import { loadCatalog } from '../lib/olm/fbc/load-catalog';
import type { ChannelGraph } from '../lib/olm/graph/channel-graph';
import { bundleFactsOf, packageChannelGraph } from '../lib/olm/graph/from-model';
import { updatePath } from '../lib/olm/graph/update-path';

const catalog = loadCatalog(join(sharedCatalogs, 'certified-operators-v4.18'));
const work = [...catalog.packages.values()].flatMap((pkg) => {
  const facts = bundleFactsOf(pkg);
  return [...pkg.channels.keys()].map((ch) => ({ pkg, ch, facts }));
});

const graphRounds: number[] = [];
const pathRounds: number[] = [];
let paths = 0;
let longest = 0;
for (let round = 0; round < 5; round++) {
  const graphs: ChannelGraph[] = [];
  graphRounds.push(
    time(() => work.forEach((w) => graphs.push(packageChannelGraph(w.pkg, w.ch, w.facts)!))).ms / work.length,
  );
  // The update path from the oldest entry is the longest walk a channel has.
  pathRounds.push(
    time(() => {
      paths = 0;
      for (const g of graphs) {
        const tail = g.order[g.order.length - 1];
        if (!tail) continue;
        const node = g.nodes.find((n) => n.name === tail)!;
        const p = updatePath(g, { name: node.name, version: node.version });
        longest = Math.max(longest, p.steps.length);
        paths++;
      }
    }).ms / Math.max(1, paths),
  );
}
console.log(`${work.length} channels of certified-operators-v4.18`);
console.log(
  `  channel graph   ${fmt(median(graphRounds), 3)} ms per channel (median of 5 rounds; budget 1 ms) ${median(graphRounds) < 1 ? 'OK' : 'OVER BUDGET'}`,
);
console.log(
  `  update path     ${fmt(median(pathRounds), 3)} ms per channel, from the oldest entry (longest: ${longest} steps; budget 1 ms) ${median(pathRounds) < 1 ? 'OK' : 'OVER BUDGET'}`,
);
