/* Robble's page plug-in (see index.js): a click places; only its scores need words. */
export default {
  scoreNote: "Scores if the board were full now: each side's biggest group left after equal groups cancel.",
};
