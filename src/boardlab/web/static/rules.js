// The rules pages: draw their ```board diagrams (a file, not inline, so the
// Content-Security-Policy can keep script-src 'self').
import { drawDiagrams } from './board.js';

drawDiagrams();
