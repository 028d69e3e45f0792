import { useEffect, useId, useRef, useState } from 'react';
import { formatAxisTime, formatNumber } from '../../format';
import './chart.css';

/** One named series of numbers, one value per category (null where there is no value). */
export interface ChartSeries {
  name: string;
  values: (number | null)[];
}

export interface ChartProps {
  /** What the chart shows; the SVG's accessible name and the hidden table's caption. */
  title: string;
  /** Bars side by side per category, or one line per series. */
  kind?: 'bar' | 'line';
  /** The x axis: one label per position (months, days, SKUs…). */
  categories: string[];
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  /**
   * A time axis: the instant (ms) of each category. Points then stand where their time is, so a
   * burst of changes and a quiet week look like what they were; the axis is labelled by time.
   */
  times?: number[];
  /** How a value is written on the axis, in tooltips and in the data table (e.g. money). */
  formatValue?: (value: number) => string;
  height?: number;
}

/** The drawing's width before the figure is measured (and where ResizeObserver is missing). */
const DEFAULT_WIDTH = 960;
const MIN_WIDTH = 280;
const MARGIN = { top: 12, right: 16, bottom: 48, left: 84 };
/** Up to eight series are told apart by colour and, for lines, by marker shape. */
const MARKERS = ['circle', 'square', 'diamond', 'triangle'] as const;

/** Round tick values covering 0..max (or min..max when values go negative). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const low = Math.min(0, min);
  const high = Math.max(0, max);
  if (low === high) return [0, 1];
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let tick = Math.floor(low / step) * step; tick <= high + step * 1e-9; tick += step) {
    ticks.push(Number(tick.toFixed(10)));
  }
  if (ticks[ticks.length - 1]! < high) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [
  SECOND,
  5 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/**
 * Round instants (whole seconds, minutes, hours or UTC days) across first..last, about `count`
 * of them; the two ends themselves where fewer than two round instants fall between them.
 */
export function timeTicks(first: number, last: number, count = 6): { ticks: number[]; step: number } {
  const span = Math.max(last - first, SECOND);
  const step = TIME_STEPS.find((s) => s >= span / count) ?? Math.ceil(span / count / (30 * DAY)) * 30 * DAY;
  const ticks: number[] = [];
  for (let tick = Math.ceil(first / step) * step; tick <= last; tick += step) ticks.push(tick);
  if (ticks.length >= 2) return { ticks, step };
  return { ticks: first === last ? [first] : [first, last], step };
}

function Marker({ shape, x, y, className }: { shape: string; x: number; y: number; className: string }) {
  if (shape === 'square') return <rect className={className} x={x - 3.5} y={y - 3.5} width={7} height={7} />;
  if (shape === 'diamond')
    return (
      <polygon className={className} points={`${x},${y - 5} ${x + 5},${y} ${x},${y + 5} ${x - 5},${y}`} />
    );
  if (shape === 'triangle')
    return <polygon className={className} points={`${x},${y - 5} ${x + 5},${y + 4} ${x - 5},${y + 4}`} />;
  return <circle className={className} cx={x} cy={y} r={4} />;
}

/**
 * A small accessible SVG chart (bars or lines) with labelled axes and a legend. The SVG is an
 * image named by the title and described by a summary; the same figures are in a visually hidden
 * table for screen readers. No inline styles (the console's CSP refuses them): colours come from
 * chart.css classes `chart-s0`…`chart-s7`.
 */
export function Chart({
  title,
  kind = 'bar',
  categories,
  series,
  xLabel,
  yLabel,
  times,
  formatValue = formatNumber,
  height = 260,
}: ChartProps) {
  const id = useId();
  // The drawing is as wide as its figure, so its text stays legible on a phone.
  const figure = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = figure.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(MIN_WIDTH, Math.round(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const ticks = niceTicks(values.length ? Math.min(...values) : 0, values.length ? Math.max(...values) : 0);
  const low = ticks[0]!;
  const high = ticks[ticks.length - 1]!;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const y = (value: number) => MARGIN.top + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const band = plotWidth / Math.max(categories.length, 1);
  const first = times?.[0] ?? 0;
  const spanMs = Math.max((times?.[times.length - 1] ?? 0) - first, 1);
  const xOfTime = (ms: number) => MARGIN.left + ((ms - first) / spanMs) * plotWidth;
  const center = (index: number) => (times ? xOfTime(times[index]!) : MARGIN.left + band * index + band / 2);
  const timeAxis =
    times && times.length > 0
      ? timeTicks(first, first + spanMs, Math.max(2, Math.floor(plotWidth / 110)))
      : null;
  const barWidth = Math.max(2, Math.min(28, (band * 0.8) / Math.max(series.length, 1)));
  // About one category label per 80 px, at most twelve.
  const labels = Math.min(12, Math.max(2, Math.floor(plotWidth / 80)));
  const labelEvery = Math.max(1, Math.ceil(categories.length / labels));
  // A point is its position: two changes in the same second share a label, never a key.
  const keyOf = (index: number) => `${index}:${categories[index]}`;
  const summary =
    categories.length === 0
      ? 'No data.'
      : `${series.map((s) => s.name).join(', ')} for ${categories.length} ${xLabel.toLowerCase()} values, from ${categories[0]} to ${categories[categories.length - 1]}; the figures are in the table that follows.`;

  return (
    <figure className="chart" ref={figure}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        className="chart-svg"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              className="chart-grid"
              x1={MARGIN.left}
              x2={width - MARGIN.right}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text
              className="chart-tick"
              x={MARGIN.left - 6}
              y={y(tick)}
              textAnchor="end"
              dominantBaseline="middle"
            >
              {formatValue(tick)}
            </text>
          </g>
        ))}
        <line className="chart-axis" x1={MARGIN.left} x2={width - MARGIN.right} y1={y(0)} y2={y(0)} />
        {timeAxis?.ticks.map((tick) => (
          <text
            key={tick}
            className="chart-tick"
            x={xOfTime(tick)}
            y={height - MARGIN.bottom + 16}
            // A label at the right end of the axis ends there rather than running off the drawing.
            textAnchor={xOfTime(tick) > width - MARGIN.right - 40 ? 'end' : 'middle'}
          >
            {formatAxisTime(tick, timeAxis.step)}
          </text>
        ))}
        {categories.map((category, index) =>
          !timeAxis && index % labelEvery === 0 ? (
            <text
              key={category}
              className="chart-tick"
              x={center(index)}
              y={height - MARGIN.bottom + 16}
              textAnchor="middle"
            >
              {category}
            </text>
          ) : null,
        )}
        <text className="chart-label" x={MARGIN.left + plotWidth / 2} y={height - 8} textAnchor="middle">
          {xLabel}
        </text>
        <text
          className="chart-label"
          transform={`translate(14 ${MARGIN.top + plotHeight / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          {yLabel}
        </text>
        {series.map((s, seriesIndex) => {
          const colour = `chart-s${seriesIndex % 8}`;
          if (kind === 'line') {
            const points = s.values
              .map((value, index) => (value === null ? null : `${center(index)},${y(value)}`))
              .filter(Boolean)
              .join(' ');
            return (
              <g key={s.name}>
                <polyline className={`chart-line ${colour}`} points={points} />
                {s.values.map((value, index) =>
                  value === null ? null : (
                    <Marker
                      key={keyOf(index)}
                      shape={MARKERS[seriesIndex % MARKERS.length]!}
                      x={center(index)}
                      y={y(value)}
                      className={`chart-marker ${colour}`}
                    />
                  ),
                )}
              </g>
            );
          }
          return (
            <g key={s.name}>
              {s.values.map((value, index) => {
                if (value === null) return null;
                const left = center(index) - (barWidth * series.length) / 2 + barWidth * seriesIndex;
                const top = Math.min(y(value), y(0));
                return (
                  <rect
                    key={keyOf(index)}
                    className={`chart-bar ${colour}`}
                    x={left}
                    y={top}
                    width={barWidth - 1}
                    height={Math.max(Math.abs(y(value) - y(0)), value === 0 ? 0 : 1)}
                  >
                    <title>{`${s.name}, ${categories[index]}: ${formatValue(value)}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="chart-legend" aria-hidden="true">
          {series.map((s, seriesIndex) => (
            <li key={s.name}>
              <svg width="14" height="14" viewBox="0 0 14 14" focusable="false" aria-hidden="true">
                {kind === 'line' ? (
                  <Marker
                    shape={MARKERS[seriesIndex % MARKERS.length]!}
                    x={7}
                    y={7}
                    className={`chart-marker chart-s${seriesIndex % 8}`}
                  />
                ) : (
                  <rect
                    className={`chart-bar chart-s${seriesIndex % 8}`}
                    x={1}
                    y={1}
                    width={12}
                    height={12}
                  />
                )}
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
        {/* A table ignores a 1px height: its wrapper is what is hidden (the page keeps its length). */}
        <div className="visually-hidden">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{xLabel}</th>
                {series.map((s) => (
                  <th scope="col" key={s.name}>
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {categories.map((category, index) => (
                <tr key={keyOf(index)}>
                  <th scope="row">{category}</th>
                  {series.map((s) => (
                    <td key={s.name}>{s.values[index] === null ? '—' : formatValue(s.values[index]!)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figcaption>
    </figure>
  );
}
