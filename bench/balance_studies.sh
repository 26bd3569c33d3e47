#!/bin/sh
# The studies behind docs/balance.md, as they were run (each under 10 minutes
# of wall time on 2 shared cores). Every game's seeds follow from --seed (1,
# the default), the configuration and the game's index, and the engines have
# simulation budgets, so each command replays the same games.
#
#   sh bench/balance_studies.sh            # all of them (about an hour on 2 cores; make balance)
#   sh bench/balance_studies.sh robble7    # one, by its folder name
#
# Results go to results/balance/NAME (ignored by git). Then
#   PYTHONPATH=src python bench/balance_doc.py     (make balance-doc)
# publishes each (src/boardlab/study/published/NAME.json.gz, committed: the
# games' rows, the command, the engine's full settings) and rewrites
# docs/balance.md's tables and figures from them; tests/test_balance_docs.py
# checks the page against the published files and these lines. A study
# records its engine's full settings and the boardlab version, and --resume
# refuses other ones: after an engine change, move results/balance away and
# run everything again.
set -e
BOARDLAB="${BOARDLAB:-python -m boardlab}"
R=results/balance

study() {  # NAME GAME ARGS...
    name=$1; shift
    if [ -n "$ONLY" ] && [ "$ONLY" != "$name" ]; then return; fi
    $BOARDLAB study "$@" --out "$R/$name" --quiet
}

ONLY="$1"
# (a study grown with --resume and a larger --games or more option values
# holds exactly the games of one run with the final numbers, given here)
study yugo9        yugo   --sizes 9 --option komi=0..12:2 --games 30 --engine mcts:200
study yugo9-1000   yugo   --sizes 9 --option komi=0..12:3 --games 20 --engine mcts:1000
study yugo7        yugo   --sizes 7 --option komi=0..12:2 --games 20 --engine mcts:200
study yugo7-1000   yugo   --sizes 7 --option komi=0..12:2 --games 32 --engine mcts:1000
study robble7      robble --sizes 7 --option pie=yes,no --games 100 --engine mcts:200
study robble7-1000 robble --sizes 7 --option pie=yes,no --games 80 --engine mcts:1000
study robble-sizes robble --sizes 5,7,9 --option pie=yes,no --games 30 --engine mcts:200
study pilo8        pilo   --sizes 8 --option pie=yes,no --games 80 --engine mcts:200
study implo9       implo  --sizes 9 --option pie=yes,no --games 60 --engine mcts:200
study implo9-1000  implo  --sizes 9 --option pie=yes,no --games 80 --engine mcts:1000
study pilo8-1000   pilo   --sizes 8 --option pie=yes,no --games 80 --engine mcts:1000
study vimbre11     vimbre --sizes 11 --games 40 --engine mcts:200
# too weak for its board on purpose: the report's warnings (docs/balance.md)
study robble6-50   robble --sizes 6 --option pie=yes,no --games 40 --engine mcts:50
