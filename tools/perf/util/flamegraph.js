/*
 * Draws the flame graph of the JSON in #stacks: the root at the bottom,
 * callees above their callers, each frame as wide as its samples.
 *
 * Click a frame to zoom into it, and one below it (or "Reset zoom") to
 * zoom back out; type in the search box to mark the frames whose names
 * contain the text, with their share of all samples.  The state is also
 * in the URL's fragment, "#zoom=a;b;c&search=text" (the path of names from
 * the root's child down), so that a link or a headless browser can open
 * the page in that state.
 *
 * A differential graph (perf script report flamegraph --diff) has each
 * node's baseline samples in "b": widths stay the new file's, and the
 * colour is the change of the frame's share of all samples, red where it
 * grew and blue where it shrank, the strongest for the largest change, as
 * flamegraph.pl's difffolded colours them.  The change is also the
 * frame's data-delta, in points of percent.
 *
 * For its test, the page counts on <body> what went wrong: data-errors
 * and data-blocked (page-report.js, in <head>), and data-requests
 * (resources fetched at all) once it is drawn.
 */
'use strict';


const ROW = 18;			/* pixels a frame row takes */
const MIN_WIDTH = 0.0005;	/* frames narrower than this share of the view are left out */

/* Each node gets its total samples, its parent, its depth and the depth of its deepest descendant. */
function prepare(node, parent, depth) {
	node.parent = parent;
	node.depth = depth;
	node.total = node.v;
	let deepest = depth;
	for (const c of node.c) {
		deepest = Math.max(deepest, prepare(c, node, depth + 1));
		node.total += c.total;
	}
	node.deepest = deepest;
	return deepest;
}

/* Of a diff: the change of the node's share, in points of percent. */
function delta(node) {
	return 100 * (node.total / (state.root.total || 1) - node.b / (state.root.b || 1));
}

/* The largest change of any node, which gets the strongest colour. */
function maxDelta(node) {
	let m = Math.abs(delta(node));
	for (const c of node.c)
		m = Math.max(m, maxDelta(c));
	return m;
}

function diffColour(node) {
	const d = delta(node);
	const strength = state.maxDelta ? Math.abs(d) / state.maxDelta : 0;
	const fade = Math.round(230 - 180 * strength);
	if (Math.abs(d) < 0.005)
		return 'rgb(235,235,235)';
	return d > 0 ? `rgb(240,${fade},${fade})` : `rgb(${fade},${fade},240)`;
}

/* A stable colour from a name: warm for the orange scheme, blue-green else; kernel apart. */
function colour(node, scheme) {
	if (state.diff)
		return diffColour(node);
	let h = 0;
	for (let i = 0; i < node.n.length; i++)
		h = (h * 31 + node.n.charCodeAt(i)) >>> 0;
	const r = (h % 1000) / 1000;
	if (node.l === 'root')
		return 'rgb(200,200,200)';
	if (scheme === 'orange')
		return node.l === 'kernel' ? `rgb(230,${Math.round(110 + 60 * r)},80)` :
			`rgb(250,${Math.round(150 + 80 * r)},50)`;
	return node.l === 'kernel' ? `rgb(${Math.round(80 + 60 * r)},160,220)` :
		`rgb(60,${Math.round(160 + 70 * r)},${Math.round(100 + 60 * r)})`;
}

function path(node) {
	const names = [];
	for (let n = node; n.parent; n = n.parent)
		names.unshift(n.n);
	return names;
}

function find(root, names) {
	let n = root;
	for (const name of names) {
		n = n.c.find((c) => c.n === name);
		if (!n)
			return root;
	}
	return n;
}

const state = { root: null, zoom: null, search: '', scheme: '', diff: false,
	maxDelta: 0 };

/* The share of all samples in frames that match, counting nested matches once. */
function matched(node, text) {
	if (node.n.includes(text))
		return node.total;
	let sum = 0;
	for (const c of node.c)
		sum += matched(c, text);
	return sum;
}

function frameDiv(node, x, width, chart, height) {
	const d = document.createElement('div');
	d.className = 'frame';
	d.style.left = (x * 100) + '%';
	d.style.width = (width * 100) + '%';
	d.style.top = (height - (node.depth + 1) * ROW) + 'px';
	d.style.background = colour(node, state.scheme);
	d.textContent = node.n;
	d.dataset.name = node.n;
	d.dataset.samples = node.total;
	if (state.diff)
		d.dataset.delta = delta(node).toFixed(2);
	d.node = node;
	if (state.search && node.n.includes(state.search))
		d.classList.add('match');
	chart.appendChild(d);
}

/* The zoomed frame's subtree across the whole width, its callers below it full width too. */
function draw() {
	const chart = document.getElementById('chart');
	const zoom = state.zoom;
	/* As tall as the zoomed frame's subtree: a shallow one is not drawn under empty rows. */
	const height = (zoom.deepest + 1) * ROW;

	chart.textContent = '';
	chart.style.height = height + 'px';
	chart.dataset.zoom = path(zoom).join(';');
	for (let n = zoom.parent; n; n = n.parent) {
		frameDiv(n, 0, 1, chart, height);
		chart.lastChild.classList.add('above');
	}
	const walk = (node, x, share) => {
		frameDiv(node, x, share, chart, height);
		for (const c of node.c) {
			const w = share * c.total / (node.total || 1);
			if (w >= MIN_WIDTH)
				walk(c, x, w);
			x += w;
		}
	};
	walk(zoom, 0, 1);

	const m = document.getElementById('matched');
	if (state.search) {
		const hit = matched(state.root, state.search);
		m.textContent = `Matched: ${(100 * hit / (state.root.total || 1)).toFixed(2)}% ` +
			`(${hit} of ${state.root.total} samples)`;
	} else {
		m.textContent = '';
	}
	/* The fragment's other keys are the timeline's selection: they stay. */
	const args = new URLSearchParams(location.hash.slice(1));
	if (zoom !== state.root)
		args.set('zoom', path(zoom).join(';'));
	else
		args.delete('zoom');
	if (state.search)
		args.set('search', state.search);
	else
		args.delete('search');
	const hash = args.toString();
	/* A page opened from a file may not rewrite its own URL in every browser. */
	try {
		history.replaceState(null, '', hash ? '#' + hash : location.pathname);
	} catch (e) {
		/* the state is still drawn; only the link to it is not updated */
	}
}

function fromFragment() {
	const args = new URLSearchParams(location.hash.slice(1));
	const zoom = args.get('zoom');
	state.zoom = zoom ? find(state.root, zoom.split(';')) : state.root;
	state.search = args.get('search') || '';
	document.getElementById('search').value = state.search;
}

function tooltip(ev) {
	const tip = document.getElementById('tip');
	const node = ev.target.node;
	if (!node) {
		tip.style.display = 'none';
		return;
	}
	const pct = 100 * node.total / (state.root.total || 1);
	let text = `${node.n}: ${node.total} samples (${pct.toFixed(2)}%)`;
	if (state.diff) {
		const d = delta(node);
		text += `, baseline ${node.b} (${(100 * node.b / (state.root.b || 1)).toFixed(2)}%),` +
			` ${d >= 0 ? '+' : ''}${d.toFixed(2)} points`;
	}
	tip.textContent = text;
	tip.style.display = 'block';
	tipPlace(tip, ev.clientX, ev.clientY);
}

/* Below and right of the mouse, or on its other side where the window would cut the tip off. */
function tipPlace(tip, x, y) {
	const view = document.documentElement;
	const w = tip.offsetWidth;
	const h = tip.offsetHeight;
	let left = x + 12;
	let top = y + 12;
	if (left + w > view.clientWidth)
		left = Math.max(0, x - 12 - w);
	if (top + h > view.clientHeight)
		top = Math.max(0, y - 12 - h);
	tip.style.left = left + 'px';
	tip.style.top = top + 'px';
}

/*
 * The page's controls and graph, once.  @onHash, if given, handles a new
 * fragment instead of the graph (the timeline, which redraws it).
 */
function setup(onHash) {
	const bar = document.createElement('div');
	bar.id = 'bar';
	bar.innerHTML = '<input id="search" type="search" placeholder="Search frames">' +
		' <button id="reset">Reset zoom</button><span id="matched"></span>';
	document.body.appendChild(bar);
	for (const id of ['chart', 'tip']) {
		const d = document.createElement('div');
		d.id = id;
		document.body.appendChild(d);
	}
	const chart = document.getElementById('chart');
	chart.addEventListener('click', (ev) => {
		if (ev.target.node) {
			state.zoom = ev.target.node;
			draw();
		}
	});
	chart.addEventListener('mousemove', tooltip);
	chart.addEventListener('mouseleave', () => {
		document.getElementById('tip').style.display = 'none';
	});
	document.getElementById('search').addEventListener('input', (ev) => {
		state.search = ev.target.value;
		draw();
	});
	document.getElementById('reset').addEventListener('click', () => {
		state.zoom = state.root;
		draw();
	});
	window.addEventListener('hashchange', onHash || (() => {
		fromFragment();
		draw();
	}));
}

/* Draws the tree @root ({n, l, v, c}, "b" of a diff), zoomed and searched as the fragment says. */
function show(root) {
	state.root = root;
	prepare(state.root, null, 0);
	state.diff = 'b' in state.root;
	state.maxDelta = state.diff ? maxDelta(state.root) : 0;
	fromFragment();
	draw();
}

/* What the page's test reads once it has been drawn, and the bench its time from navigation to here. */
function rendered() {
	document.body.dataset.requests = performance.getEntriesByType('resource').length;
	document.body.dataset.renderMs = Math.round(performance.now());
	document.body.dataset.rendered = '1';
}

state.scheme = document.body.dataset.colorscheme;
if (document.getElementById('stacks')) {
	setup(null);
	show(JSON.parse(document.getElementById('stacks').textContent));
	rendered();
}
