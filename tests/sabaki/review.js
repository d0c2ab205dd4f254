#!/usr/bin/env node
// Reads a review SGF written by `goengine review` with Sabaki's own SGF parser (@sabaki/sgf,
// the library Sabaki opens files with) and prints, as one JSON line on stdout, what Sabaki's
// win-rate graph would draw from it: for each node of the main line (the root first, then each
// first child, as Sabaki's current track runs without variations chosen), its depth, its move
// (`B`/`W` as written), its `SBKV` as Sabaki reads it (the first value, a string: the graph
// takes `node.data.SBKV && node.data.SBKV[0]`, src/modules/sabaki.js, winrateData) and as the
// number the graph plots with it, its comment, and how many variations leave from it.
//
//   node review.js GAME-review.sgf
//
// Exit code 0 when the file parsed, 1 when it did not, 2 on a usage error.

const sgf = require('@sabaki/sgf')

const [path] = process.argv.slice(2)
if (path == null) {
  console.error('usage: node review.js GAME-review.sgf')
  process.exit(2)
}

let roots
try {
  roots = sgf.parseFile(path)
} catch (err) {
  console.error(`cannot parse ${path}: ${err.message}`)
  process.exit(1)
}

const nodes = []
let depth = 0
for (let node = roots[0]; node != null; node = node.children[0], depth++) {
  const data = node.data
  const first = key => (data[key] != null ? data[key][0] : null)
  const sbkv = first('SBKV')
  nodes.push({
    depth,
    B: first('B'),
    W: first('W'),
    SBKV: sbkv,
    graph: sbkv == null ? null : +sbkv,
    comment: first('C'),
    variations: Math.max(0, node.children.length - 1),
    variationMoves: node.children.slice(1).map(child => child.data.B || child.data.W || null)
  })
}

console.log(JSON.stringify({games: roots.length, nodes}))
