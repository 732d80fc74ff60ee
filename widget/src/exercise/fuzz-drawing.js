/**
 * The drawing of a graph no build has seen: "Check my whole engine"'s smallest failing graph
 * (engine-check.js), laid out here in the shape course/check_graphs.py's Graphviz drawings have,
 * so that graph-view.js paints it and steps through it the same way: each value a box of four
 * fields (name, data, grad, room for its verdict) with the class `n<i>`, each op a circle with
 * the class `o<i>`, and an edge for every use of an input.
 *
 * Nodes stand in ranks by depth (leaves first); left to right for the wide drawing, top down
 * for the narrow one. Pure: strings in, strings out (tests/widget/fuzz-drawing.test.mjs).
 */

const FONT = 12;
const BOX = { width: 132, field: 22 }; // a value's box; four fields high
const OP_R = 18;
const GAP = 28; // between a box and its op, and between nodes of a rank

/** `{wide, narrow}`: the SVG of `check` (a result's check: `nodes` with `id, name, op, inputs, data_text`). */
export function drawCheck(check) {
  return { wide: draw(check, "LR"), narrow: draw(check, "TB") };
}

function ranks(nodes) {
  const depth = [];
  for (const node of nodes) depth[node.id] = node.op ? 1 + Math.max(...node.inputs.map((i) => depth[i])) : 0;
  return depth;
}

function draw(check, direction) {
  const depth = ranks(check.nodes);
  const across = direction === "LR";
  const boxAlong = across ? BOX.width : BOX.field * 4; // a box's size along the ranks' direction
  const boxAcross = across ? BOX.field * 4 : BOX.width;
  const rankStep = boxAlong + 2 * OP_R + 3 * GAP;
  const place = [];
  const used = [];
  for (const node of check.nodes) {
    const rank = depth[node.id];
    const slot = (used[rank] = (used[rank] ?? 0) + 1) - 1;
    const along = rank * rankStep + (rank ? 2 * OP_R + 2 * GAP : 0);
    place[node.id] = { along, across: slot * (boxAcross + GAP) };
  }
  const at = (p) => (across ? { x: p.along, y: p.across } : { x: p.across, y: p.along });
  const parts = [];
  for (const node of check.nodes) {
    const box = at(place[node.id]);
    const [w, hgt] = [BOX.width, BOX.field * 4];
    parts.push(value(node, box, w, hgt));
    if (!node.op) continue;
    const centre = opCentre(place[node.id], boxAcross, at);
    parts.push(
      `<g class="node op o${node.id}"><ellipse fill="none" stroke="black" stroke-width="1.2" cx="${centre.x}" cy="${centre.y}" rx="${OP_R}" ry="${OP_R}"/>` +
        `<text text-anchor="middle" x="${centre.x}" y="${centre.y + 4}" font-family="Helvetica,Arial,sans-serif" font-size="${FONT}">${escape(node.op)}</text></g>`,
    );
    parts.push(
      edge({ x: centre.x + (across ? OP_R : 0), y: centre.y + (across ? 0 : OP_R) }, entry(box, w, hgt, across), 0),
    );
    node.inputs.forEach((input, k) => {
      const from = exit(at(place[input]), w, hgt, across);
      const twice = node.inputs.indexOf(input) !== k; // the same input again: bent apart
      parts.push(edge(from, centre, twice ? 1 : 0, OP_R));
    });
  }
  const width = Math.max(...check.nodes.map((n) => at(place[n.id]).x)) + BOX.width + 8;
  const height = Math.max(...check.nodes.map((n) => at(place[n.id]).y)) + BOX.field * 4 + 8;
  return (
    `<svg width="${Math.round((width * 4) / 3)}" height="${Math.round((height * 4) / 3)}" viewBox="-4 -4 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<g class="graph">${parts.join("")}</g></svg>`
  );
}

function opCentre(p, boxAcross, at) {
  return at({ along: p.along - GAP - OP_R, across: p.across + boxAcross / 2 });
}

function value(node, { x, y }, w, hgt) {
  const kind = node.op ? "result" : "leaf";
  const texts = [node.name, `data ${node.data_text}`, "grad", ""];
  const field = hgt / 4;
  const lines = [1, 2, 3].map(
    (k) =>
      `<polyline fill="none" stroke="black" stroke-width="1.2" points="${x},${y + k * field} ${x + w},${y + k * field}"/>`,
  );
  const words = texts.map(
    (text, k) =>
      `<text text-anchor="middle" x="${x + w / 2}" y="${y + k * field + field / 2 + 4}" font-family="Helvetica,Arial,sans-serif" font-size="${FONT}">${escape(text)}</text>`,
  );
  return (
    `<g class="node value ${kind} n${node.id}"><path fill="none" stroke="black" stroke-width="1.2" d="M${x},${y}h${w}v${hgt}h${-w}z"/>` +
    `${lines.join("")}${words.join("")}</g>`
  );
}

/** Where an edge leaves a value (its far side) and enters one (its near side). */
function exit({ x, y }, w, hgt, across) {
  return across ? { x: x + w, y: y + hgt / 2 } : { x: x + w / 2, y: y + hgt };
}

function entry({ x, y }, w, hgt, across) {
  return across ? { x, y: y + hgt / 2 } : { x: x + w / 2, y };
}

/** An arrow from `a` to `b`, stopping `short` before it (an op's circle), bent by `bend` (a
 * second use of one input, as in `x * x`, is an edge of its own). */
function edge(a, b, bend, short = 0) {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const tip = { x: b.x - ux * short, y: b.y - uy * short };
  const control = { x: (a.x + tip.x) / 2 - uy * bend * 36, y: (a.y + tip.y) / 2 + ux * bend * 36 };
  const [bx, by] = [tip.x - ux * 7, tip.y - uy * 7];
  const arrow = [tip.x, tip.y, bx - uy * 3.5, by + ux * 3.5, bx + uy * 3.5, by - ux * 3.5].map(round);
  const path = [a.x, a.y, control.x, control.y, bx, by].map(round);
  return (
    `<g class="edge"><path fill="none" stroke="black" stroke-width="1.2" d="M${path[0]},${path[1]}Q${path[2]},${path[3]} ${path[4]},${path[5]}"/>` +
    `<polygon fill="black" stroke="black" stroke-width="1.2" points="${arrow[0]},${arrow[1]} ${arrow[2]},${arrow[3]} ${arrow[4]},${arrow[5]}"/></g>`
  );
}

const round = (n) => Math.round(n * 100) / 100;

function escape(text) {
  return String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
