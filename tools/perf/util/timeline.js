/*
 * The view of a dump, drawn above the flame graph of flamegraph.js from
 * the JSON in #timeline-data: a row for each CPU and for each task, what ran
 * there (sched_switch: the CPU's task, a task's running, preempted and
 * sleeping time) and how many samples fell in each pixel; the dump's
 * request marked at its time, and the spans where events were lost.
 *
 * Drag across the rows to select a time range, click a CPU's or a task's
 * label to take only its samples (again to let go): the flame graph below
 * is redrawn from the selected samples.  The selection is in the URL's
 * fragment too, "#range=START,END&cpu=N&pid=N" (START and END in seconds,
 * as the title gives them), beside the flame graph's zoom and search.
 *
 * The samples are columns (time in microseconds from "start", CPU, task,
 * stack), the stack being the id of its leaf in the node table, which
 * holds the tree once in preorder with each node's parent: a selection's
 * flame graph is a count per node summed up to the root.
 */
'use strict';

const TL_ROW = 14;		/* pixels a timeline row takes */
const TL_TASKS = 24;		/* task rows drawn at most: the busiest */
const TL_TYPES = ['', 'kernel', 'root'];

const tl = { data: null, span: 1, rows: [], cpuRow: new Map(), taskRow: new Map(),
	sel: { range: null, cpu: null, pid: null }, drag: null };

function tlTaskName(i) {
	const t = tl.data.tasks;
	return t.pid[i] > 0 && t.pid[i] !== t.tid[i] ?
		`${t.comm[i]} ${t.pid[i]}/${t.tid[i]}` : `${t.comm[i]} ${t.tid[i]}`;
}

/* The rows: every CPU seen, then the tasks by their samples and switches, the busiest first. */
function tlRows() {
	const d = tl.data;
	const cpus = new Set(d.samples.cpu.concat(d.switches.cpu));
	const weight = new Array(d.tasks.tid.length).fill(0);
	for (const t of d.samples.task)
		weight[t]++;
	for (let i = 0; i < d.switches.t.length; i++)
		weight[d.switches.next[i]]++;
	const tasks = weight.map((w, i) => i).filter((i) => weight[i] && d.tasks.tid[i] !== 0);
	tasks.sort((a, b) => weight[b] - weight[a] || d.tasks.tid[a] - d.tasks.tid[b]);
	for (const cpu of [...cpus].sort((a, b) => a - b)) {
		tl.cpuRow.set(cpu, tl.rows.length);
		tl.rows.push({ label: `CPU ${cpu}`, cpu });
	}
	for (const t of tasks.slice(0, TL_TASKS)) {
		tl.taskRow.set(t, tl.rows.length);
		tl.rows.push({ label: tlTaskName(t), task: t, pid: d.tasks.pid[t] > 0 ?
			d.tasks.pid[t] : d.tasks.tid[t] });
	}
	return tasks.length;
}

function tlHue(i) {
	return `hsl(${(i * 47) % 360},55%,72%)`;
}

/* sched_switch: the CPU's row in its task's colour, the task's row green when it ran. */
function tlDrawSwitches(ctx, x) {
	const s = tl.data.switches;
	const since = new Map();	/* CPU -> [time, task] running there */
	const out = new Map();		/* task -> [time, state] it left the CPU */
	const rect = (row, t0, t1, colour, half) => {
		if (row === undefined)
			return;
		ctx.fillStyle = colour;
		ctx.fillRect(x(t0), row * TL_ROW + 1, Math.max(1, x(t1) - x(t0)),
			half ? TL_ROW / 2 - 1 : TL_ROW - 2);
	};
	for (let i = 0; i < s.t.length; i++) {
		const run = since.get(s.cpu[i]);
		if (run) {
			rect(tl.cpuRow.get(s.cpu[i]), run[0], s.t[i], tlHue(run[1]), false);
			rect(tl.taskRow.get(run[1]), run[0], s.t[i], 'rgb(120,200,120)', false);
		}
		out.set(s.prev[i], [s.t[i], s.state[i]]);
		const left = out.get(s.next[i]);
		if (left) {
			rect(tl.taskRow.get(s.next[i]), left[0], s.t[i],
				left[1] ? 'rgb(215,215,215)' : 'rgb(250,180,110)', true);
			out.delete(s.next[i]);
		}
		since.set(s.cpu[i], [s.t[i], s.next[i]]);
	}
}

/* The samples as a density: each row's count per pixel, darker for more. */
function tlDrawSamples(ctx, width) {
	const s = tl.data.samples;
	const bins = new Uint32Array(tl.rows.length * width);
	let max = 1;
	const add = (row, t) => {
		if (row === undefined)
			return;
		const k = row * width + Math.min(width - 1, Math.floor(t * width / tl.span));
		bins[k]++;
		max = Math.max(max, bins[k]);
	};
	for (let i = 0; i < s.t.length; i++) {
		add(tl.cpuRow.get(s.cpu[i]), s.t[i]);
		add(tl.taskRow.get(s.task[i]), s.t[i]);
	}
	for (let k = 0; k < bins.length; k++) {
		if (!bins[k])
			continue;
		ctx.fillStyle = `rgba(30,30,120,${0.25 + 0.75 * bins[k] / max})`;
		ctx.fillRect(k % width, Math.floor(k / width) * TL_ROW + TL_ROW / 2, 1, TL_ROW / 2 - 1);
	}
}

function tlMark(plot, cls, t0, t1, title) {
	const m = document.createElement('div');
	m.className = cls;
	m.style.left = (100 * t0 / tl.span) + '%';
	m.style.width = t1 === null ? '' : Math.max(0.1, 100 * (t1 - t0) / tl.span) + '%';
	m.title = title;
	plot.appendChild(m);
	return m;
}

/* The request's line and the losses' spans, over the rows. */
function tlDrawMarks(plot) {
	const d = tl.data;
	const l = d.lost;
	for (let i = 0; i < l.t0.length; i++) {
		const m = tlMark(plot, 'tl-lost', l.t0[i], l.t1[i],
			`${l.n[i]} ${l.samples[i] ? 'samples' : 'events'} lost` +
			(l.cpu[i] >= 0 ? ` on CPU ${l.cpu[i]}` : ''));
		m.dataset.lost = l.n[i];
	}
	if (d.request) {
		const m = tlMark(plot, 'tl-request', d.request.t, null, `dump: ${d.request.text}`);
		m.dataset.text = d.request.text;
		m.dataset.time = d.request.at || (d.start + d.request.t / 1e6).toFixed(6);
	}
}

function tlDraw() {
	const plot = document.getElementById('tl-plot');
	const canvas = document.getElementById('tl-canvas');
	const width = Math.max(100, plot.clientWidth);
	canvas.width = width;
	canvas.height = tl.rows.length * TL_ROW;
	canvas.style.height = canvas.height + 'px';
	const ctx = canvas.getContext('2d');
	ctx.fillStyle = 'rgb(248,248,248)';
	ctx.fillRect(0, 0, width, canvas.height);
	tlDrawSwitches(ctx, (t) => t * width / tl.span);
	tlDrawSamples(ctx, width);
}

/* The selection from the fragment: range in seconds, cpu, pid. */
function tlFromFragment() {
	const args = new URLSearchParams(location.hash.slice(1));
	const sel = { range: null, cpu: null, pid: null };
	const range = (args.get('range') || '').split(',').map(Number);
	if (range.length === 2 && range.every(Number.isFinite) && range[0] <= range[1])
		sel.range = range.map((s) => Math.round((s - tl.data.start) * 1e6));
	for (const key of ['cpu', 'pid']) {
		const v = args.get(key);
		if (v !== null && v !== '' && Number.isInteger(Number(v)))
			sel[key] = Number(v);
	}
	tl.sel = sel;
}

function tlToFragment(sel) {
	const args = new URLSearchParams(location.hash.slice(1));
	const secs = (us) => (tl.data.start + us / 1e6).toFixed(6);
	for (const key of ['range', 'cpu', 'pid'])
		args.delete(key);
	if (sel.range)
		args.set('range', sel.range.map(secs).join(','));
	if (sel.cpu !== null)
		args.set('cpu', sel.cpu);
	if (sel.pid !== null)
		args.set('pid', sel.pid);
	location.hash = args.toString();
}

/* The selected samples' flame graph: a count per leaf, totals up the parents, the tree rebuilt. */
function tlTree() {
	const d = tl.data;
	const s = d.samples;
	const nodes = d.nodes;
	const count = new Float64Array(nodes.p.length);
	const sel = tl.sel;
	let nr = 0;
	for (let i = 0; i < s.t.length; i++) {
		if (sel.range && (s.t[i] < sel.range[0] || s.t[i] > sel.range[1]))
			continue;
		if (sel.cpu !== null && s.cpu[i] !== sel.cpu)
			continue;
		if (sel.pid !== null && d.tasks.pid[s.task[i]] !== sel.pid &&
		    d.tasks.tid[s.task[i]] !== sel.pid)
			continue;
		count[s.s[i]]++;
		nr++;
	}
	const total = Float64Array.from(count);
	for (let i = nodes.p.length - 1; i > 0; i--)
		total[nodes.p[i]] += total[i];
	const objs = new Array(nodes.p.length);
	objs[0] = { n: nodes.n[0], l: 'root', v: count[0], c: [] };
	for (let i = 1; i < nodes.p.length; i++) {
		if (!total[i])
			continue;
		objs[i] = { n: nodes.n[i], l: TL_TYPES[nodes.l[i]], v: count[i], c: [] };
		objs[nodes.p[i]].c.push(objs[i]);
	}
	return [objs[0], nr];
}

function tlSelectionText(nr) {
	const sel = tl.sel;
	const parts = [];
	const secs = (us) => (tl.data.start + us / 1e6).toFixed(6);
	if (sel.range)
		parts.push(`${secs(sel.range[0])} to ${secs(sel.range[1])} s`);
	if (sel.cpu !== null)
		parts.push(`CPU ${sel.cpu}`);
	if (sel.pid !== null)
		parts.push(`pid ${sel.pid}`);
	return `${parts.length ? 'Selected: ' + parts.join(', ') : 'All'}: ${nr} samples`;
}

/* The box over the rows of @range ([from, to] in microseconds), or none. */
function tlDrawRange(range) {
	const box = document.getElementById('tl-selection');
	if (range) {
		box.style.display = 'block';
		box.style.left = (100 * range[0] / tl.span) + '%';
		box.style.width = (100 * (range[1] - range[0]) / tl.span) + '%';
	} else {
		box.style.display = 'none';
	}
}

/* The selection drawn on the timeline and the flame graph redrawn for it. */
function tlApply() {
	tlFromFragment();
	const sel = tl.sel;
	tlDrawRange(sel.range);
	for (const label of document.querySelectorAll('.tl-label')) {
		const row = tl.rows[label.dataset.row];
		label.classList.toggle('selected', row.cpu !== undefined ? row.cpu === sel.cpu :
			row.pid === sel.pid);
	}
	const [root, nr] = tlTree();
	const info = document.getElementById('tl-selected');
	info.textContent = tlSelectionText(nr);
	info.dataset.samples = nr;
	show(root);
}

function tlDragTime(ev) {
	const r = document.getElementById('tl-plot').getBoundingClientRect();
	const f = Math.min(1, Math.max(0, (ev.clientX - r.left) / (r.width || 1)));
	return Math.round(f * tl.span);
}

function tlListen() {
	const plot = document.getElementById('tl-plot');
	plot.addEventListener('mousedown', (ev) => {
		tl.drag = tlDragTime(ev);
		ev.preventDefault();
	});
	/* The box follows the mouse, so that the range is seen before it is let go. */
	window.addEventListener('mousemove', (ev) => {
		if (tl.drag === null)
			return;
		const t = tlDragTime(ev);
		tlDrawRange([Math.min(tl.drag, t), Math.max(tl.drag, t)]);
	});
	window.addEventListener('mouseup', (ev) => {
		if (tl.drag === null)
			return;
		const t = tlDragTime(ev);
		const range = [Math.min(tl.drag, t), Math.max(tl.drag, t)];
		tl.drag = null;
		/* The box as the selection has it: a fragment that does not change is not applied again. */
		tlDrawRange(tl.sel.range);
		/* A click, not a drag, lets go of the range. */
		tlToFragment({ ...tl.sel, range: range[1] - range[0] > tl.span / 1000 ? range : null });
	});
	document.getElementById('tl-labels').addEventListener('click', (ev) => {
		const row = tl.rows[ev.target.dataset.row];
		if (!row)
			return;
		if (row.cpu !== undefined)
			tlToFragment({ ...tl.sel, cpu: tl.sel.cpu === row.cpu ? null : row.cpu });
		else
			tlToFragment({ ...tl.sel, pid: tl.sel.pid === row.pid ? null : row.pid });
	});
	document.getElementById('tl-clear').addEventListener('click', () => {
		tlToFragment({ range: null, cpu: null, pid: null });
	});
	window.addEventListener('resize', tlDraw);
}

function tlSetup(nrTasks) {
	const d = tl.data;
	const view = document.createElement('div');
	view.id = 'timeline';
	const more = nrTasks > TL_TASKS ? ` (the ${TL_TASKS} busiest of ${nrTasks} tasks)` : '';
	view.innerHTML = '<div id="tl-info"><span id="tl-range"></span>' +
		' <button id="tl-clear">Clear selection</button> <span id="tl-selected"></span>' +
		`${more}</div><div id="tl-body"><div id="tl-labels"></div>` +
		'<div id="tl-plot"><canvas id="tl-canvas"></canvas>' +
		'<div id="tl-selection"></div></div></div>';
	document.body.insertBefore(view, document.getElementById('bar'));
	document.getElementById('tl-range').textContent =
		`${d.start.toFixed(6)} to ${d.end.toFixed(6)} s` +
		(d.request ? `, dumped on ${d.request.text}` : '');
	const labels = document.getElementById('tl-labels');
	tl.rows.forEach((row, i) => {
		const l = document.createElement('div');
		l.className = 'tl-label';
		l.textContent = row.label;
		l.dataset.row = i;
		l.style.height = TL_ROW + 'px';
		if (row.cpu !== undefined)
			l.dataset.cpu = row.cpu;
		else
			l.dataset.pid = row.pid;
		labels.appendChild(l);
	});
	view.dataset.samples = d.samples.t.length;
	view.dataset.switches = d.switches.t.length;
	view.dataset.cpus = tl.cpuRow.size;
	view.dataset.tasks = tl.taskRow.size;
	tlDrawMarks(document.getElementById('tl-plot'));
}

function tlMain() {
	tl.data = JSON.parse(document.getElementById('timeline-data').textContent);
	tl.span = Math.max(1, Math.round((tl.data.end - tl.data.start) * 1e6));
	const nrTasks = tlRows();
	setup(tlApply);
	tlSetup(nrTasks);
	tlDraw();
	tlListen();
	tlApply();
	rendered();
}

if (document.getElementById('timeline-data'))
	tlMain();
