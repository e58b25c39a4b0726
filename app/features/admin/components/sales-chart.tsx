import type { DaySales } from "#common/overview/overview-types.ts";
import { formatDay } from "#common/shared/dates.ts";
import { formatPrice } from "#common/shared/money.ts";

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 64; // room for the revenue axis labels
const BOTTOM = 28; // room for the date labels
const TOP = 12;


/** A round top for the revenue axis: 1, 2 or 5 times a power of ten, at least the highest day. */
function niceMaximum(value: number): number {
  if (value <= 0) return 10_000; // no orders: an axis up to Rs. 100
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/**
 * Revenue per day as bars, drawn as SVG by the server, so the overview reads without JavaScript. The picture is
 * described by its title and description; the same numbers are in the table that follows it, for screen
 * readers and for anyone who wants the figures.
 */
export function SalesChart({ days }: { days: DaySales[] }) {
  const top = niceMaximum(Math.max(...days.map((d) => d.revenuePaise)));
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const best = days.reduce<DaySales | undefined>((a, d) => (!a || d.revenuePaise > a.revenuePaise ? d : a), undefined);
  const first = days[0];
  const last = days[days.length - 1];
  const span = first && last ? `From ${formatDay(first.day)} to ${formatDay(last.day)}. ` : "";
  const highlight = best && best.revenuePaise > 0 ? `Best day ${formatDay(best.day)}: ${formatPrice(best.revenuePaise)}.` : "No orders in this period.";
  const description = `${span}${highlight} The table below lists every day.`;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Revenue per day, last ${days.length} days`}
      aria-describedby="sales-chart-desc"
      className="h-auto w-full"
      data-testid="sales-chart"
    >
      {/* One string per title and desc: React 19 hydrates these metadata-like elements as single text nodes. */}
      <desc id="sales-chart-desc">{description}</desc>
      {[0, 0.5, 1].map((fraction) => {
        const y = TOP + plotHeight * (1 - fraction);
        return (
          <g key={fraction}>
            <line x1={LEFT} x2={WIDTH - 8} y1={y} y2={y} stroke="#e7e5e4" strokeWidth={1} />
            <text x={LEFT - 6} y={y + 4} textAnchor="end" fontSize={11} fill="#57534e">
              {formatPrice(Math.round(top * fraction))}
            </text>
          </g>
        );
      })}
      {days.map((d, i) => {
        const height = (d.revenuePaise / top) * plotHeight;
        const x = LEFT + i * slot + (slot - barWidth) / 2;
        return (
          <g key={d.day}>
            <rect x={x} y={TOP + plotHeight - height} width={barWidth} height={height} fill="#3f7d3a" rx={1}>
              <title>{`${formatDay(d.day)}: ${d.orders} ${d.orders === 1 ? "order" : "orders"}, ${formatPrice(d.revenuePaise)}`}</title>
            </rect>
            {/* A date under every fifth bar and the last: thirty labels would overlap. */}
            {i % 5 === 0 || i === days.length - 1 ? (
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="#57534e">
                {formatDay(d.day)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
