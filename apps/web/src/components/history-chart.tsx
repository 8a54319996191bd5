import type { BestResultChangeDto } from '@rcs/contracts';
import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { historySeries } from '../logic/history';

/** The best result over time as a stepped line (the best holds until the next change). uPlot loads with the first chart, not with every page. */
export function HistoryChart({ changes, metric }: { changes: BestResultChangeDto[]; metric: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || changes.length === 0) return undefined;
    let plot: uPlot | null = null;
    let gone = false;
    const [xs, ys] = historySeries(changes);
    // A lone point gets "now" as its end, so the step is visible.
    const data: uPlot.AlignedData = xs.length === 1 ? [[xs[0], Date.now() / 1000], [ys[0], ys[0]]] : [xs, ys];
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return;
      plot = new UPlot(
        {
          width: Math.max(320, Math.min(element.clientWidth || 720, 960)),
          height: 260,
          series: [{}, { label: metric, stroke: '#1f5fa8', width: 2, paths: UPlot.paths.stepped?.({ align: 1 }), points: { show: true, size: 7 } }],
          axes: [{ stroke: '#333' }, { stroke: '#333', label: metric }],
          legend: { show: true },
        },
        data,
        element,
      );
    });
    return () => {
      gone = true;
      plot?.destroy();
    };
  }, [changes, metric]);
  return <div ref={host} class="chart" role="img" aria-label={`Best ${metric} over time, ${changes.length} change${changes.length === 1 ? '' : 's'}`} />;
}
