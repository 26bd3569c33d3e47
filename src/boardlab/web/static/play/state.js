/* The game page's state: one plain object, made once by newPlayState() and
 * handed to every function that reads or changes it (as chessground hands
 * its State around), so what a function touches is in its signature. */

import { newAnalysisState } from "../analysis/state.js";
import { newSound } from "./sound.js";

export function newPlayState() {
  return {
    kinds: {},          // game name -> /api/kinds entry
    engines: [],        // /api/engines
    route: null,        // the address shown (play/address.js), while a game is open
    gid: null,          // the game open on the page
    live: null,         // its state as the server last sent it
    shown: null,        // the position drawn: live, or an earlier ply
    viewPly: null,      // the ply looked at (null: the current position)
    sel: null,          // a game plug-in's selection (a stack, stones, a patch)
    cursor: null,       // the keyboard cursor's point index
    ui: {},             // a game plug-in's own control settings, kept between redraws (its keys)
    showCount: null,    // shade what the count is made of (null: at the end of a game)
    hint: null,         // {move, points, ply}: the engine's suggestion, for this ply
    editor: null,       // the board editor's pieces (play/editor.js)
    pollCtl: null,      // AbortController of the long poll, while it runs
    busy: false,        // a move is on its way
    resignArmed: null,  // the timer of a first click on Resign
    token: null,        // play by link: the seat (or spectator) token from the URL
    ws: null,           // the live WebSocket
    wsRetry: null,      // the timer that tries the socket again
    clockTimer: null,   // the interval that redraws the clock
    clockAt: 0,         // performance.now() when the clock reading arrived
    flipped: false,     // the board turned half a turn
    flipFor: null,      // the game the flip was chosen for
    again: null,        // {id, body}: "Play again" repeats these settings
    analysis: newAnalysisState(),  // the analysis mode's own state (analysis/)
    sound: newSound(),  // sounds and their mute toggle (play/sound.js)
  };
}
