import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  BATCH_VERDICTS,
  type BatchJobSummary,
  type BatchType,
  type BatchVerdict,
} from '@verity/contracts/batch';
import { formatNumber } from '../format';

// Only what a bar chart needs, so the bundle stays small.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

// The Okabe–Ito palette (tells apart for colour-blind readers); the legend's numbers say the same.
const COLOURS: Record<BatchVerdict, string> = {
  deliverable: '#009E73',
  risky: '#E69F00',
  undeliverable: '#D55E00',
  unknown: '#999999',
  valid: '#009E73',
  invalid: '#D55E00',
  vpn: '#CC79A7',
  proxy: '#E69F00',
  tor: '#56B4E9',
  datacenter: '#0072B2',
  clean: '#009E73',
};

/** The verdicts of a job with their counts, in the API's order. */
function counts(type: BatchType, summary: BatchJobSummary): [BatchVerdict, number][] {
  return BATCH_VERDICTS[type].map((v) => [v, summary[v] ?? 0]);
}

/**
 * A job's rows by verdict (BatchJob.summary) as a small bar chart, one bar per verdict (an ip
 * row with several flags is in each of their bars), rows on the axis and the count on hover;
 * the legend beneath holds every number as text.
 */
export function SummaryChart({ type, summary }: { type: BatchType; summary: BatchJobSummary }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const rows = counts(type, summary);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: rows.map(([v]) => v),
        datasets: [
          {
            label: 'Rows',
            data: rows.map(([, n]) => n),
            backgroundColor: rows.map(([v]) => COLOURS[v]),
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { ticks: { display: false }, grid: { display: false } },
          y: {
            beginAtZero: true,
            ticks: { maxTicksLimit: 3, font: { size: 10 } },
            title: { display: true, text: 'Rows', font: { size: 10 } },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => `${formatNumber(item.parsed.y ?? 0)} rows` } },
        },
      },
    });
    return () => chart.destroy();
  }, [type, summary]);

  const text = rows.map(([v, n]) => `${formatNumber(n)} ${v}`).join(', ');
  return (
    <figure class="summary-chart" data-summary={JSON.stringify(summary)}>
      <div class="summary-box">
        <canvas ref={canvas} role="img" aria-label={`Rows by verdict: ${text}`} />
      </div>
      <ul class="summary-legend">
        {rows.map(([v, n]) => (
          <li key={v} data-verdict={v}>
            <span class="swatch" style={{ background: COLOURS[v] }} aria-hidden="true" />
            {formatNumber(n)} {v}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/**
 * Download links for only some verdicts of a done job (`only=` on its signed result_url): a
 * checkbox per verdict, and a link with the ones ticked.
 */
export function FilteredDownload({ type, resultUrl }: { type: BatchType; resultUrl: string }) {
  const [only, setOnly] = useState<BatchVerdict[]>([]);
  const toggle = (verdict: BatchVerdict, on: boolean) =>
    setOnly((now) => BATCH_VERDICTS[type].filter((v) => (v === verdict ? on : now.includes(v))));
  const url = new URL(resultUrl);
  url.searchParams.set('only', only.join(','));
  return (
    <details class="only-download">
      <summary>Only some rows…</summary>
      <fieldset>
        <legend class="sr-only">Verdicts to download</legend>
        {BATCH_VERDICTS[type].map((v) => (
          <label key={v}>
            <input
              type="checkbox"
              name="only"
              value={v}
              checked={only.includes(v)}
              onChange={(e) => toggle(v, e.currentTarget.checked)}
            />{' '}
            {v}
          </label>
        ))}
      </fieldset>
      {only.length > 0 ? (
        <a class="button" href={url.toString()} download data-only={only.join(',')}>
          Download {only.join(', ')}
        </a>
      ) : (
        <span class="hint">Tick the verdicts to keep.</span>
      )}
    </details>
  );
}
