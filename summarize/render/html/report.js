// recap's HTML report. Everything it shows comes from the JSON data in the
// page and is put in as text (textContent, createTextNode, attribute
// values), never as markup; links are made only of http and https URLs.
(function () {
  'use strict';

  var SVGNS = 'http://www.w3.org/2000/svg';
  var PAGE = 100;
  var byId = function (id) { return document.getElementById(id); };
  var meta = JSON.parse(byId('recap-meta').textContent);
  var S = [];
  var sum = meta.summary;
  var sc = meta.scales;
  var state = { ready: false, rows: 0, matched: 0, shown: 0 };
  window.recapReport = state;

  // Bidirectional controls and invisible marks are shown by name, so that
  // a message or a line of code reads as it is stored.
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function vis(s) {
    s = s == null ? '' : String(s);
    return s.replace(BIDI, function (c) {
      return '[U+' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0') + ']';
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = vis(text);
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function num(n) { return Number(n).toLocaleString('en-US'); }
  function plural(n, one, many) { return num(n) + ' ' + (n === 1 ? one : many); }

  // safeURL returns an http or https URL, or null: a javascript: or data:
  // link stays text.
  function safeURL(s) {
    if (!s) return null;
    try {
      var u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch (e) {
      return null;
    }
  }
  function link(url, text) {
    var href = safeURL(url);
    if (!href) return el('span', 'url', text || url);
    var a = el('a', null, text || url);
    a.href = href;
    a.rel = 'noopener noreferrer';
    return a;
  }

  // The headline.
  function headline() {
    var dl = byId('headline');
    function item(key, label, value, note) {
      var d = el('div', 'stat');
      d.appendChild(el('dt', null, label));
      var dd = el('dd', null, num(value));
      dd.id = 'count-' + key;
      dd.dataset.count = String(value);
      d.appendChild(dd);
      if (note) d.appendChild(el('dd', 'note', note));
      dl.appendChild(d);
    }
    var dup = sum.duplicates;
    item('problems', 'Problems', sum.problems, dup && dup.findings ? plural(dup.problems, 'reported more than once', 'reported more than once') : '');
    item('findings', 'Findings', sum.total);
    item('files', 'Files', sum.files, (sum.approximate || []).indexOf('files') >= 0 ? 'at least' : '');
    var imp = sum.byImpact || {};
    if (imp.blocker || imp.high) item('severe', 'Blocker and high', (imp.blocker || 0) + (imp.high || 0));
    if (sum.security) item('security', 'Security', sum.security.findings);
    var b = sum.baseline;
    if (b) {
      item('new', 'New', b.new, b.newProblems != null && b.newProblems !== b.new ? plural(b.newProblems, 'new problem', 'new problems') : '');
      item('unchanged', 'Unchanged', b.unchanged);
      item('fixed', 'Fixed', b.fixed);
    }
    var tr = sum.triaged;
    if (tr && (tr.total || tr.confirmed || tr.expired || tr.unmatched)) {
      var states = Object.keys(tr.byState || {}).filter(function (k) { return tr.byState[k]; }).sort(function (a, b) { return triageRank(a) - triageRank(b); })
        .map(function (k) { return num(tr.byState[k]) + ' ' + triageLabel(k); });
      var grave = [];
      if (tr.byImpact && tr.byImpact.blocker) grave.push(num(tr.byImpact.blocker) + ' blocker');
      if (tr.byImpact && tr.byImpact.high) grave.push(num(tr.byImpact.high) + ' high');
      if (grave.length) states.unshift(grave.join(', ') + ' among them'); // a grave finding decided stays in sight, as the text's "(1 high)"
      var note = states.join(', ') + (tr.total && !tr.shown ? ' (not counted above)' : '');
      // Confirmed and expired decisions leave their findings in the counts
      // above: said apart, as the text's "1 finding triaged confirmed".
      var kept = [];
      if (tr.confirmed) kept.push(plural(tr.confirmed, 'finding', 'findings') + ' confirmed' + (tr.overruled ? ' (' + plural(tr.overruled, 'finding', 'findings') + ' decided otherwise too: the decisions on ' + (tr.overruled === 1 ? 'its' : 'their') + ' problem disagree)' : ''));
      if (tr.expired) kept.push(plural(tr.expired, 'finding', 'findings') + ' back, triage expired');
      if (kept.length) note += (note ? '; ' : '') + kept.join(', ') + ' (counted above)';
      // Decisions that matched nothing: a lost one is seen the first time
      // its finding comes back, as the text's triage line says it.
      if (tr.unmatched) {
        note += (note ? '; ' : '') + plural(tr.unmatched, 'decision', 'decisions') + (tr.unmatchedChanged ? ' in the files changed' : '') +
          (tr.unmatched === 1 ? ' matches' : ' match') + (tr.unmatchedOlder ?
            ' no finding, the reports older than the code: ' + tr.unmatchedOlder + ': run the tools again (recap triage check says which)' :
            ' no finding (fixed, edited, or the reports are older than the code): recap triage check says which');
      }
      item('triaged', 'Triaged problems', tr.problems || 0, note);
    }
    var notes = [];
    if (sum.excluded) notes.push(plural(sum.excluded, 'finding excluded', 'findings excluded') + ' by the configuration');
    if (sum.approximate && sum.approximate.length) notes.push('estimated counts: ' + sum.approximate.join(', '));
    if (meta.page) notes.push('this page holds findings ' + num(meta.page.offset + 1) + ' to ' + num(meta.page.offset + meta.page.returned) + ' of ' + num(meta.page.total));
    var rv = meta.review;
    if (rv) {
      if (rv.outside) notes.push(plural(rv.outside, 'more finding is', 'more findings are') + ' outside the changed lines');
      if (rv.notInHead) notes.push(plural(rv.notInHead, 'finding is', 'findings are') + ' on lines only the merge commit has');
    }
    byId('notes').textContent = vis(notes.join('; '));
    var gen = plural(meta.inputs.filter(function (i) { return !i.leftOut; }).length, 'input', 'inputs') + ', ' + plural(sum.total, 'finding', 'findings');
    if (rv) {
      byId('title').textContent = 'recap review';
      var of = rv.whole ? 'every finding of the reports (no change given)'
        : (rv.diff ? 'the change in ' + (rv.diff === '-' ? 'standard input' : rv.diff) : (rv.base || '') + '..' + (rv.head || 'the working tree')) + ', ' + plural(rv.files, 'file', 'files') + ' changed';
      gen = 'Review of ' + of + ': the findings on changed lines' + (sum.baseline ? ', new against the baseline' : '') + '; ' + gen;
    }
    byId('generated').textContent = vis(gen);
  }

  var TRIAGE = { 'false-positive': 'false positive', 'wont-fix': "won't fix", 'accepted-risk': 'accepted risk', 'used-in-tests': 'used in tests', confirmed: 'confirmed' };
  function triageLabel(s) { return TRIAGE[s] || s; }
  function triageRank(s) { var i = Object.keys(TRIAGE).indexOf(s); return i < 0 ? 99 : i; }

  // Charts: SVG drawn here, each with a text equivalent.
  function figure(title, desc) {
    var f = el('figure', 'chart');
    f.appendChild(el('figcaption', null, title));
    var s = svg('svg', { role: 'img', 'aria-label': title + ': ' + desc });
    f.appendChild(s);
    byId('charts').appendChild(f);
    return { fig: f, svg: s };
  }

  // bars draws a horizontal bar chart of items {label, count, cls, pick};
  // an item's pick, when it has one, runs when its bar is clicked, or
  // pressed with Enter or Space (each such bar is a button), with what its
  // aria-label says (act: "filter the problems by").
  function bars(title, items, act) {
    if (!items.length) return null;
    var desc = items.map(function (i) { return vis(i.label) + ' ' + num(i.count); }).join(', ');
    var f = figure(title, desc);
    if (act) {
      f.svg.setAttribute('role', 'group');
      f.fig.appendChild(el('p', 'muted hint', 'Click a bar to ' + act + '.'));
    }
    var max = Math.max.apply(null, items.map(function (i) { return i.count; })) || 1;
    var rowH = 22, labelW = 250, barW = 200, w = labelW + barW + 70;
    f.svg.setAttribute('viewBox', '0 0 ' + w + ' ' + (items.length * rowH + 4));
    f.svg.setAttribute('width', w);
    f.svg.setAttribute('height', items.length * rowH + 4);
    items.forEach(function (it, i) {
      var y = i * rowH + 2;
      var label = vis(it.label);
      if (label.length > 36) label = '…' + label.slice(label.length - 35);
      var g = f.svg;
      if (it.pick) {
        g = svg('g', { 'class': 'pick', role: 'button', tabindex: '0', 'aria-label': label + ' ' + num(it.count) + ' (' + act + ')' });
        g.addEventListener('click', function () { it.pick(); });
        g.addEventListener('keydown', function (e) {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            it.pick();
          }
        });
        g.appendChild(svg('rect', { x: 0, y: y, width: w, height: rowH, 'class': 'hitbox' }));
        f.svg.appendChild(g);
      }
      var t = svg('text', { x: labelW - 6, y: y + 15, 'text-anchor': 'end', 'class': 'label' });
      t.textContent = label;
      var tt = svg('title', {});
      tt.textContent = vis(it.label) + ': ' + num(it.count);
      (it.pick ? g : t).appendChild(tt);
      g.appendChild(t);
      var bw = Math.max(1, Math.round(barW * it.count / max));
      g.appendChild(svg('rect', { x: labelW, y: y + 3, width: bw, height: rowH - 7, rx: 2, 'class': 'bar ' + (it.cls || '') }));
      var c = svg('text', { x: labelW + bw + 5, y: y + 15, 'class': 'value' });
      c.textContent = (it.pick ? ' ' : '') + num(it.count); // a bar's name reads "label count"
      g.appendChild(c);
    });
    return f;
  }

  function qualityImpact() {
    var qs = [], imps = ['blocker', 'high', 'medium', 'low', 'info'];
    ['security', 'reliability', 'maintainability'].forEach(function (q) {
      var c = (sum.byQualityImpact || {})[q];
      if (c) qs.push([q, c]);
    });
    if (!qs.length) return;
    var desc = qs.map(function (p) {
      return p[0] + ': ' + imps.filter(function (i) { return p[1][i]; }).map(function (i) { return num(p[1][i]) + ' ' + i; }).join(', ');
    }).join('; ');
    var f = figure('Quality × impact', desc);
    f.svg.setAttribute('role', 'group');
    f.fig.appendChild(el('p', 'muted hint', 'Click a cell to filter the problems by its quality and impact.'));
    var cellW = 78, cellH = 30, labelW = 120, top = 22;
    var w = labelW + imps.length * cellW, h = top + qs.length * cellH + 2;
    f.svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    f.svg.setAttribute('width', w);
    f.svg.setAttribute('height', h);
    var max = 1;
    qs.forEach(function (p) { imps.forEach(function (i) { max = Math.max(max, p[1][i] || 0); }); });
    imps.forEach(function (i, x) {
      var t = svg('text', { x: labelW + x * cellW + cellW / 2, y: 15, 'text-anchor': 'middle', 'class': 'label' });
      t.textContent = i;
      f.svg.appendChild(t);
    });
    qs.forEach(function (p, y) {
      var t = svg('text', { x: labelW - 8, y: top + y * cellH + 20, 'text-anchor': 'end', 'class': 'label' });
      t.textContent = p[0];
      f.svg.appendChild(t);
      imps.forEach(function (i, x) {
        var n = p[1][i] || 0;
        var level = n === 0 ? 0 : 1 + Math.min(4, Math.floor(5 * Math.log(1 + n) / Math.log(1 + max) - 1e-9));
        var g = f.svg;
        if (n) {
          g = svg('g', { 'class': 'pick', role: 'button', tabindex: '0', 'aria-label': num(n) + ' ' + p[0] + ' ' + i + ' (filter the problems by quality and impact)' });
          var pick = function () { filterCell(p[0], i); };
          g.addEventListener('click', pick);
          g.addEventListener('keydown', function (e) {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              pick();
            }
          });
          f.svg.appendChild(g);
        }
        g.appendChild(svg('rect', { x: labelW + x * cellW + 1, y: top + y * cellH + 1, width: cellW - 2, height: cellH - 2, rx: 3, 'class': 'cell imp-' + i + ' level-' + level }));
        var c = svg('text', { x: labelW + x * cellW + cellW / 2, y: top + y * cellH + 20, 'text-anchor': 'middle', 'class': 'cellvalue level-' + level });
        c.textContent = n ? num(n) : '–';
        g.appendChild(c);
      });
    });
  }

  // trend draws the problems of the earlier runs and this one, stacked by
  // impact.
  function trend() {
    var runs = (meta.history || []).slice();
    if (!runs.length) return;
    var imps = ['blocker', 'high', 'medium', 'low', 'info'];
    var now = {}, dup = (sum.duplicates && sum.duplicates.byImpact) || {};
    imps.forEach(function (i) { now[i] = ((sum.byImpact || {})[i] || 0) - (dup[i] || 0); });
    runs.push({ label: 'this run', problems: sum.problems, findings: sum.total, byImpact: now });
    var desc = runs.map(function (r) { return vis(r.label) + ' ' + num(r.problems); }).join(', ');
    var f = figure('Problems by run', desc);
    var max = 1;
    runs.forEach(function (r) {
      var t = 0;
      imps.forEach(function (i) { t += (r.byImpact || {})[i] || 0; });
      r.total = t;
      max = Math.max(max, t);
    });
    var barW = 26, gap = 10, top = 18, h = 150, labelH = 64, left = 48;
    var w = left + runs.length * (barW + gap) + 20;
    f.svg.setAttribute('viewBox', '0 0 ' + w + ' ' + (top + h + labelH));
    f.svg.setAttribute('width', w);
    f.svg.setAttribute('height', top + h + labelH);
    runs.forEach(function (r, k) {
      var x = left + k * (barW + gap), y = top + h;
      imps.slice().reverse().forEach(function (i) {
        var n = (r.byImpact || {})[i] || 0;
        if (!n) return;
        var bh = Math.max(1, Math.round(h * n / max));
        y -= bh;
        var rect = svg('rect', { x: x, y: y, width: barW, height: bh, 'class': 'cell imp-' + i + ' level-5' });
        var tt = svg('title', {});
        tt.textContent = vis(r.label) + ': ' + num(n) + ' ' + i;
        rect.appendChild(tt);
        f.svg.appendChild(rect);
      });
      var c = svg('text', { x: x + barW / 2, y: y - 4, 'text-anchor': 'middle', 'class': 'value' });
      c.textContent = num(r.problems);
      f.svg.appendChild(c);
      var label = vis(r.label);
      if (label.length > 12) label = '…' + label.slice(label.length - 11);
      var l = svg('text', { x: x + barW / 2, y: top + h + 10, 'text-anchor': 'end', 'class': 'label', transform: 'rotate(-45 ' + (x + barW / 2) + ' ' + (top + h + 10) + ')' });
      l.textContent = label;
      f.svg.appendChild(l);
    });
  }

  function charts() {
    qualityImpact();
    trend();
    var tools = Object.keys(sum.byTool || {}).sort(function (a, b) { return sum.byTool[b] - sum.byTool[a] || (a < b ? -1 : 1); });
    bars('Findings by tool', tools.map(function (t) {
      return { label: t, count: sum.byTool[t], pick: function () { filterBy('tool', function (r) { return S[r[R.tool]] === t; }, function (r) { return r[R.tool]; }); } };
    }), 'filter the problems by tool');
    bars('Top rules', (sum.topRules || []).slice(0, 10).map(function (tr) {
      return { label: tr.tool + ' ' + tr.name, count: tr.count, pick: function () {
        filterBy('rule', function (r) { return S[r[R.tool]] === tr.tool && (S[r[R.rule]] === tr.name || S[r[R.ruleName]] === tr.name); },
          function (r) { return r[R.tool] + ':' + r[R.rule]; });
      } };
    }), 'filter the problems by rule');
  }

  // The rows: [id, tool, rule, rule name, category, path, line, column,
  // end line, quality, impact, severity, baseline, message, detail,
  // triage: 0 or [state, reason, by, date, until, link, expired, via,
  // overrules (when the finding's own decision disagrees, or the
  // decisions of others follow), the decisions it overrules on the
  // problem's other findings ([tool, rule, state] each)]].
  var rows = [], order = null, matched = null, rules = {};
  var R = { id: 0, tool: 1, rule: 2, ruleName: 3, cat: 4, path: 5, line: 6, col: 7, endLine: 8, q: 9, imp: 10, sev: 11, base: 12, msg: 13, det: 14, tri: 15 };
  var BASE = ['', 'new', 'unchanged', 'fixed'];

  meta.rules.forEach(function (r) { rules[r[0] + '\n' + r[1]] = r; });

  // interned puts the names a row holds as strings into the string table,
  // so that filters compare indexes.
  function interned() {
    var at = null;
    var cols = [R.tool, R.rule, R.ruleName, R.cat, R.path];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      for (var c = 0; c < cols.length; c++) {
        var v = r[cols[c]];
        if (typeof v !== 'string') continue;
        if (!at) { at = new Map(); S.forEach(function (x, k) { at.set(x, k); }); }
        var k = at.get(v);
        if (k === undefined) { k = S.length; S.push(v); at.set(v, k); }
        r[cols[c]] = k;
      }
    }
  }

  function decodeBase64(s) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(s);
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function loadRows() {
    var plain = byId('recap-findings');
    if (plain) return Promise.resolve(JSON.parse(plain.textContent));
    // A large report's data is deflated: base64 in the page.
    var z = byId('recap-findings-deflate');
    var bytes = decodeBase64(z.textContent.trim());
    state.timings.decoded = Math.round(performance.now());
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Response(stream).text().then(function (text) {
      state.timings.inflated = Math.round(performance.now());
      return JSON.parse(text);
    });
  }

  function directories() {
    var byDir = new Map();
    for (var i = 0; i < rows.length; i++) {
      var p = S[rows[i][R.path]];
      var k = p.lastIndexOf('/');
      var d = k > 0 ? p.slice(0, k) : (p ? '.' : '(no file)');
      byDir.set(d, (byDir.get(d) || 0) + 1);
    }
    var items = Array.from(byDir, function (e) { return { label: e[0], count: e[1] }; });
    items.sort(function (a, b) { return b.count - a.count || (a.label < b.label ? -1 : 1); });
    items = items.slice(0, 12);
    items.forEach(function (it) {
      if (it.label !== '.' && it.label !== '(no file)') it.pick = function () { filterBy('path', null, it.label + '/'); };
    });
    bars('Directories by problems', items, 'filter the problems by directory');
  }

  // sortRows orders the rows as recap's views do: impact, quality and
  // severity first, then path and line.
  function sortRows() {
    var n = rows.length;
    var pathIdx = [];
    for (var i = 0; i < S.length; i++) pathIdx.push(i);
    pathIdx.sort(function (a, b) { return S[a] < S[b] ? -1 : S[a] > S[b] ? 1 : 0; });
    var rank = new Float64Array(S.length);
    pathIdx.forEach(function (s, r) { rank[s] = r; });
    var key = new Float64Array(n);
    for (i = 0; i < n; i++) {
      var r = rows[i];
      key[i] = ((((7 - r[R.imp]) * 8 + (7 - r[R.q])) * 4 + (3 - r[R.sev])) * 1048576 + rank[r[R.path]]) * 16777216 + Math.min(r[R.line], 16777215);
    }
    order = new Uint32Array(n);
    for (i = 0; i < n; i++) order[i] = i;
    order.sort(function (a, b) { return key[a] - key[b] || a - b; });
  }

  // Filters.
  var form = byId('filters');
  var controls = {};
  function select(name, label, options) {
    var wrap = el('div', 'field');
    var id = 'filter-' + name;
    var l = el('label', null, label);
    l.htmlFor = id;
    var s = el('select');
    s.id = id;
    s.name = name;
    var all = el('option', null, 'all');
    all.value = '';
    s.appendChild(all);
    options.forEach(function (o) {
      var opt = el('option', null, o.label + ' (' + num(o.count) + ')');
      opt.value = String(o.value);
      s.appendChild(opt);
    });
    s.addEventListener('change', apply);
    wrap.appendChild(l);
    wrap.appendChild(s);
    form.appendChild(wrap);
    controls[name] = s;
  }
  function textInput(name, label, placeholder) {
    var wrap = el('div', 'field');
    var id = 'filter-' + name;
    var l = el('label', null, label);
    l.htmlFor = id;
    var i = el('input');
    i.type = 'search';
    i.id = id;
    i.name = name;
    i.placeholder = placeholder;
    i.autocomplete = 'off';
    i.addEventListener('input', apply);
    wrap.appendChild(l);
    wrap.appendChild(i);
    form.appendChild(wrap);
    controls[name] = i;
  }
  function counts(col, names) {
    var c = new Map();
    for (var i = 0; i < rows.length; i++) {
      var v = rows[i][col];
      c.set(v, (c.get(v) || 0) + 1);
    }
    return Array.from(c, function (e) { return { value: e[0], label: names(e[0]), count: e[1] }; });
  }
  function byCount(a, b) { return b.count - a.count || (a.label < b.label ? -1 : 1); }
  function byScale(a, b) { return b.value - a.value; }
  function buildFilters() {
    select('impact', 'Impact', counts(R.imp, function (v) { return sc.impact[v] || 'not placed'; }).sort(byScale));
    select('quality', 'Quality', counts(R.q, function (v) { return sc.quality[v] || 'not placed'; }).sort(byScale));
    select('tool', 'Tool', counts(R.tool, function (v) { return S[v]; }).sort(byCount));
    var rc = new Map();
    for (var i = 0; i < rows.length; i++) {
      var k = rows[i][R.tool] + ':' + rows[i][R.rule];
      var e = rc.get(k);
      if (e) e.count++;
      else rc.set(k, { count: 1, row: rows[i] });
    }
    // Named as the rows name them (a Checkstyle class by its check's name).
    select('rule', 'Rule', Array.from(rc, function (e) {
      return { value: e[0], label: S[e[1].row[R.tool]] + ' ' + ruleLabel(e[1].row), count: e[1].count };
    }).sort(byCount));
    select('category', 'Category', counts(R.cat, function (v) { return S[v] || '(none)'; }).sort(byCount));
    if (sum.baseline) select('baseline', 'Baseline', counts(R.base, function (v) { return BASE[v] || 'none'; }).sort(byScale));
    var tc = new Map();
    for (i = 0; i < rows.length; i++) {
      var tk = triageKey(rows[i]);
      tc.set(tk, (tc.get(tk) || 0) + 1);
    }
    if (tc.size > 1 || !tc.has('none')) {
      select('triage', 'Triage', Array.from(tc, function (e) {
        return { value: e[0], label: e[0] === 'none' ? 'not triaged' : e[0] === 'expired' ? 'expired' : triageLabel(e[0]), count: e[1] };
      }).sort(byCount));
    }
    textInput('path', 'Path', 'src/main/…');
    textInput('search', 'Search', 'message, rule or path');
    var clear = el('button', null, 'Clear filters');
    clear.type = 'button';
    clear.addEventListener('click', function () {
      Object.keys(controls).forEach(function (k) { controls[k].value = ''; });
      apply();
    });
    var wrap = el('div', 'field actions');
    wrap.appendChild(clear);
    form.appendChild(wrap);
    form.addEventListener('submit', function (e) { e.preventDefault(); });
  }

  // triageKey is a row's triage state as the filter names it: the state,
  // "expired", or "none".
  function triageKey(r) {
    var t = r[R.tri];
    if (!t) return 'none';
    return t[6] ? 'expired' : str(t[0]);
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

  // apply filters the rows, in order, and shows the first page.
  function apply() {
    var t0 = performance.now();
    var want = function (name) { var c = controls[name]; return c && c.value !== '' ? c.value : null; };
    var imp = want('impact'), q = want('quality'), tool = want('tool'), rule = want('rule'), cat = want('category'), base = want('baseline'), tri = want('triage');
    imp = imp == null ? -1 : +imp;
    q = q == null ? -1 : +q;
    tool = tool == null ? -1 : +tool;
    cat = cat == null ? -1 : +cat;
    base = base == null ? -1 : +base;
    var ruleTool = -1, ruleId = -1;
    if (rule != null) {
      var p = rule.split(':');
      ruleTool = +p[0];
      ruleId = +p[1];
    }
    var path = (controls.path.value || '').trim().toLowerCase();
    var text = (controls.search.value || '').trim();
    var pathOK = null, textOK = null, re = null;
    if (path) {
      pathOK = new Uint8Array(S.length);
      for (var i = 0; i < S.length; i++) pathOK[i] = S[i].toLowerCase().indexOf(path) >= 0 ? 1 : 0;
    }
    if (text) {
      re = new RegExp(escapeRe(text), 'i');
      textOK = new Uint8Array(S.length);
      for (i = 0; i < S.length; i++) textOK[i] = re.test(S[i]) ? 1 : 0;
    }
    var out = new Uint32Array(order.length), n = 0;
    for (var j = 0; j < order.length; j++) {
      var r = rows[order[j]];
      if (imp >= 0 && r[R.imp] !== imp) continue;
      if (q >= 0 && r[R.q] !== q) continue;
      if (tool >= 0 && r[R.tool] !== tool) continue;
      if (ruleId >= 0 && (r[R.rule] !== ruleId || r[R.tool] !== ruleTool)) continue;
      if (cat >= 0 && r[R.cat] !== cat) continue;
      if (base >= 0 && r[R.base] !== base) continue;
      if (tri != null && triageKey(r) !== tri) continue;
      if (pathOK && !pathOK[r[R.path]]) continue;
      if (re && !(textOK[r[R.path]] || textOK[r[R.rule]] || textOK[r[R.ruleName]] ||
        (typeof r[R.msg] === 'number' ? textOK[r[R.msg]] : re.test(r[R.msg])))) continue;
      out[n++] = order[j];
    }
    matched = out.subarray(0, n);
    state.matched = n;
    byId('list').textContent = '';
    state.shown = 0;
    more();
    state.filterMs = performance.now() - t0;
  }

  function more() {
    var list = byId('list');
    var end = Math.min(matched.length, state.shown + PAGE);
    var frag = document.createDocumentFragment();
    for (var i = state.shown; i < end; i++) frag.appendChild(rowItem(matched[i]));
    list.appendChild(frag);
    state.shown = end;
    var m = byId('more');
    m.hidden = end >= matched.length;
    m.textContent = 'Show ' + num(Math.min(PAGE, matched.length - end)) + ' more';
    var st = byId('status');
    st.dataset.matched = String(matched.length);
    st.dataset.shown = String(end);
    st.textContent = matched.length === rows.length
      ? 'Showing ' + num(end) + ' of ' + plural(rows.length, 'problem', 'problems')
      : plural(matched.length, 'problem matches', 'problems match') + ' the filters; showing ' + num(end);
  }

  function place(path, line, col) {
    var s = path || '(no file)';
    if (line > 0) s += ':' + line;
    if (line > 0 && col > 0) s += ':' + col;
    return s;
  }
  // str is a string of the data: an index into the string table, or the
  // string itself (past the table's bounds).
  function str(x) { return typeof x === 'number' ? S[x] : x; }
  function message(r) { return str(r[R.msg]); }
  function ruleLabel(r) {
    var id = S[r[R.rule]], name = S[r[R.ruleName]];
    if (name && id.split('.').length > 2) return name;
    return id || '(no rule)';
  }

  function rowItem(idx) {
    var r = rows[idx];
    var li = el('li', 'row');
    li.dataset.id = r[R.id];
    var d = el('details');
    var s = el('summary');
    var impName = sc.impact[r[R.imp]] || sc.severity[r[R.sev]] || '';
    s.appendChild(el('span', 'badge imp-' + (sc.impact[r[R.imp]] || 'none'), impName));
    if (r[R.base] === 1) s.appendChild(el('span', 'badge new', 'new'));
    var t = r[R.tri];
    if (t) s.appendChild(el('span', 'badge triaged', t[6] ? 'triage expired' : triageLabel(str(t[0]))));
    s.appendChild(el('span', 'tool', S[r[R.tool]]));
    s.appendChild(el('span', 'rule', ruleLabel(r)));
    s.appendChild(el('span', 'where', place(S[r[R.path]], r[R.line], r[R.col])));
    var msg = message(r).split('\n')[0];
    if (msg.length > 300) msg = msg.slice(0, 299) + '…';
    s.appendChild(el('span', 'msg', msg));
    d.appendChild(s);
    d.addEventListener('toggle', function () {
      if (d.open && d.children.length === 1) d.appendChild(body(r));
    });
    li.appendChild(d);
    return li;
  }

  function section(parent, title) {
    var sec = el('section', 'part');
    sec.appendChild(el('h3', null, title));
    parent.appendChild(sec);
    return sec;
  }
  function placesList(parent, items) {
    var ol = el('ol', 'places');
    items.forEach(function (p) {
      var li = el('li');
      li.appendChild(el('code', null, place(p[0], p[1])));
      if (p[2]) li.appendChild(el('span', null, ' ' + p[2]));
      ol.appendChild(li);
    });
    parent.appendChild(ol);
  }

  function body(r) {
    var det = r[R.det] || {};
    var b = el('div', 'body');
    b.appendChild(el('p', 'message', message(r)));
    var facts = el('dl', 'facts');
    function fact(k, v) {
      if (v == null || v === '') return;
      facts.appendChild(el('dt', null, k));
      var dd = el('dd');
      if (v instanceof Node) dd.appendChild(v); else dd.textContent = vis(v);
      facts.appendChild(dd);
    }
    var toolURL = (meta.tools || {})[S[r[R.tool]]];
    fact('Tool', toolURL ? link(toolURL, S[r[R.tool]]) : S[r[R.tool]]);
    fact('Rule', S[r[R.rule]] + (S[r[R.ruleName]] && S[r[R.ruleName]] !== S[r[R.rule]] ? ' (' + S[r[R.ruleName]] + ')' : ''));
    fact('Importance', [sc.quality[r[R.q]], sc.impact[r[R.imp]]].filter(Boolean).join(', '));
    fact('Severity', sc.severity[r[R.sev]]);
    fact('Category', S[r[R.cat]] + (det.tc ? ' (' + str(det.tc) + ')' : ''));
    fact('Place', place(S[r[R.path]], r[R.line], r[R.col]) + (r[R.endLine] > r[R.line] ? '–' + r[R.endLine] : ''));
    if (r[R.base]) fact('Baseline', BASE[r[R.base]]);
    var t = r[R.tri];
    if (t) {
      var why = el('span', 'triage');
      var words = (t[6] ? 'expired ' + t[4] + ' (was ' + triageLabel(str(t[0])) + ')' : triageLabel(str(t[0]))) + ': ' + str(t[1]);
      var who = [];
      if (t[2]) who.push('by ' + t[2]);
      if (t[3]) who.push('on ' + t[3]);
      if (t[4] && !t[6]) who.push('until ' + t[4]);
      if (who.length) words += ' (' + who.join(', ') + ')';
      if (t[7]) words += '; decided on the problem\'s finding ' + t[7];
      if (t.length > 8 && str(t[8])) words += ', over this finding\'s own decision: ' + triageLabel(str(t[8]));
      if (t.length > 9) t[9].forEach(function (o) { words += ', over the problem\'s ' + o[0] + ' ' + o[1] + ' finding\'s decision: ' + triageLabel(o[2]); });
      why.appendChild(el('span', null, words));
      if (t[5]) {
        why.appendChild(document.createTextNode(' '));
        why.appendChild(link(t[5]));
      }
      fact('Triage', why);
    }
    if (det.cwe) fact('CWE', det.cwe.map(function (c) { return 'CWE-' + c; }).join(', '));
    if (det.lg) fact('In', det.lg.join(', '));
    if (det.sp) fact('Suppressed', det.sp.join('; '));
    fact('Id', r[R.id]);
    b.appendChild(facts);
    if (files && files.has(S[r[R.path]])) {
      var fv = el('button', 'open-file', 'Show in the file view');
      fv.type = 'button';
      fv.addEventListener('click', function () { showFile(S[r[R.path]], r[R.line]); });
      b.appendChild(fv);
    }

    var code = section(b, 'Code');
    code.classList.add('code');
    if (det.c && det.c.length) {
      var pre = el('pre');
      det.c.forEach(function (l) {
        var line = el('span', l[0] === r[R.line] ? 'line hit' : 'line');
        line.appendChild(el('span', 'ln', String(l[0])));
        line.appendChild(el('code', null, l[1]));
        pre.appendChild(line);
      });
      code.appendChild(pre);
    }
    code.appendChild(el('p', 'muted', det.cn ? str(det.cn) : det.c && det.c.length ? '' : 'The source was not at hand when the report was made.'));

    var rule = rules[S[r[R.tool]] + '\n' + S[r[R.rule]]];
    var help = (det.h && str(det.h)) || (rule && rule[5]);
    if (rule || help) {
      var rs = section(b, 'Rule');
      if (rule) {
        [rule[2], rule[3], rule[4]].forEach(function (t, i) {
          if (t && (i === 0 || t !== rule[i + 1])) rs.appendChild(el('p', i === 0 ? 'short' : 'text', t));
        });
        if (rule[6] && rule[6].length) rs.appendChild(el('p', 'muted', 'Tags: ' + rule[6].join(', ')));
      }
      if (help) {
        var p = el('p', null, 'Help: ');
        p.appendChild(link(help));
        rs.appendChild(p);
      }
    }
    if (det.fx || det.fd) {
      var fs = section(b, 'Fix');
      if (det.fd) fs.appendChild(el('p', null, det.fd));
      if (det.fx) {
        var dp = el('pre', 'diff');
        det.fx.replace(/\n$/, '').split('\n').forEach(function (l) {
          var c = l[0] === '+' && l.slice(0, 3) !== '+++' ? 'add' : l[0] === '-' && l.slice(0, 3) !== '---' ? 'del' : l[0] === '@' ? 'hunk' : '';
          dp.appendChild(el('span', 'line ' + c, l));
        });
        fs.appendChild(dp);
      }
      (det.fn || []).forEach(function (n) { fs.appendChild(el('p', 'muted', n)); });
    }
    if (det.fl) {
      var fl = section(b, 'Flow');
      det.fl.forEach(function (f, i) {
        if (f.m || det.fl.length > 1) fl.appendChild(el('p', null, (det.fl.length > 1 ? 'Flow ' + (i + 1) + (f.m ? ': ' : '') : '') + (f.m || '')));
        placesList(fl, f.s);
      });
      if (det.n && det.n.fs) fl.appendChild(el('p', 'muted', 'The report gives ' + plural(det.n.fs, 'step', 'steps') + ' in all.'));
    }
    if (det.rl) {
      var rl = section(b, 'Related locations');
      placesList(rl, det.rl);
      if (det.n && det.n.rl) rl.appendChild(el('p', 'muted', 'The report gives ' + plural(det.n.rl, 'related location', 'related locations') + ' in all.'));
    }
    if (det.lo) placesList(section(b, 'Also at'), det.lo);
    if (det.al) {
      var al = section(b, 'Also reported by');
      al.classList.add('also');
      var ul = el('ul');
      det.al.forEach(function (a) { ul.appendChild(el('li', null, a[0] + ' ' + a[1] + ' (id ' + a[2] + ')')); });
      al.appendChild(ul);
    }
    return b;
  }

  // The file view: a file's findings marked on its lines, in the windows
  // of lines around them that the page holds (data.f: [path, flags,
  // [from, line, …], …]; flags: 1 lines left out, 2 the file changed
  // after its report was written).
  var files = null;
  function setupFiles(data) {
    if (!data || !data.length) return;
    files = new Map();
    data.forEach(function (f) { files.set(str(f[0]), f); });
    var n = new Map();
    for (var i = 0; i < rows.length; i++) {
      var p = S[rows[i][R.path]];
      if (files.has(p)) n.set(p, (n.get(p) || 0) + 1);
    }
    var items = Array.from(n, function (e) { return { value: e[0], label: e[0], count: e[1] }; }).sort(byCount);
    var pick = byId('file-pick');
    var wrap = el('div', 'field');
    var l = el('label', null, 'File');
    l.htmlFor = 'file-select';
    var s = el('select');
    s.id = 'file-select';
    var none = el('option', null, 'choose a file');
    none.value = '';
    s.appendChild(none);
    items.forEach(function (o) {
      var opt = el('option', null, o.label + ' (' + plural(o.count, 'problem', 'problems') + ')');
      opt.value = o.value;
      s.appendChild(opt);
    });
    s.addEventListener('change', function () { showFile(s.value, 0); });
    wrap.appendChild(l);
    wrap.appendChild(s);
    pick.appendChild(wrap);
    pick.addEventListener('submit', function (e) { e.preventDefault(); });
    byId('file-view').hidden = false;
  }

  // showFile shows a file's windows, its findings' lines marked, each mark
  // a button that opens the finding in the list; focus goes to the mark of
  // line when given.
  function showFile(path, line) {
    var body = byId('file-body');
    body.textContent = '';
    var f = files && files.get(path);
    byId('file-select').value = f ? path : '';
    if (!f) {
      byId('file-status').textContent = '';
      return;
    }
    var byLine = new Map(), problems = 0;
    for (var j = 0; j < order.length; j++) {
      var r = rows[order[j]];
      if (S[r[R.path]] !== path) continue;
      problems++;
      if (!byLine.has(r[R.line])) byLine.set(r[R.line], []);
      byLine.get(r[R.line]).push(order[j]);
    }
    var shown = 0, end = 0, target = null, first = null;
    for (var w = 2; w < f.length; w++) {
      var from = f[w][0];
      if (from > end + 1) body.appendChild(el('p', 'gap muted', 'lines ' + num(end + 1) + '–' + num(from - 1) + ' not shown'));
      var pre = el('pre', 'file');
      for (var k = 1; k < f[w].length; k++) {
        var n = from + k - 1, hits = byLine.get(n);
        var ln = el('span', hits ? 'line hit' : 'line');
        ln.appendChild(el('span', 'ln', String(n)));
        ln.appendChild(el('code', null, f[w][k]));
        if (hits) {
          var marks = el('span', 'marks');
          hits.forEach(function (idx) {
            var hr = rows[idx];
            var b = el('button', 'mark imp-' + (sc.impact[hr[R.imp]] || 'none'), (sc.impact[hr[R.imp]] || sc.severity[hr[R.sev]] || '') + ' ' + ruleLabel(hr));
            b.type = 'button';
            b.title = message(hr).split('\n')[0].slice(0, 300);
            b.addEventListener('click', function () { openRow(idx); });
            marks.appendChild(b);
            if (!first) first = b;
            if (n === line && !target) target = b;
          });
          ln.appendChild(marks);
        }
        pre.appendChild(ln);
      }
      body.appendChild(pre);
      shown += f[w].length - 1;
      end = from + f[w].length - 2;
    }
    if (f[1] & 1) body.appendChild(el('p', 'muted', 'The page holds the first lines around the findings of this file; the others are left out.'));
    if (f[1] & 2) body.insertBefore(el('p', 'muted', 'This file changed after its report was written: the lines shown are the file\'s now, and a mark may be on other code than the tool read at its line (run the tool again).'), body.firstChild);
    byId('file-status').textContent = vis(path + ': ' + plural(problems, 'problem', 'problems') + ', ' + plural(shown, 'line', 'lines') + ' shown around them');
    var focus = target || first;
    if (focus) {
      focus.focus();
      focus.scrollIntoView({ block: 'center' });
    }
  }

  // filterBy sets one filter, the others cleared, and shows the list: the
  // value of the first row that match accepts (select), or value (text).
  function filterBy(name, match, value) {
    if (!state.ready) return;
    Object.keys(controls).forEach(function (k) { controls[k].value = ''; });
    var c = controls[name];
    if (match) {
      for (var i = 0; i < rows.length; i++) {
        if (match(rows[i])) {
          c.value = String(value(rows[i]));
          break;
        }
      }
    } else {
      c.value = value;
    }
    apply();
    byId('problems').scrollIntoView({ block: 'start' });
    c.focus();
  }

  // filterCell filters the problems by a quality and an impact, the
  // other filters cleared.
  function filterCell(q, i) {
    if (!state.ready) return;
    Object.keys(controls).forEach(function (k) { controls[k].value = ''; });
    controls.quality.value = String(sc.quality.indexOf(q));
    controls.impact.value = String(sc.impact.indexOf(i));
    apply();
    byId('problems').scrollIntoView({ block: 'start' });
    controls.impact.focus();
  }

  // fileChart draws the files with the most problems whose lines the page
  // holds; a bar opens its file in the file view.
  function fileChart() {
    if (!files) return;
    var n = new Map();
    for (var i = 0; i < rows.length; i++) {
      var p = S[rows[i][R.path]];
      if (files.has(p)) n.set(p, (n.get(p) || 0) + 1);
    }
    var items = Array.from(n, function (e) { return { label: e[0], count: e[1] }; }).sort(byCount).slice(0, 12);
    items.forEach(function (it) { it.pick = function () { showFile(it.label, 0); }; });
    bars('Files by problems', items, 'open the file in the file view');
  }

  // openRow shows a problem in the list: the filters cleared but the path,
  // the list paged to it, opened and focused.
  function openRow(idx) {
    var r = rows[idx];
    Object.keys(controls).forEach(function (k) { controls[k].value = ''; });
    controls.path.value = S[r[R.path]];
    apply();
    var li = null;
    for (;;) {
      li = byId('list').querySelector('li[data-id="' + CSS.escape(r[R.id]) + '"]');
      if (li || state.shown >= matched.length) break;
      more();
    }
    if (!li) return;
    var d = li.querySelector('details');
    d.open = true;
    var s = li.querySelector('summary');
    s.focus();
    s.scrollIntoView({ block: 'start' });
  }

  function inputs() {
    var t = el('table');
    var head = el('tr');
    ['Input', 'Tool', 'Format', 'Findings', 'Status'].forEach(function (h) {
      var th = el('th', null, h);
      th.scope = 'col';
      head.appendChild(th);
    });
    var thead = el('thead');
    thead.appendChild(head);
    t.appendChild(thead);
    var tb = el('tbody');
    meta.inputs.forEach(function (i) {
      var tr = el('tr');
      tr.appendChild(el('td', 'path', i.path));
      tr.appendChild(el('td', null, i.tool || ''));
      tr.appendChild(el('td', null, i.format || ''));
      tr.appendChild(el('td', 'n', num(i.findings)));
      tr.appendChild(el('td', null, i.error ? 'not read: ' + i.error : (i.warnings || []).join('; ') || 'read'));
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    byId('inputs').appendChild(t);
  }

  headline();
  charts();
  inputs();
  byId('footer').textContent = 'Made by recap' + (meta.version ? ' ' + meta.version : '') + '. This page makes no request; it holds its data.';
  byId('more').addEventListener('click', more);
  state.painted = performance.now();
  byId('status').textContent = 'Reading ' + plural(meta.rows, 'problem', 'problems') + '…';
  var timings = state.timings = {};
  function lap(name) { timings[name] = Math.round(performance.now()); }
  loadRows().then(function (data) {
    lap('parsed');
    S = data.s;
    rows = data.r;
    interned();
    state.rows = rows.length;
    sortRows();
    lap('sorted');
    directories();
    buildFilters();
    setupFiles(data.f);
    fileChart();
    lap('filters');
    apply();
    lap('listed');
    state.ready = true;
    state.loaded = performance.now();
    document.body.dataset.ready = 'true';
  }).catch(function (e) {
    byId('status').textContent = 'The problems could not be read: ' + e;
  });
})();
