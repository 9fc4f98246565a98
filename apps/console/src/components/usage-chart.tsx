import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import type { UsageDay } from '@verity/contracts/console';
import { formatNumber, operationLabel } from '../format';

// Only what a stacked bar chart needs, so the bundle stays small.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

// Colour-blind-safe palette (Okabe–Ito); the legend and table name each series too.
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

export type Measure = 'calls' | 'credits';

/** The last `days` UTC dates, oldest first. */
export function lastDays(days: number): string[] {
  const out: string[] = [];
  const today = new Date();
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i),
    );
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** Calls or credits per day, stacked by operation, with the same numbers as a table below. */
export function UsageChart(props: {
  days: string[];
  operations: string[];
  data: UsageDay[];
  measure: Measure;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const value = (day: string, op: string) =>
    props.data.find((d) => d.day === day && d.operation === op)?.[props.measure] ?? 0;
  const used = props.operations.filter((op) => props.data.some((d) => d.operation === op));
  const totals = props.days.map((day) => used.reduce((sum, op) => sum + value(day, op), 0));
  const grand = totals.reduce((a, b) => a + b, 0);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: props.days.map((d) => d.slice(5)),
        datasets: used.map((op) => ({
          label: operationLabel(op),
          data: props.days.map((day) => value(day, op)),
          backgroundColor: COLOURS[props.operations.indexOf(op) % COLOURS.length],
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true, title: { display: true, text: 'Day (UTC)' } },
          y: {
            stacked: true,
            beginAtZero: true,
            title: { display: true, text: props.measure === 'calls' ? 'Calls' : 'Credits' },
            ticks: { precision: 0 },
          },
        },
        plugins: { legend: { position: 'bottom' }, tooltip: { mode: 'index', intersect: false } },
      },
    });
    return () => chart.destroy();
  }, [props.days, props.data, props.measure]);

  const unit = props.measure === 'calls' ? 'calls' : 'credits';
  return (
    <figure class="chart">
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${formatNumber(grand)} ${unit} in the last ${props.days.length} days, by operation; the table below has every number`}
        />
      </div>
      <details>
        <summary>Numbers behind the chart</summary>
        <div class="table-wrap">
          <table aria-label={`Usage in ${unit} per day`} data-usage-table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {used.map((op) => (
                  <th scope="col" key={op} data-operation={op}>
                    {operationLabel(op)}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {props.days.map((day, i) =>
                totals[i] === 0 ? null : (
                  <tr key={day} data-day={day}>
                    <th scope="row">{day}</th>
                    {used.map((op) => (
                      <td key={op} data-operation={op}>
                        {value(day, op)}
                      </td>
                    ))}
                    <td data-total>{totals[i]}</td>
                  </tr>
                ),
              )}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">30 days</th>
                {used.map((op) => (
                  <td key={op}>{props.days.reduce((s, day) => s + value(day, op), 0)}</td>
                ))}
                <td data-grand-total>{grand}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </details>
    </figure>
  );
}
