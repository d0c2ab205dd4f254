#!/usr/bin/env node
// Drives goengine's GTP front-end with Sabaki's own GTP library (@sabaki/gtp), the way Sabaki
// (v0.5x, src/modules/enginesyncer.js and sabaki.js) does, and prints a JSON summary on stdout.
// Exit code 0 when every check passed, 1 when one failed, 2 on a usage error.
//
//   node drive.js /path/to/goengine [engine args...]     (or GOENGINE=/path/to/goengine)
//
// What Sabaki does, and so what this script does:
//
// - `new Controller(path, args, {cwd})`, then on 'started' the start-up commands sent at once,
//   without waiting for answers: name, version, protocol_version, list_commands, and the
//   engine's "commands" setting split at ';' (here: komi 7.5; boardsize 9; clear_board).
// - Positions reach the engine through ControllerStateTracker.sync({komi, boardsize, history}),
//   history built from the game tree: a root AB of two or more stones on an empty board becomes
//   set_free_handicap (the engine lists it); any other set-up stones (AB/AW) become one `play`
//   per stone, so one colour plays several times in a row; moves become `play`. The tracker
//   sends the commands of one sync pipelined (Promise.all) and, when the new history shares a
//   prefix with the engine's, sends `undo`s instead of clear_board (a takeback).
// - Which analysis commands: the first of Sabaki's settings `engines.analyze_commands`
//   (analyze, kata-analyze, lz-analyze) and `engines.gemove_analyze_commands` (genmove_analyze,
//   kata-genmove_analyze, lz-genmove_analyze) that list_commands lists (sabaki.js analyzeMove,
//   generateMove); for goengine, kata-analyze and kata-genmove_analyze.
// - Engine moves: `genmove B`, and `kata-genmove_analyze W 50` (Sabaki prefers it when listed),
//   whose move is the `play X` line of the streamed response.
// - Analysis: `kata-analyze B 50` (colour, interval in centiseconds) queued without awaiting;
//   every line of the streamed response reaches a subscriber; lines starting with `info ` are
//   parsed as Sabaki parses them (see parseAnalysis). Sabaki stops an analysis by sending
//   `protocol_version` while the controller is busy (EngineSyncer.sendAbort); a sync started
//   during an analysis sends that abort without awaiting it and queues its `play` right after.
// - `quit` through controller.stop().
//
// Verification that Sabaki itself does not do: `showboard` after each sync, compared with the
// position computed by @sabaki/go-board; the summary records what went over the wire.

'use strict'

const path = require('path')
const {Controller, ControllerStateTracker, Command} = require('@sabaki/gtp')
const GoBoard = require('@sabaki/go-board')

const SIZE = 9
const KOMI = 7.5
const INTERVAL = '50' // Sabaki's default board.analysis_interval (centiseconds)
const STEP_TIMEOUT_MS = 180000 // a cold numba cache makes the first genmove compile (about 25 s here)
const WATCHDOG_MS = 360000
const MIN_INFO_LINES = 3 // analysis reports to wait for before stopping an analysis
const REQUIRED_COMMANDS = [
  'protocol_version', 'name', 'version', 'list_commands', 'quit', 'boardsize', 'clear_board',
  'komi', 'play', 'genmove', 'undo', 'set_free_handicap', 'kata-analyze', 'kata-genmove_analyze',
  'lz-analyze', 'lz-genmove_analyze'
]
// Sabaki's defaults (src/setting.js): the analysis commands it tries, in order
const ANALYZE_COMMANDS = ['analyze', 'kata-analyze', 'lz-analyze']
const GENMOVE_ANALYZE_COMMANDS = ['genmove_analyze', 'kata-genmove_analyze', 'lz-genmove_analyze']

const summary = {ok: false, failures: [], engine: null, steps: {}, transcript: [], stderr_tail: []}
const t0 = Date.now()
const ms = () => Date.now() - t0

function fail(message) {
  summary.failures.push(message)
}

function check(condition, message) {
  if (!condition) fail(message)
  return !!condition
}

function finish() {
  summary.ok = summary.failures.length === 0
  summary.elapsed_ms = ms()
  summary.transcript = summary.transcript.slice(-80)
  summary.stderr_tail = summary.stderr_tail.slice(-20)
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n')
  process.exit(summary.ok ? 0 : 1)
}

function withTimeout(promise, label, timeout = STEP_TIMEOUT_MS) {
  let timer
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${timeout} ms: ${label}`)), timeout)
    })
  ])
}

const sleep = delay => new Promise(resolve => setTimeout(resolve, delay))

// ---- the game tree: a list of nodes from the root, each {AB, AW, B, W} of GTP vertices

function vertices(board, coords) {
  return (coords || []).map(c => board.parseVertex(c))
}

// The position at the end of `nodes`, as Sabaki's gametree.getBoard computes it: set-up stones
// are placed, moves are played (with captures).
function boardOf(nodes) {
  let board = GoBoard.fromDimensions(SIZE)
  for (let node of nodes) {
    for (let [prop, sign] of [['AB', 1], ['AW', -1]]) {
      for (let v of vertices(board, node[prop])) board = board.clone().set(v, sign)
    }
    for (let [prop, sign] of [['B', 1], ['W', -1]]) {
      for (let v of vertices(board, node[prop])) board = board.makeMove(sign, v)
    }
  }
  return board
}

function sameSigns(a, b) {
  return JSON.stringify(a.signMap) === JSON.stringify(b.signMap)
}

// The `play` / `set_free_handicap` history Sabaki's EngineSyncer.sync builds for `nodes` (its
// replay step), with the engine board it implies.
async function historyOf(nodes, stateTracker) {
  let engineBoard = GoBoard.fromDimensions(SIZE)
  let history = []
  for (let node of nodes) {
    let placedHandicap = false
    if (
      node.AB && node.AB.length >= 2 && engineBoard.isEmpty() &&
      (await stateTracker.knowsCommand('set_free_handicap'))
    ) {
      let vs = vertices(engineBoard, node.AB).sort() // Sabaki sorts the [x, y] arrays as strings
      let coords = [...new Set(vs.map(v => engineBoard.stringifyVertex(v)))]
      history.push({name: 'set_free_handicap', args: coords})
      for (let v of vs) if (engineBoard.get(v) === 0) engineBoard = engineBoard.makeMove(1, v)
      placedHandicap = true
    }
    for (let prop of ['B', 'W', 'AB', 'AW']) {
      if (node[prop] == null || (placedHandicap && prop === 'AB')) continue
      let color = prop.slice(-1)
      let sign = color === 'B' ? 1 : -1
      for (let v of vertices(engineBoard, node[prop])) {
        if (engineBoard.has(v) && engineBoard.get(v) !== 0) continue
        let coord = engineBoard.has(v) ? engineBoard.stringifyVertex(v) : 'pass'
        history.push({name: 'play', args: [color, coord]})
        engineBoard = engineBoard.makeMove(sign, v)
      }
    }
  }
  return {history, engineBoard}
}

// ---- analysis lines, parsed by Sabaki's rules (EngineSyncer's parseAnalysis):
// the line is split at `info`; in each part the trailing run of vertices is the PV (cut at the
// first pass), the token before it is the `pv` key (Sabaki drops it unseen), the tokens before
// that are key/value pairs; parts whose move is not a board vertex (pass) are dropped; winrate
// is a percentage: an integer value is divided by 100, a decimal one multiplied by 100;
// scoreLead, when present, is a number (`+scoreLead`), shown on the board as the engine sent it.

const VERTEX = /^(pass|[A-Za-z]\d+)$/i

function parseAnalysis(line, board) {
  let problems = []
  let variations = []
  let parts = line.split(/\s*info\s+/).slice(1).map(x => x.trim())
  for (let part of parts) {
    let tokens = part.split(/\s+/)
    let end = tokens.length
    while (end > 0 && VERTEX.test(tokens[end - 1])) end--
    if (end === tokens.length) {
      problems.push(`no PV at the end of: ${part.slice(0, 80)}`)
      continue
    }
    if (tokens[end - 1] !== 'pv') problems.push(`token before the PV is ${tokens[end - 1]}, not pv`)
    let pvTokens = tokens.slice(end)
    let passAt = pvTokens.findIndex(x => x.toLowerCase() === 'pass')
    let pv = (passAt < 0 ? pvTokens : pvTokens.slice(0, passAt)).filter(x => x.length >= 2)
    let keyValues = tokens.slice(0, end - 1)
    if (keyValues.length % 2 !== 0) problems.push(`odd key/value tokens in: ${part.slice(0, 80)}`)
    let fields = {}
    for (let i = 0; i + 1 < keyValues.length; i += 2) fields[keyValues[i]] = keyValues[i + 1]
    if (fields.move == null || fields.visits == null || fields.winrate == null) {
      problems.push(`missing move/visits/winrate in: ${part.slice(0, 80)}`)
      continue
    }
    if (!/^[A-Za-z]\d+$/.test(fields.move)) continue // pass: Sabaki shows no variation for it
    let visits = +fields.visits
    let winrate = fields.winrate.includes('.') ? +fields.winrate * 100 : +fields.winrate / 100
    let vertex = board.parseVertex(fields.move)
    if (!Number.isInteger(visits) || visits <= 0) problems.push(`bad visits ${fields.visits}`)
    if (!(winrate >= 0 && winrate <= 100)) problems.push(`bad winrate ${fields.winrate}`)
    if (vertex[0] < 0) problems.push(`move ${fields.move} is off the board`)
    else if (board.get(vertex) !== 0) problems.push(`move ${fields.move} is on a stone`)
    let moves = pv.map(x => board.parseVertex(x))
    if (moves.some(v => v[0] < 0)) problems.push(`PV off the board: ${pv.join(' ')}`)
    if (pv.length === 0 || pv[0].toUpperCase() !== fields.move.toUpperCase()) {
      problems.push(`PV does not start with the move ${fields.move}: ${pvTokens.join(' ')}`)
    }
    let scoreLead = fields.scoreLead != null ? +fields.scoreLead : null
    if (scoreLead != null && !Number.isFinite(scoreLead)) problems.push(`bad scoreLead ${fields.scoreLead}`)
    variations.push({move: fields.move.toUpperCase(), visits, winrate, scoreLead, order: +fields.order, pv})
  }
  if (parts.length > 0 && variations.length === 0 && problems.length === 0) {
    problems.push('no variation on a board vertex')
  }
  return {variations, problems}
}

// ---- a minimal EngineSyncer: the controller, its state tracker, analysis bookkeeping

class Syncer {
  constructor(enginePath, args) {
    this.commands = []
    this.analysisLines = [] // {at, line, parsed} of the analysis command in flight
    this.playLines = []
    this.board = GoBoard.fromDimensions(SIZE) // the position being analysed (for parsing)
    this.controller = new Controller(enginePath, args, {cwd: path.dirname(enginePath)})
    this.stateTracker = new ControllerStateTracker(this.controller)
    this.exit = null

    this.controller.on('command-sent', ({command, subscribe}) => {
      let text = Command.toString(command)
      summary.transcript.push({at: ms(), sent: text})
      if (/^((lz|kata)-)?(genmove_)?analyze$/.test(command.name) && command.args.length > 0) {
        let board = this.board
        subscribe(({line}) => {
          if (line.startsWith('info ')) {
            this.analysisLines.push({at: ms(), line, parsed: parseAnalysis(line, board)})
          } else if (line.startsWith('play ')) {
            this.playLines.push(line)
          }
        })
      }
    })
    this.controller.on('response-received', ({command, response}) => {
      let content = response.content.length > 160 ? response.content.slice(0, 160) + '...' : response.content
      summary.transcript.push({at: ms(), command: command.name, error: !!response.error, response: content})
    })
    this.controller.on('stderr', ({content}) => summary.stderr_tail.push(content))
  }

  // Sabaki's EngineSyncer.sendAbort: a cheap command ends a running analysis.
  async sendAbort() {
    if (this.controller.busy) return await this.controller.sendCommand({name: 'protocol_version'})
    return null
  }

  queueCommand(command, subscriber) {
    this.sendAbort()
    return this.stateTracker.queueCommand(command, subscriber)
  }

  async sync(nodes) {
    let before = summary.transcript.length
    let abort = this.sendAbort() // not awaited, as in Sabaki
    let {history, engineBoard} = await historyOf(nodes, this.stateTracker)
    let target = boardOf(nodes)
    check(sameSigns(engineBoard, target), 'the replayed history does not give the tree position')
    await this.stateTracker.sync({komi: KOMI, boardsize: [SIZE, SIZE], history})
    let abortResponse = await abort
    this.board = target
    let sent = summary.transcript.slice(before).filter(x => x.sent != null).map(x => x.sent)
    return {sent, abortResponse, history: history.map(c => Command.toString(c))}
  }

  // The engine's position (showboard) equals `board`.
  async boardMatches(board, label) {
    let response = await this.queueCommand({name: 'showboard'})
    if (!check(!response.error, `${label}: showboard failed: ${response.content}`)) return false
    let rows = {}
    for (let line of response.content.split('\n')) {
      let m = line.match(/^\s*(\d+)\s+((?:[.+XOxo]\s+)+)\d+\s*$/)
      if (m) rows[+m[1]] = m[2].trim().split(/\s+/)
    }
    let mismatches = []
    for (let y = 0; y < SIZE; y++) {
      let row = rows[SIZE - y]
      if (row == null || row.length !== SIZE) {
        mismatches.push(`row ${SIZE - y} missing`)
        continue
      }
      for (let x = 0; x < SIZE; x++) {
        let sign = {X: 1, x: 1, O: -1, o: -1}[row[x]] || 0
        if (sign !== board.get([x, y])) mismatches.push(board.stringifyVertex([x, y]))
      }
    }
    return check(mismatches.length === 0, `${label}: engine board differs at ${mismatches.join(' ')}`)
  }
}

// A move of `sign` at `coord` that @sabaki/go-board calls legal (not pass, on an empty point,
// no suicide, no ko retake).
function legalOn(board, sign, coord) {
  let v = board.parseVertex(coord)
  if (v[0] < 0) return false
  let {overwrite, suicide, ko} = board.clone().analyzeMove(sign, v)
  return !overwrite && !suicide && !ko
}

// ---- the session

async function startup(syncer) {
  let step = {}
  summary.steps.startup = step
  let started = new Promise(resolve => {
    syncer.controller.once('started', () => {
      let begin = Date.now()
      let startupCommands = 'komi 7.5; boardsize 9; clear_board' // the engine's "commands" setting
      let all = [
        syncer.controller.sendCommand({name: 'name'}),
        syncer.controller.sendCommand({name: 'version'}),
        syncer.controller.sendCommand({name: 'protocol_version'}),
        syncer.controller.sendCommand({name: 'list_commands'}),
        ...startupCommands
          .split(';')
          .filter(x => x.trim() !== '')
          .map(c => syncer.controller.sendCommand(Command.fromString(c)))
      ]
      step.pipelined = syncer.controller.commands.length // commands written before any answer
      resolve(Promise.all(all).then(responses => ({responses, elapsed: Date.now() - begin})))
    })
  })
  syncer.controller.start()
  syncer.controller.process.once('exit', (code, signal) => {
    syncer.exit = {code, signal}
  })
  syncer.controller.process.once('error', err => {
    fail(`cannot start the engine: ${err.message}`)
    finish()
  })
  let {responses, elapsed} = await withTimeout(started, 'start-up commands')
  let [name, version, protocol, list, komi, boardsize, clear] = responses
  step.ms = elapsed
  step.name = name.content
  step.version = version.content
  step.protocol_version = protocol.content
  syncer.commands = list.content.split('\n').map(x => x.trim())
  step.list_commands = syncer.commands.length
  syncer.analyzeCommand = ANALYZE_COMMANDS.find(x => syncer.commands.includes(x))
  syncer.genmoveAnalyzeCommand = GENMOVE_ANALYZE_COMMANDS.find(x => syncer.commands.includes(x)) || 'genmove'
  step.analyze_command = syncer.analyzeCommand
  step.genmove_analyze_command = syncer.genmoveAnalyzeCommand
  step.errors = responses.filter(r => r.error).map(r => r.content)
  check(step.pipelined === 7, `start-up: ${step.pipelined} commands in flight at once, expected 7`)
  check(step.errors.length === 0, `start-up: error responses ${JSON.stringify(step.errors)}`)
  check(name.content === 'goengine', `name answered ${JSON.stringify(name.content)}`)
  check(/^\d+\.\d+/.test(version.content), `version answered ${JSON.stringify(version.content)}`)
  check(protocol.content === '2', `protocol_version answered ${JSON.stringify(protocol.content)}`)
  let missing = REQUIRED_COMMANDS.filter(c => !syncer.commands.includes(c))
  check(missing.length === 0, `list_commands lacks ${missing.join(', ')}`)
  check(!komi.error && !boardsize.error && !clear.error, 'komi/boardsize/clear_board failed')
  check(syncer.stateTracker.state.komi === KOMI, 'the state tracker did not record komi')
  check(JSON.stringify(syncer.stateTracker.state.boardsize) === JSON.stringify([SIZE, SIZE]), 'boardsize not tracked')
}

// An analysis as Sabaki runs it: queued without awaiting, stopped by `protocol_version`.
// With `stopBy` a function, it stops the analysis instead (a sync during the analysis).
async function analyze(syncer, color, label, stopBy = null) {
  let step = {color}
  ;(summary.steps.analyses = summary.steps.analyses || []).push(step)
  syncer.analysisLines = []
  let begin = Date.now()
  let pending = syncer.queueCommand({name: syncer.analyzeCommand, args: [color, INTERVAL]})
  let deadline = Date.now() + 30000
  while (syncer.analysisLines.length < MIN_INFO_LINES && Date.now() < deadline) await sleep(20)
  let stopAt = Date.now()
  let linesAtStop = syncer.analysisLines.length
  let stopResult
  if (stopBy == null) {
    let response = await withTimeout(syncer.sendAbort(), `${label}: protocol_version after the analysis`)
    step.stop_response = response && response.content
    check(response != null && !response.error && response.content === '2',
      `${label}: protocol_version sent to stop the analysis answered ${JSON.stringify(response)}`)
  } else {
    stopResult = await withTimeout(stopBy(), `${label}: sync during the analysis`)
  }
  step.stop_ms = Date.now() - stopAt
  let analyzeResponse = await withTimeout(pending, `${label}: ${syncer.analyzeCommand} response end`)
  step.response_error = !!analyzeResponse.error
  step.analysis_ms = stopAt - begin
  let lines = syncer.analysisLines
  step.info_lines = lines.length
  step.lines_after_stop = lines.length - linesAtStop
  step.problems = [...new Set(lines.flatMap(l => l.parsed.problems))].slice(0, 10)
  let totals = lines.map(l => l.parsed.variations.reduce((s, v) => s + v.visits, 0))
  step.total_visits = totals
  let last = lines.length ? lines[lines.length - 1].parsed.variations : []
  step.variations_last = last.length
  step.best = last.length ? last.reduce((a, b) => (b.visits > a.visits ? b : a)) : null
  step.command = syncer.analyzeCommand
  step.score_leads = lines.every(l => l.parsed.variations.every(v => v.scoreLead != null))
  check(!analyzeResponse.error, `${label}: ${syncer.analyzeCommand} answered an error: ${analyzeResponse.content}`)
  check(lines.length >= MIN_INFO_LINES, `${label}: ${lines.length} info lines in 30 s, expected ${MIN_INFO_LINES}`)
  check(step.problems.length === 0, `${label}: unparsable info lines: ${step.problems.join('; ')}`)
  check(lines.every(l => l.parsed.variations.length > 0), `${label}: an info line without a variation`)
  check(totals.every((t, i) => i === 0 || t >= totals[i - 1]), `${label}: total visits went down: ${totals}`)
  // stopped at once: at most the line on its way and the one of the slice the stop cut short
  check(step.lines_after_stop <= 2, `${label}: ${step.lines_after_stop} info lines after the stop`)
  // only a guard against an analysis that does not stop: ten times the interval
  check(step.stop_ms < 5000, `${label}: the analysis took ${step.stop_ms} ms to stop`)
  return stopResult
}

async function session(syncer) {
  await startup(syncer)

  // Set-up stones: a handicap in the root (AB, two stones: set_free_handicap), white stones
  // added beside it (AW: three `play W` in a row), black stones added in a later node (two
  // `play B` in a row), then a white move.
  let nodes = [
    {AB: ['C3', 'G7'], AW: ['C7', 'G3', 'E7']},
    {AB: ['D5', 'E4']},
    {W: ['F5']}
  ]
  let sync1 = await withTimeout(syncer.sync(nodes), 'sync of the set-up position')
  summary.steps.setup = {sent: sync1.sent}
  let plays = sync1.sent.filter(c => c.startsWith('play'))
  check(sync1.sent.includes('set_free_handicap C3 G7'), `set-up: no set_free_handicap C3 G7 in ${sync1.sent}`)
  check(plays.length === 6, `set-up: ${plays.length} plays sent, expected 6: ${sync1.sent}`)
  check(JSON.stringify(plays.slice(0, 5)) ===
    JSON.stringify(['play W C7', 'play W G3', 'play W E7', 'play B D5', 'play B E4']),
  `set-up: the same-colour plays are not as expected: ${plays}`)
  summary.steps.setup.board_matches = await syncer.boardMatches(boardOf(nodes), 'set-up')

  // genmove for Black, as Sabaki's generateMove does when it uses plain genmove.
  let begin = Date.now()
  let gen = await withTimeout(syncer.queueCommand({name: 'genmove', args: ['B']}), 'genmove B')
  let move = gen.content.trim().toUpperCase()
  summary.steps.genmove = {move, ms: Date.now() - begin, error: !!gen.error}
  check(!gen.error, `genmove B answered an error: ${gen.content}`)
  check(legalOn(boardOf(nodes), 1, move), `genmove B answered ${move}, not a legal move here`)
  nodes.push({B: [move]})
  let tracked = syncer.stateTracker.state.history
  check(JSON.stringify(tracked[tracked.length - 1]) === JSON.stringify({name: 'play', args: ['B', move]}),
    'the state tracker did not record the genmove')

  // kata-genmove_analyze for White, as Sabaki's generateMove does when the engine lists it.
  syncer.playLines = []
  syncer.analysisLines = []
  syncer.board = boardOf(nodes)
  begin = Date.now()
  let genName = syncer.genmoveAnalyzeCommand
  let genAnalyze = await withTimeout(syncer.queueCommand({name: genName, args: ['W', INTERVAL]}), `${genName} W`)
  let playLine = syncer.playLines[0] || ''
  let wMove = playLine.slice('play '.length).trim().toUpperCase()
  summary.steps.genmove_analyze = {
    command: genName, move: wMove, ms: Date.now() - begin, error: !!genAnalyze.error,
    play_lines: syncer.playLines.length, info_lines: syncer.analysisLines.length,
    problems: [...new Set(syncer.analysisLines.flatMap(l => l.parsed.problems))].slice(0, 10)
  }
  check(!genAnalyze.error, `${genName} W answered an error: ${genAnalyze.content}`)
  check(syncer.playLines.length === 1, `${genName}: ${syncer.playLines.length} play lines`)
  check(syncer.analysisLines.length >= 1, `${genName}: no info line before the move`)
  check(summary.steps.genmove_analyze.problems.length === 0, `${genName}: unparsable info lines`)
  check(legalOn(boardOf(nodes), -1, wMove), `${genName} W played ${wMove}, not a legal move here`)
  await sleep(50) // the tracker records the move after the response (a microtask chain)
  tracked = syncer.stateTracker.state.history
  check(JSON.stringify(tracked[tracked.length - 1]) === JSON.stringify({name: 'play', args: ['W', wMove]}),
    `the state tracker did not record the ${genName} move: ${JSON.stringify(tracked.slice(-1))}`)
  nodes.push({W: [wMove]})
  check(await syncer.boardMatches(boardOf(nodes), 'after the engine moves'), 'board after the engine moves')

  // Takeback: back two moves, then a different black move: undo, undo, play.
  let before = boardOf(nodes.slice(0, 3))
  let other = ['B8', 'H2', 'J5', 'A5', 'E2', 'B2'].find(c => c !== move && legalOn(before, 1, c))
  nodes = [...nodes.slice(0, 3), {B: [other]}]
  let sync2 = await withTimeout(syncer.sync(nodes), 'sync after a takeback')
  summary.steps.takeback = {sent: sync2.sent, move: other}
  check(JSON.stringify(sync2.sent) === JSON.stringify(['undo', 'undo', `play B ${other}`]),
    `takeback: sent ${JSON.stringify(sync2.sent)}, expected undo, undo, play B ${other}`)
  summary.steps.takeback.board_matches = await syncer.boardMatches(boardOf(nodes), 'after the takeback')

  // Analysis for White, stopped with protocol_version (Sabaki's sendAbort).
  await analyze(syncer, 'W', 'analysis W')

  // The next command after an analysis gets its own answer.
  let known = await withTimeout(syncer.queueCommand({name: 'known_command', args: ['kata-analyze']}), 'known_command')
  check(!known.error && known.content === 'true', `known_command after the analysis answered ${JSON.stringify(known)}`)

  // Analysis again, stopped the way a click on the board stops it: a sync whose abort is not
  // awaited, with its `play` right behind it.
  let clicked = ['H7', 'C5', 'B6', 'H4'].find(c => legalOn(boardOf(nodes), -1, c))
  let sync3 = await analyze(syncer, 'W', 'analysis stopped by a move', () =>
    syncer.sync([...nodes, {W: [clicked]}])
  )
  nodes.push({W: [clicked]})
  summary.steps.move_during_analysis = {
    sent: sync3.sent, move: clicked, abort_response: sync3.abortResponse && sync3.abortResponse.content
  }
  check(sync3.abortResponse && sync3.abortResponse.content === '2',
    `the abort sent by the sync answered ${JSON.stringify(sync3.abortResponse)}`)
  check(JSON.stringify(sync3.sent) === JSON.stringify(['protocol_version', `play W ${clicked}`]),
    `sync during the analysis sent ${JSON.stringify(sync3.sent)}`)
  summary.steps.move_during_analysis.board_matches = await syncer.boardMatches(
    boardOf(nodes), 'after a move during the analysis'
  )

  // Black's analysis of the new position, stopped as before; then quit.
  await analyze(syncer, 'B', 'analysis B')
  let quitBegin = Date.now()
  await withTimeout(syncer.controller.stop(5000), 'quit')
  for (let i = 0; i < 100 && syncer.exit == null; i++) await sleep(20)
  summary.steps.quit = {ms: Date.now() - quitBegin, exit: syncer.exit}
  check(syncer.exit != null && syncer.exit.code === 0, `the engine's exit after quit: ${JSON.stringify(syncer.exit)}`)
}

async function main() {
  let argv = process.argv.slice(2)
  let enginePath = argv[0] || process.env.GOENGINE
  if (!enginePath) {
    process.stderr.write('usage: node drive.js /path/to/goengine [engine args...]  (or GOENGINE=...)\n')
    process.exit(2)
  }
  enginePath = path.resolve(enginePath)
  let args = argv.length > 1 ? argv.slice(1) : ['--playouts', '300', '--seed', '1']
  summary.engine = {path: enginePath, args}
  let syncer = new Syncer(enginePath, args)
  let kill = () => syncer.controller.process && syncer.controller.process.kill()
  let watchdog = setTimeout(() => {
    fail(`watchdog: the session took more than ${WATCHDOG_MS} ms`)
    kill()
    finish()
  }, WATCHDOG_MS)
  try {
    await session(syncer)
  } catch (err) {
    fail(`exception: ${err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : err}`)
  }
  clearTimeout(watchdog)
  kill()
  finish()
}

main()
