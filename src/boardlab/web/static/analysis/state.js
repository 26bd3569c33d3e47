/* The analysis mode's state: one plain object (newAnalysisState), handed to
 * every function of analysis/ that reads or changes it. */

export function newAnalysisState() {
  return {
    on: false,          // the mode is open
    base: null,         // the game it was opened on: {id, game, size, options, start, moves, colors, ply, flipped, variations, onSave}
    root: null,         // the move tree (tree.js): the main line and the variations
    node: null,         // the tree node shown
    view: null,         // the server's drawing of that position (POST /api/analysis/view)
    analysis: null,     // the engine's analysis of it, as far as it has come
    cache: new Map(),   // moves joined by " " -> analysis
    ws: null,           // the /api/analysis/ws socket
    queue: [],          // messages waiting for the socket to open
    seq: 0,             // the last request id
    want: null,         // {id, key}: the position analysis asked for
    job: null,          // {id, done, total, wins}: the whole-game analysis running
    game: null,         // the whole-game analysis, when done
    preview: null,      // {cand, upto, view, points}: a candidate's line previewed
    choices: null,      // {point, moves}: the moves a clicked point starts
    message: "",        // the last error, in words
    saveTimer: null,    // the timer that saves the variations
    onSave: null,       // base.onSave
    handlers: null,     // {goto(node), play(move), preview(cand, upto)}: what clicks do
  };
}
