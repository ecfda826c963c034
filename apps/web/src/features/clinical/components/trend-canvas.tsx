import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { displayLocale } from '../utils/clinical-text';
import type { Trend } from '../utils/lab-groups';

// The trend chart's drawing, on a canvas (uPlot, decision 0021). Loaded on its own, only when a
// group has a trend to draw, so no other screen carries the library. What it shows is also said
// in words and in a table by LabTrend: the canvas is only for eyes.

const HEIGHT = 200;
const LINE = '#4338ca'; // brand-700
const OUT = '#b91c1c'; // red-700
const BAND = 'rgba(22, 163, 74, 0.14)';
const BAND_EDGE = '#15803d'; // green-700
const AXIS = '#475569'; // slate-600
const GRID = '#e2e8f0'; // slate-200
const FONT = '12px system-ui, sans-serif';
const DAY = 86_400;

/** The y scale holds every value and the reference range, with some air above and below. */
function yRange(values: readonly number[], low: number | null, high: number | null): [number, number] {
  const all = [...values, ...(low === null ? [] : [low]), ...(high === null ? [] : [high])];
  const min = Math.min(...all);
  const max = Math.max(...all);
  const pad = max === min ? Math.abs(max) * 0.1 || 1 : (max - min) * 0.12;
  return [min - pad, max + pad];
}

/** Two weeks either side at least, so points never sit on the chart's edge. */
function xRange(times: readonly number[]): [number, number] {
  const min = Math.min(...times);
  const max = Math.max(...times);
  const pad = Math.max((max - min) * 0.06, 14 * DAY);
  return [min - pad, max + pad];
}

/**
 * The time axis's labels in the reader's language and order (uPlot's own are English and
 * month-first, "6/11", which a European reads as the 6th of November): months with their year
 * when the ticks are a month or more apart, else day and month. Dates are UTC, as chartTime makes them.
 */
function timeTicks(locale: string) {
  const monthly = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', year: 'numeric' });
  const daily = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  const yearly = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric' });
  return (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) =>
    splits.map((seconds) => {
      const format = increment >= 360 * DAY ? yearly : increment >= 28 * DAY ? monthly : daily;
      return format.format(new Date(seconds * 1000));
    });
}

function clipToPlot(u: uPlot, ctx: CanvasRenderingContext2D) {
  const { left, top, width, height } = u.bbox;
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
}

/** Behind the line: the reference range as a band, or as a dashed line when it has one bound. */
function drawRange(trend: Trend) {
  return (u: uPlot) => {
    const { ctx } = u;
    const { left, width } = u.bbox;
    const px = uPlot.pxRatio;
    ctx.save();
    clipToPlot(u, ctx);
    const at = (v: number) => u.valToPos(v, 'y', true);
    if (trend.low !== null && trend.high !== null) {
      ctx.fillStyle = BAND;
      ctx.fillRect(left, at(trend.high), width, at(trend.low) - at(trend.high));
    }
    ctx.strokeStyle = BAND_EDGE;
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([6 * px, 4 * px]);
    for (const bound of [trend.low, trend.high]) {
      if (bound === null) continue;
      ctx.beginPath();
      ctx.moveTo(left, at(bound));
      ctx.lineTo(left + width, at(bound));
      ctx.stroke();
    }
    ctx.restore();
  };
}

/**
 * On top of the line, each value: a white dot ringed in the line's colour, or — out of range — a
 * red triangle, larger, so it is told apart by shape as well as colour (WCAG 1.4.1).
 */
function drawMarkers(trend: Trend) {
  return (u: uPlot) => {
    const { ctx } = u;
    const px = uPlot.pxRatio;
    ctx.save();
    for (const point of trend.points) {
      const x = u.valToPos(point.time, 'x', true);
      const y = u.valToPos(point.value, 'y', true);
      ctx.beginPath();
      if (point.outOfRange) {
        const side = 15 * px;
        const h = (side * Math.sqrt(3)) / 2;
        ctx.moveTo(x, y - (2 / 3) * h);
        ctx.lineTo(x + side / 2, y + h / 3);
        ctx.lineTo(x - side / 2, y + h / 3);
        ctx.closePath();
        ctx.fillStyle = OUT;
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 1.5 * px;
        ctx.fill();
        ctx.stroke();
      } else {
        ctx.arc(x, y, 4.5 * px, 0, 2 * Math.PI);
        ctx.fillStyle = '#ffffff';
        ctx.strokeStyle = LINE;
        ctx.lineWidth = 2 * px;
        ctx.fill();
        ctx.stroke();
      }
    }
    ctx.restore();
  };
}

export default function TrendCanvas({ trend }: { trend: Trend }) {
  const ref = useRef<HTMLDivElement>(null);
  // Drawn again when the reader changes language.
  const { i18n } = useLingui();
  const locale = i18n.locale;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const times = trend.points.map((p) => p.time);
    const values = trend.points.map((p) => p.value);
    const axis = { stroke: AXIS, font: FONT, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 } };
    // The axes speak the reader's language: dates and digits.
    const number = new Intl.NumberFormat(displayLocale(), { maximumFractionDigits: 6, useGrouping: false });
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false, drag: { x: false, y: false } },
        scales: {
          x: { time: true, range: () => xRange(times) },
          y: { range: () => yRange(values, trend.low, trend.high) },
        },
        axes: [
          { ...axis, space: 80, values: timeTicks(displayLocale()) },
          { ...axis, size: 48, values: (_u, splits) => splits.map((v) => number.format(v)) },
        ],
        series: [{}, { stroke: LINE, width: 2, points: { show: false } }],
        hooks: { drawAxes: [drawRange(trend)], draw: [drawMarkers(trend)] },
      },
      [times, values],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [trend, locale]);

  return <div ref={ref} className="w-full" />;
}
