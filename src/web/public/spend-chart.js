// The dashboard's spend chart: spend per UTC day and model over the last 30 days, drawn with uPlot
// from /dashboard/spend.json (exact decimal strings, turned into numbers only to draw).
(function () {
  'use strict';
  var COLORS = ['#2f5bea', '#e67e22', '#16a085', '#8e44ad', '#c0392b', '#2c3e50', '#d4ac0d', '#7f8c8d'];

  function empty(host, text) {
    var note = document.createElement('p');
    note.className = 'empty';
    note.textContent = text;
    host.appendChild(note);
  }

  function draw(host, data) {
    if (!data.series.length) {
      empty(host, 'No spend in the last 30 days yet.');
      return;
    }
    var columns = [data.days].concat(data.series.map(function (line) {
      return line.usd.map(Number);
    }));
    var series = [{ label: 'Day (UTC)' }].concat(data.series.map(function (line, index) {
      var color = COLORS[index % COLORS.length];
      return { label: line.model, stroke: color, fill: color + '22', width: 2, points: { show: true, size: 5 }, value: function (u, v) { return v == null ? '' : '$' + v.toPrecision(4); } };
    }));
    var width = Math.max(320, host.clientWidth);
    new window.uPlot({
      width: width,
      height: 280,
      series: series,
      scales: { x: { time: true } },
      axes: [{}, { values: function (u, ticks) { return ticks.map(function (t) { return '$' + t; }); }, size: 70 }],
    }, columns, host);
  }

  function start() {
    var host = document.getElementById('spend-chart');
    if (!host || !window.uPlot) return;
    fetch(host.getAttribute('data-source'), { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (data) { draw(host, data); })
      .catch(function () { empty(host, 'The chart could not be loaded.'); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
