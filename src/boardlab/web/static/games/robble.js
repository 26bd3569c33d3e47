/* Robble's page plug-in (see index.js): a click places, as the plain
 * behaviour does; what a move did and what the count is made of come from
 * the server (games/robble_view.py). */
export default {};
