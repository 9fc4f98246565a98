import {
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import type { ReliabilityBand } from '@verity/contracts/feedback';

// Only what a line chart with points needs, so the bundle stays small.
Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/**
 * The reliability picture: per band of fraud_score, the share of the labelled calls reported
 * as fraud, against the score read as a probability (the dashed diagonal); the table below
 * holds every number.
 */
export function ReliabilityChart({ bands }: { bands: ReliabilityBand[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const filled = bands.filter((b) => b.calls > 0);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        datasets: [
          {
            label: 'Observed fraud rate',
            data: filled.map((b) => ({ x: b.mean_score ?? 0, y: 100 * (b.fraud_rate ?? 0) })),
            borderColor: '#0072B2',
            backgroundColor: '#0072B2',
            pointRadius: filled.map((b) => Math.min(9, 3 + Math.log2(b.calls))),
            pointHoverRadius: 10,
          },
          {
            label: 'Score read as a probability',
            data: [
              { x: 0, y: 0 },
              { x: 100, y: 100 },
            ],
            borderColor: '#999999',
            borderDash: [6, 4],
            pointRadius: 0,
            pointHoverRadius: 0,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        // Hovering anywhere over the plot shows the nearest band's figures.
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: {
          x: {
            type: 'linear',
            min: 0,
            max: 100,
            title: { display: true, text: 'Mean fraud_score of the band (0–100)' },
          },
          y: {
            type: 'linear',
            min: 0,
            max: 100,
            title: { display: true, text: 'Calls reported as fraud (%)' },
          },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            filter: (item) => item.datasetIndex === 0,
            callbacks: {
              title: (items) => {
                const band = filled[items[0]?.dataIndex ?? 0];
                return `fraud_score ${band.min_score}–${band.max_score}`;
              },
              label: (item) => {
                const band = filled[item.dataIndex];
                return `${band.fraud} of ${band.calls} reported fraud (${pct(band.fraud_rate ?? 0)}), mean score ${(band.mean_score ?? 0).toFixed(1)}`;
              },
            },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [bands]);

  const summary = filled
    .map((b) => `scores ${b.min_score}–${b.max_score}: ${pct(b.fraud_rate ?? 0)} of ${b.calls}`)
    .join('; ');
  return (
    <figure class="chart">
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Fraud rate of the labelled calls by fraud_score band: ${summary || 'none yet'}. The table below has every number.`}
        />
      </div>
      <details>
        <summary>Numbers behind the chart</summary>
        <div class="table-wrap">
          <table aria-label="Labelled calls per fraud_score band" data-reliability-table>
            <thead>
              <tr>
                <th scope="col">fraud_score</th>
                <th scope="col" class="num">
                  Labelled calls
                </th>
                <th scope="col" class="num">
                  Fraud
                </th>
                <th scope="col" class="num">
                  Fraud rate
                </th>
                <th scope="col" class="num">
                  Mean score
                </th>
              </tr>
            </thead>
            <tbody>
              {bands.map((b) => (
                <tr key={b.min_score} data-band={b.min_score}>
                  <th scope="row">
                    {b.min_score}–{b.max_score}
                  </th>
                  <td class="num">{b.calls}</td>
                  <td class="num">{b.fraud}</td>
                  <td class="num" data-fraud-rate>
                    {b.fraud_rate === null ? '—' : pct(b.fraud_rate)}
                  </td>
                  <td class="num">{b.mean_score === null ? '—' : b.mean_score.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
