import type { BestResultChangeDto } from '@rcs/contracts';
import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { exactTime, formatMetric, relativeTime } from '../logic/format';
import { historySeries, timeRange, timeTick, TIME_STEPS } from '../logic/history';

/**
 * The best result over time as a stepped line (the best holds until the next change). uPlot loads with
 * the first chart, not with every page. The legend shows the point under the cursor (its time as the
 * UI writes times, relative with UTC); the time axis is labelled in UTC with ticks at least a second
 * and 90 px apart, so labels never overlap and points milliseconds apart get no millisecond ticks.
 */
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
    const when = (seconds: number) => {
      const iso = new Date(seconds * 1000).toISOString();
      return `${relativeTime(iso)} (${exactTime(iso)})`;
    };
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return;
      plot = new UPlot(
        {
          width: Math.max(260, Math.min(element.clientWidth || 720, 960)),
          height: 260,
          scales: { x: { time: true, range: (_u, min, max) => timeRange(min, max) } },
          series: [
            { label: 'when', value: (_u, v) => (v === null ? '—' : when(v)) },
            {
              label: metric,
              stroke: '#1f5fa8',
              width: 2,
              paths: UPlot.paths.stepped?.({ align: 1 }),
              points: { show: true, size: 7 },
              value: (_u, v) => (v === null ? '—' : formatMetric(v)),
            },
          ],
          axes: [
            {
              stroke: '#333',
              label: 'time (UTC)',
              space: 90,
              incrs: TIME_STEPS,
              values: (u, splits) => {
                const span = (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0);
                return splits.map((s) => timeTick(s, span));
              },
            },
            { stroke: '#333', label: metric, size: 70, space: 40, values: (_u, splits) => splits.map((v) => formatMetric(v)) },
          ],
          legend: { show: true, live: true },
          cursor: { show: true },
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
