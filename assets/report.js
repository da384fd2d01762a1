// report.html's interactive charts: ddbsim's data (the JSON in #ddbsim-data) drawn with the
// vendored uPlot. Hover a chart for values (every chart follows the cursor), drag across one to
// zoom all of them in time, double-click to zoom out, click a legend entry to hide a series.
// With #selftest in the address, the page hovers and zooms its first chart itself and writes
// what it saw into attributes of <body> (read by ddbsim's browser test).
(function () {
  "use strict";
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById("ddbsim-data").textContent);
  var host = document.getElementById("interactive");
  var width = Math.max(600, Math.min(1200, host.clientWidth || 1200));
  var charts = [];
  var syncing = false;
  var utc = function (ts) { return uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"); };
  var fmt = function (v, digits) {
    if (v == null) return "–";
    var a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(2) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(1) + "k";
    return a >= 100 ? v.toFixed(0) : v.toFixed(digits);
  };
  // Zooming one chart zooms every chart to the same time range.
  var syncX = function (u, key) {
    if (key !== "x" || syncing) return;
    syncing = true;
    var x = u.scales.x;
    charts.forEach(function (c) { if (c !== u) c.setScale("x", { min: x.min, max: x.max }); });
    syncing = false;
  };
  var hm = uPlot.fmtDate("{HH}:{mm}"), dhm = uPlot.fmtDate("{MM}-{DD} {HH}:{mm}"), full = uPlot.fmtDate("{YYYY}-{MM}-{DD} {HH}:{mm} UTC");
  var xAxis = {
    space: 110,
    values: function (u, splits) {
      var span = u.scales.x.max - u.scales.x.min;
      return splits.map(function (ts) { return (span > 86400 ? dhm : hm)(utc(ts)); });
    }
  };
  var xSeries = { label: "UTC", value: function (u, ts) { return ts == null ? "–" : full(utc(ts)); } };
  var base = function (title, height) {
    return {
      title: title, width: width, height: height, tzDate: utc,
      cursor: { sync: { key: "ddbsim" }, drag: { x: true, y: false } },
      hooks: { setScale: [syncX] },
      legend: { live: true }
    };
  };
  var div = function (cls) {
    var d = document.createElement("div");
    d.className = cls;
    host.appendChild(d);
    return d;
  };
  var bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.9, 50] }) : null;
  var stepped = uPlot.paths.stepped ? uPlot.paths.stepped({ align: 1 }) : null;
  D.panels.forEach(function (p) {
    var o = base(p.title, 260);
    o.series = [
      xSeries,
      { label: "requested", stroke: "#999", width: 1, value: function (u, v) { return fmt(v, 1); } },
      { label: "provisioned", stroke: "rgba(44,160,44,0.6)", width: 3, paths: stepped, value: function (u, v) { return fmt(v, 0); } },
      { label: "on-demand capacity", stroke: "rgba(255,127,14,0.7)", width: 3, paths: stepped, value: function (u, v) { return fmt(v, 0); } },
      { label: "consumed", stroke: "#1f77b4", width: 1.5, value: function (u, v) { return fmt(v, 1); } }
    ];
    o.axes = [xAxis, { label: p.unit, size: 60, values: function (u, vs) { return vs.map(function (v) { return fmt(v, 1); }); } }];
    o.scales = { y: { range: function (u, min, max) { return [0, Math.max(1, max) * 1.1]; } } };
    var box = div("chart capacity");
    box.setAttribute("data-chart", p.title);
    charts.push(new uPlot(o, [p.x, p.requested, p.provisioned, p.on_demand, p.consumed], box));
    var t = base("", 130);
    t.series = [
      xSeries,
      { label: "throttle events / " + p.bucket, stroke: "#d62728", fill: "rgba(214,39,40,0.8)", paths: bars, points: { show: false }, value: function (u, v) { return fmt(v, 0); } },
      { label: "capacity events", scale: "ev", stroke: "#9467bd", width: 0, points: { show: true, size: 8, fill: "#9467bd" }, paths: function () { return null; }, value: function (u, v) { return v == null ? "–" : v.toFixed(0); } }
    ];
    t.axes = [xAxis, { label: "throttles", size: 60, values: function (u, vs) { return vs.map(function (v) { return fmt(v, 0); }); } }, { scale: "ev", side: 1, label: "events", size: 50, grid: { show: false } }];
    t.scales = { y: { range: function (u, min, max) { return [0, Math.max(1, max) * 1.1]; } }, ev: { range: function (u, min, max) { return [0, Math.max(1, max) * 1.3]; } } };
    var tb = div("chart throttles");
    tb.setAttribute("data-chart", p.title + " — throttles");
    charts.push(new uPlot(t, [p.x, p.throttles, p.events], tb));
  });
  if (D.latency && D.latency.x.length) {
    var l = base("client latency of successful requests, ms (log scale)", 260);
    l.series = [
      xSeries,
      { label: "p50", stroke: "#1f77b4", width: 2, value: function (u, v) { return fmt(v, 2); } },
      { label: "p99", stroke: "#ff7f0e", width: 2, value: function (u, v) { return fmt(v, 2); } },
      { label: "max", stroke: "#d62728", width: 1, value: function (u, v) { return fmt(v, 2); } }
    ];
    l.scales = { y: { distr: 3, log: 10 } };
    l.axes = [xAxis, { label: "ms", size: 60 }];
    var lb = div("chart latency");
    lb.setAttribute("data-chart", "latency");
    charts.push(new uPlot(l, [D.latency.x, D.latency.p50, D.latency.p99, D.latency.max], lb));
  }
  document.body.setAttribute("data-interactive-charts", String(charts.length));
  document.body.setAttribute("data-render-ms", (performance.now()).toFixed(0));
  document.body.setAttribute("data-build-ms", (performance.now() - t0).toFixed(0));
  window.addEventListener("load", function () { document.body.setAttribute("data-load-ms", performance.now().toFixed(0)); });
  window.ddbsimCharts = charts;
  if (location.hash !== "#selftest" || !charts.length) return;
  // The self-test, once uPlot has drawn: real mouse events on the first chart's plot area.
  setTimeout(selftest, 100);
  function selftest() {
  var u = charts[0];
  var r = u.over.getBoundingClientRect();
  var at = function (type, fx, target) {
    (target || u.over).dispatchEvent(new MouseEvent(type, { clientX: r.left + r.width * fx, clientY: r.top + r.height / 2, bubbles: true, cancelable: true, view: window, button: 0, movementX: 5, movementY: 0 }));
  };
  at("mouseenter", 0.5);
  at("mousemove", 0.5);
  var values = Array.prototype.map.call(u.root.querySelectorAll(".u-legend .u-series"), function (s) {
    var label = s.querySelector(".u-label"), value = s.querySelector(".u-value");
    return (label ? label.textContent : "") + "=" + (value ? value.textContent : "");
  });
  document.body.setAttribute("data-hover-index", String(u.cursor.idx));
  document.body.setAttribute("data-hover-values", values.join(";"));
  // Pixels of the consumed / p50 colour (#1f77b4) on each chart's canvas: a chart whose data
  // has consumption but that paints none of it rendered empty.
  var painted = charts.map(function (c) {
    var cv = c.root.querySelector("canvas");
    var d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
    var n = 0;
    for (var i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - 31) < 30 && Math.abs(d[i + 1] - 119) < 30 && Math.abs(d[i + 2] - 180) < 30 && d[i + 3] > 100) n++;
    }
    return n;
  });
  document.body.setAttribute("data-painted", painted.join(","));
  var images = Array.prototype.filter.call(document.querySelectorAll("figure.heatmap img"), function (im) { return im.complete && im.naturalWidth > 0; });
  document.body.setAttribute("data-images", String(images.length));
  var before = [u.scales.x.min, u.scales.x.max];
  at("mousedown", 0.25);
  at("mousemove", 0.75);
  document.body.setAttribute("data-select", [u.select.left, u.select.width].join(","));
  at("mouseup", 0.75, document);
  // uPlot applies a new scale in a microtask: read it afterwards.
  setTimeout(function () {
    var after = [u.scales.x.min, u.scales.x.max];
    var last = charts[charts.length - 1].scales.x;
    document.body.setAttribute("data-zoom", before.join(",") + ">" + after.join(",") + ">" + [last.min, last.max].join(","));
  }, 50);
  }
})();
