"""Small SVG charts drawn here, offline: rates with their intervals, lines over rounds, and
a histogram. Every label is escaped (titles are authored text); no script, no fonts
fetched, sizes in the viewBox so a page can scale them."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

ENDING_COLOURS = {"A": "#1f77b4", "B": "#d62728", "C": "#2ca02c", "D": "#9467bd"}
BAR = "#4c72b0"
WIDTH = 720


def _svg(height: int, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%" role="img" aria-label="{escape(title)}" class="dmtool-chart">'
            f"<title>{escape(title)}</title>" + "".join(body) + "</svg>")


def _text(x: float, y: float, text: str, *, anchor: str = "start", size: int = 12,
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" font-family="sans-serif" fill="#222">{escape(text)}</text>')


def rate_bars(rows: Sequence[tuple[str, float, float, float, int]], title: str,
              axis_label: str = "share of games") -> str:
    """Horizontal bars: (label, rate, interval low, interval high, games) each, rates in
    0..1, with the 95% interval as a whisker and the games counted beside the rate."""
    left, right, row = 300, 70, 22
    span = WIDTH - left - right
    height = 30 + row * len(rows) + 24
    body = [_text(8, 18, title, size=14, weight="bold")]
    for i, (label, value, low, high, count) in enumerate(rows):
        y = 30 + i * row
        short = label if len(label) <= 46 else label[:45] + "…"
        body.append(_text(left - 8, y + 14, short, anchor="end"))
        body.append(f'<rect x="{left}" y="{y + 3}" width="{span * value:.1f}" height="{row - 8}" '
                    f'fill="{BAR}" fill-opacity="0.8"/>')
        body.append(f'<line x1="{left + span * low:.1f}" x2="{left + span * high:.1f}" '
                    f'y1="{y + row / 2 - 1:.1f}" y2="{y + row / 2 - 1:.1f}" stroke="#111" '
                    'stroke-width="1.5"/>')
        body.append(_text(left + span * max(value, high) + 6, y + 14,
                          f"{100 * value:.1f}% ({count:,})", size=11))
    axis = 30 + row * len(rows) + 4
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + span * tick
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="28" y2="{axis}" stroke="#ccc" '
                    'stroke-width="0.5"/>')
        body.append(_text(x, axis + 14, f"{int(100 * tick)}%", anchor="middle", size=10))
    body.append(_text(left + span / 2, axis + 30, axis_label, anchor="middle", size=11))
    return _svg(height + 16, body, title)


def difference_bars(rows: Sequence[tuple[str, float, float, float]], title: str) -> str:
    """Horizontal differences (label, difference, low, high) around a zero line, in
    percentage points, each with its 95% interval as a whisker."""
    left, right, row = 300, 90, 22
    span = WIDTH - left - right
    reach = max([abs(v) for r in rows for v in r[1:]] + [0.01])
    height = 30 + row * len(rows) + 40

    def x(value: float) -> float:
        return left + span * (0.5 + value / (2 * reach))

    body = [_text(8, 18, title, size=14, weight="bold")]
    for i, (label, value, low, high) in enumerate(rows):
        y = 30 + i * row
        short = label if len(label) <= 46 else label[:45] + "…"
        body.append(_text(left - 8, y + 14, short, anchor="end"))
        start, end = sorted((x(0), x(value)))
        body.append(f'<rect x="{start:.1f}" y="{y + 3}" width="{end - start:.1f}" '
                    f'height="{row - 8}" fill="{BAR}" fill-opacity="0.8"/>')
        body.append(f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y + row / 2 - 1:.1f}" '
                    f'y2="{y + row / 2 - 1:.1f}" stroke="#111" stroke-width="1.5"/>')
        body.append(_text(WIDTH - right + 6, y + 14, f"{100 * value:+.1f}", size=11))
    axis = 30 + row * len(rows) + 4
    for tick in (-reach, -reach / 2, 0.0, reach / 2, reach):
        body.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="28" y2="{axis}" '
                    f'stroke="{"#888" if tick == 0 else "#ccc"}" stroke-width="0.5"/>')
        body.append(_text(x(tick), axis + 14, f"{100 * tick:+.1f}", anchor="middle", size=10))
    body.append(_text(left + span / 2, height - 6, "change in percentage points (after - before)",
                      anchor="middle", size=11))
    return _svg(height, body, title)


def score_lines(rounds: Sequence[int], means: dict[str, Sequence[float]], title: str) -> str:
    """One line per ending: mean score at the end of each round."""
    left, top, bottom, right = 50, 30, 40, 90
    height = 280
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    peak = max([v for values in means.values() for v in values] + [1.0])
    body = [_text(8, 18, title, size=14, weight="bold")]

    def x(i: int) -> float:
        return left + (plot_w * i / max(len(rounds) - 1, 1))

    def y(v: float) -> float:
        return top + plot_h * (1 - v / peak)

    for fraction in (0, 0.5, 1):
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(peak * fraction):.1f}" '
                    f'y2="{y(peak * fraction):.1f}" stroke="#ddd" stroke-width="0.5"/>')
        body.append(_text(left - 6, y(peak * fraction) + 4, f"{peak * fraction:.0f}",
                          anchor="end", size=10))
    for i, number in enumerate(rounds):
        body.append(_text(x(i), top + plot_h + 16, str(number), anchor="middle", size=10))
    body.append(_text(left + plot_w / 2, height - 6, "round", anchor="middle", size=11))
    body.append(f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="11" font-family="sans-serif" '
                f'text-anchor="middle" transform="rotate(-90 12 {top + plot_h / 2:.1f})" '
                'fill="#222">mean score</text>')
    for n, (ending, values) in enumerate(means.items()):
        colour = ENDING_COLOURS.get(ending, "#555")
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                    'stroke-width="2"/>')
        body.append(f'<rect x="{WIDTH - right + 14}" y="{top + 18 * n}" width="12" '
                    f'height="12" fill="{colour}"/>')
        body.append(_text(WIDTH - right + 32, top + 18 * n + 11, f"ending {ending}"))
    return _svg(height, body, title)


def histogram(counts: dict[str, int], title: str, axis: str) -> str:
    """Vertical bars over whole-number values (rounds a game lasted, deaths a game)."""
    left, top, bottom = 50, 30, 40
    height = 220
    keys = list(counts)
    plot_w, plot_h = WIDTH - left - 20, height - top - bottom
    peak = max(list(counts.values()) + [1])
    step = plot_w / max(len(keys), 1)
    body = [_text(8, 18, title, size=14, weight="bold")]
    for fraction in (0, 0.5, 1):  # the count axis
        y = top + plot_h * (1 - fraction)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                    'stroke="#ddd" stroke-width="0.5"/>')
        body.append(_text(left - 6, y + 4, f"{round(peak * fraction):,}", anchor="end", size=10))
    body.append(f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="11" font-family="sans-serif" '
                f'text-anchor="middle" transform="rotate(-90 12 {top + plot_h / 2:.1f})" '
                'fill="#222">games</text>')
    for i, key in enumerate(keys):
        h = plot_h * counts[key] / peak
        body.append(f'<rect x="{left + i * step + 2:.1f}" y="{top + plot_h - h:.1f}" '
                    f'width="{max(step - 4, 1):.1f}" height="{h:.1f}" fill="{BAR}"/>')
        body.append(_text(left + (i + 0.5) * step, top + plot_h - h - 3, f"{counts[key]:,}",
                          anchor="middle", size=9))
        body.append(_text(left + (i + 0.5) * step, top + plot_h + 16, key, anchor="middle",
                          size=10))
    body.append(_text(left + plot_w / 2, height - 6, axis, anchor="middle", size=11))
    return _svg(height, body, title)


PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c", "#ccb974", "#64b5cd")


def sweep_curves(values: Sequence[str], series: Sequence[tuple[str, Sequence[float],
                                                                Sequence[Sequence[float]]]],
                 title: str, axis: str) -> str:
    """One line per outcome over the swept values (rate in 0..1), each with its 95%
    interval as a shaded band; the y axis in percent, the x axis the values."""
    left, top, bottom, right = 50, 30, 44, 230
    height = 300
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    body = [_text(8, 18, title, size=14, weight="bold")]

    def x(i: int) -> float:
        return left + plot_w * i / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return top + plot_h * (1 - v)

    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" '
                    f'y2="{y(tick):.1f}" stroke="#ddd" stroke-width="0.5"/>')
        body.append(_text(left - 6, y(tick) + 4, f"{int(100 * tick)}%", anchor="end", size=10))
    for i, value in enumerate(values):
        body.append(_text(x(i), top + plot_h + 16, value, anchor="middle", size=10))
    body.append(_text(left + plot_w / 2, height - 6, axis, anchor="middle", size=11))
    for n, (name, rates, bands) in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        upper = [f"{x(i):.1f},{y(b[1]):.1f}" for i, b in enumerate(bands)]
        lower = [f"{x(i):.1f},{y(b[0]):.1f}" for i, b in reversed(list(enumerate(bands)))]
        body.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour}" '
                    'fill-opacity="0.15" stroke="none"/>')
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(rates))
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                    'stroke-width="2"/>')
        body.append(f'<rect x="{WIDTH - right + 14}" y="{top + 18 * n}" width="12" '
                    f'height="12" fill="{colour}"/>')
        short = name if len(name) <= 30 else name[:29] + "…"
        body.append(_text(WIDTH - right + 32, top + 18 * n + 11, short, size=11))
    return _svg(height, body, title)
