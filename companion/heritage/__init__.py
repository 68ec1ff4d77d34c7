"""Vampire: The Masquerade – Heritage: the score pad and the chronicle ledger.

What lives here is the arithmetic and the bookkeeping players otherwise do with pencil and
paper, as `docs/heritage.md` states it (every section there, §H1…, names its place in seed 003):

- `models`: the pydantic models of a game's setup, its end-of-game entries, the primogen draw,
  and the chronicle ledger (chapters 1–21 in 7 eras).
- `pad`: rounds for a player count, the end-of-game score (totals, ranks, winner, ties) and the
  file loader (`score_file`) a command line can call.
- `battlegrounds`: the mission claimant and the battleground formulas the seed states, from
  counts the players enter, and the first player after a round.
- `ledger`: the chronicle's derived facts (eras, next chapter's order, obligations, free dots,
  havens, titles, era standing, the aftermath checklist).
- `errors`: `HeritageError`, the one refusal of this package.

There is no card automation: the seed gives no card lists, so any number it lacks (era points,
trait values, track lengths, VP bands, mission rewards) is an entry the players make.

May import: the standard library, pydantic and the modules of this package. No Flet, no I/O
other than `pad.load_game` reading the file it is given, nothing else of `companion`.
"""
