// The Business page's charts (/ops/business), drawn with Chart.js (served by the shop at
// /ops/assets/…): the numbers come from the page's <script type="application/json">, so no inline
// script is needed and the CSP stays 'self'. Each chart's table on the page holds the same numbers.
/* global Chart */

// Okabe–Ito: told apart with every common colour blindness, and dark enough on white and in print.
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
// A second cue besides colour: each series its own line dash, point shape and bar hatching.
const DASHES = [[], [8, 4], [2, 3], [12, 3, 2, 3]];
const POINTS = ['circle', 'rectRot', 'triangle', 'rect', 'star', 'crossRot', 'cross'];

/** A hatching of the series' colour: none for the first, then diagonal, dotted, crossed... */
function hatch(colour, index) {
  if (index === 0) return colour;
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const pen = tile.getContext('2d');
  pen.fillStyle = colour;
  pen.globalAlpha = 0.35;
  pen.fillRect(0, 0, 8, 8);
  pen.globalAlpha = 1;
  pen.strokeStyle = colour;
  pen.fillStyle = colour;
  pen.lineWidth = 2;
  if (index % 3 === 1) {
    pen.beginPath();
    pen.moveTo(0, 8);
    pen.lineTo(8, 0);
    pen.stroke();
  } else if (index % 3 === 2) {
    pen.fillRect(2, 2, 3, 3);
  } else {
    pen.strokeRect(0, 0, 8, 8);
  }
  return pen.createPattern(tile, 'repeat');
}

function dataset(chart, series, index) {
  const colour = COLOURS[index % COLOURS.length];
  const common = { label: series.label, data: series.values, borderColor: colour, borderWidth: 2 };
  if (chart.kind === 'line') {
    return {
      ...common,
      backgroundColor: colour,
      borderDash: DASHES[index % DASHES.length],
      pointStyle: POINTS[index % POINTS.length],
      pointRadius: 4,
      tension: 0,
    };
  }
  return { ...common, backgroundColor: hatch(colour, index) };
}

/**
 * The x axis's labels: as many as fit the chart's width, counted back from the last bucket so
 * that the latest is always labelled (Chart.js's own autoSkip keeps the first and may drop it).
 * Returning null leaves a bucket unlabelled.
 */
function bucketTicks(labels) {
  const longest = Math.max(1, ...labels.map((label) => label.length));
  return {
    autoSkip: false,
    maxRotation: 0,
    callback(_value, index) {
      // About 7 px a character at the page's 12 px tick font, and a gap between labels.
      const fit = Math.max(1, Math.floor(this.chart.width / (longest * 7 + 16)));
      const step = Math.ceil(labels.length / fit);
      return (labels.length - 1 - index) % step === 0 ? labels[index] : null;
    },
  };
}

function draw(chart, page) {
  const canvas = document.getElementById(`chart-${chart.id}`);
  if (!canvas) return;
  // Right to left: time runs from the right, the value axis on the right, legends and tooltips in Arabic order.
  const direction = { rtl: page.rtl, textDirection: page.rtl ? 'rtl' : 'ltr' };
  new Chart(canvas, {
    type: chart.kind,
    data: {
      labels: chart.labels,
      datasets: chart.series.map((series, index) => dataset(chart, series, index)),
    },
    options: {
      locale: page.lang,
      // No motion: the chart is read, not watched, and a reduced-motion setting is then always met.
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { usePointStyle: chart.kind === 'line' }, ...direction },
        tooltip: direction,
      },
      scales: {
        // offset: half a bucket at each end, so the first and last dates are never cut at the edge.
        x: {
          stacked: chart.stacked,
          reverse: page.rtl,
          offset: true,
          ticks: bucketTicks(chart.labels),
        },
        y: {
          stacked: chart.stacked,
          beginAtZero: true,
          position: page.rtl ? 'right' : 'left',
          ticks: { precision: chart.id === 'collected' ? undefined : 0 },
        },
      },
    },
  });
}

const source = document.getElementById('business-data');
if (source && typeof Chart !== 'undefined') {
  const page = JSON.parse(source.textContent);
  Chart.defaults.color = '#1b1f24';
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  for (const chart of page.charts) draw(chart, page);
}
